#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C functions the disk cache needs that the Swift `Glibc` module does not import
/// (`<sys/xattr.h>` is not part of it, and `statx` needs `_GNU_SOURCE`), resolved once at run
/// time with `dlsym` from the C library already loaded in the process. A function that cannot
/// be resolved is `nil`, and the cache falls back (sidecar files for extended data, the
/// modification date for the creation date).
///
/// Decision: `dlsym` instead of a C shim target, because the module rule keeps
/// `WebImageCaches` free of targets of its own; the signatures below are the stable Linux ABI.
struct SystemCalls: @unchecked Sendable {
    // @unchecked Sendable: the stored values are immutable C function pointers, set once in
    // `init` and only called afterwards; calling them concurrently is as safe as calling the C
    // functions directly.

    typealias FSetXattr = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
    typealias FGetXattr = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
    typealias FRemoveXattr = @convention(c) (Int32, UnsafePointer<CChar>) -> Int32
    typealias Statx = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UInt32, UnsafeMutableRawPointer) -> Int32

    /// `fsetxattr(fd, name, value, size, flags)`.
    let fsetxattr: FSetXattr?
    /// `fgetxattr(fd, name, value, size)`.
    let fgetxattr: FGetXattr?
    /// `fremovexattr(fd, name)`.
    let fremovexattr: FRemoveXattr?
    /// `statx(dirfd, path, flags, mask, buffer)` (Linux 4.11+, glibc 2.28+).
    let statx: Statx?

    /// The functions of this process's C library.
    static let shared = SystemCalls()

    private init() {
        #if os(Linux)
        let handle = dlopen(nil, RTLD_NOW)
        func resolve<Function>(_ name: String, as type: Function.Type) -> Function? {
            guard let handle, let symbol = dlsym(handle, name) else { return nil }
            return unsafeBitCast(symbol, to: type)
        }
        fsetxattr = resolve("fsetxattr", as: FSetXattr.self)
        fgetxattr = resolve("fgetxattr", as: FGetXattr.self)
        fremovexattr = resolve("fremovexattr", as: FRemoveXattr.self)
        statx = resolve("statx", as: Statx.self)
        #else
        fsetxattr = nil
        fgetxattr = nil
        fremovexattr = nil
        statx = nil
        #endif
    }

    /// Whether extended attributes can be tried at all on this system.
    var hasExtendedAttributes: Bool {
        fsetxattr != nil && fgetxattr != nil
    }

    /// `STATX_BTIME` from `<linux/stat.h>`.
    private static let statxBirthTime: UInt32 = 0x800
    /// The offset of `stx_btime` in `struct statx` (a fixed kernel ABI: 256 bytes).
    private static let statxBirthTimeOffset = 80
    /// The offset of `stx_mask`.
    private static let statxMaskOffset = 0

    /// The birth time of `name` in the directory `directoryFD`, in seconds since 1970, or
    /// `nil` where the system or the file system does not report it.
    func birthTime(of name: UnsafePointer<CChar>, in directoryFD: Int32) -> Double? {
        guard let statx else { return nil }
        return withUnsafeTemporaryAllocation(byteCount: 256, alignment: 8) { buffer -> Double? in
            guard let base = buffer.baseAddress else { return nil }
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            guard statx(directoryFD, name, AT_SYMLINK_NOFOLLOW, Self.statxBirthTime, base) == 0 else { return nil }
            let mask = buffer.load(fromByteOffset: Self.statxMaskOffset, as: UInt32.self)
            guard mask & Self.statxBirthTime != 0 else { return nil }
            let seconds = buffer.load(fromByteOffset: Self.statxBirthTimeOffset, as: Int64.self)
            let nanoseconds = buffer.load(fromByteOffset: Self.statxBirthTimeOffset + 8, as: UInt32.self)
            return Double(seconds) + Double(nanoseconds) / 1e9
        }
    }
}
