import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under the system's temporary directory, removed (with everything in it)
/// when the last reference goes. Every test of this target works in one of these, never in
/// the user's real cache.
final class TestDirectory: Sendable {
    let url: URL
    var path: String { url.path }

    init(_ label: String = #function) {
        let safe = label.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.prefix(40)
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("swiftwebimage-caches-tests", isDirectory: true)
            .appendingPathComponent("\(String(String.UnicodeScalarView(safe)))-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        // Undo any chmod a test did, then remove.
        _ = chmod(url.path, 0o755)
        try? FileManager.default.removeItem(at: url)
    }

    /// A subdirectory URL (not created).
    func appending(_ component: String) -> URL {
        url.appendingPathComponent(component, isDirectory: true)
    }

    /// Every file and directory below the root, as paths relative to it, sorted.
    func allRelativePaths() -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return [] }
        return (enumerator.allObjects as? [String] ?? []).sorted()
    }
}

/// File-system helpers for the tests.
enum FileTimes {
    /// Sets the access and modification times of `path` (seconds since 1970); `nil` leaves a
    /// time unchanged.
    static func set(_ path: String, access: Double?, modification: Double?) {
        func spec(_ value: Double?) -> timespec {
            guard let value else { return timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2) }  // UTIME_OMIT
            let seconds = value.rounded(.down)
            return timespec(tv_sec: Int(seconds), tv_nsec: Int((value - seconds) * 1e9))
        }
        var times = [spec(access), spec(modification)]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    /// The `stat` times of `path`: access, modification, change.
    static func get(_ path: String) -> (access: Double, modification: Double, change: Double)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        func seconds(_ time: timespec) -> Double { Double(time.tv_sec) + Double(time.tv_nsec) / 1e9 }
        return (seconds(info.st_atim), seconds(info.st_mtim), seconds(info.st_ctim))
    }

    /// The birth time of `path` from `statx` (resolved with `dlsym`, as the cache does: the
    /// Glibc module does not import it). Not Foundation's `creationDate`, which on Linux is
    /// not the birth time.
    static func creation(_ path: String) -> Double? {
        typealias Statx = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UInt32, UnsafeMutableRawPointer) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "statx") else { return nil }
        let statx = unsafeBitCast(symbol, to: Statx.self)
        var buffer = [UInt8](repeating: 0, count: 256)
        let birthTime: UInt32 = 0x800  // STATX_BTIME
        let result = buffer.withUnsafeMutableBytes { statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, birthTime, $0.baseAddress!) }
        return buffer.withUnsafeBytes { bytes -> Double? in
            guard result == 0, bytes.load(fromByteOffset: 0, as: UInt32.self) & birthTime != 0 else { return nil }
            // struct statx: stx_btime (tv_sec i64, tv_nsec u32) at offset 80.
            return Double(bytes.load(fromByteOffset: 80, as: Int64.self)) + Double(bytes.load(fromByteOffset: 88, as: UInt32.self)) / 1e9
        }
    }

    /// The current time.
    static func now() -> Double {
        Date().timeIntervalSince1970
    }
}

/// Whether this process can write into a directory made read-only with chmod (it cannot,
/// unless it runs as root: root ignores permission bits).
var chmodStopsWrites: Bool { geteuid() != 0 }
