import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The extended attribute that holds an entry's extended data (SDWebImage stores
/// `sd_extendedObject` the same way), read and written on an open descriptor so that the
/// data and its attribute belong to the same file. Stateless; safe from any thread.
enum ExtendedAttribute {
    /// The attribute name. The `user.` namespace is the one unprivileged processes may write.
    static let name = "user.swiftwebimage.extended"

    /// What a read found.
    enum ReadResult {
        case value(Data)
        /// The file has no such attribute.
        case absent
        /// The file system (or the system) does not support extended attributes.
        case unsupported
    }

    /// What a write did.
    enum WriteResult {
        case stored
        /// The file system (or the system) does not support extended attributes.
        case unsupported
        /// The value is larger than the file system accepts in an attribute.
        case tooLarge
        /// Another error (`errno`).
        case failed(Int32)
    }

    private static func isUnsupported(_ code: Int32) -> Bool {
        code == ENOTSUP || code == EOPNOTSUPP || code == ENOSYS
    }

    /// Reads the attribute of `fd`.
    static func read(_ fd: Int32) -> ReadResult {
        guard let fgetxattr = SystemCalls.shared.fgetxattr else { return .unsupported }
        for _ in 0..<3 {  // the value may change between asking its size and reading it
            let size = fgetxattr(fd, name, nil, 0)
            if size < 0 {
                return isUnsupported(errno) ? .unsupported : .absent
            }
            if size == 0 { return .value(Data()) }
            var data = Data(count: size)
            let read = data.withUnsafeMutableBytes { fgetxattr(fd, name, $0.baseAddress, size) }
            if read >= 0 {
                data.count = read
                return .value(data)
            }
            if errno != ERANGE { return isUnsupported(errno) ? .unsupported : .absent }
        }
        return .absent
    }

    /// Sets the attribute of `fd` to `value`.
    static func write(_ fd: Int32, _ value: Data) -> WriteResult {
        guard let fsetxattr = SystemCalls.shared.fsetxattr else { return .unsupported }
        let result = value.withUnsafeBytes { bytes -> Int32 in
            // A non-null pointer even for an empty value.
            withUnsafeTemporaryAllocation(byteCount: 1, alignment: 1) { empty in
                fsetxattr(fd, name, bytes.baseAddress ?? UnsafeRawPointer(empty.baseAddress), bytes.count, 0)
            }
        }
        if result == 0 { return .stored }
        let code = errno
        if isUnsupported(code) { return .unsupported }
        if code == E2BIG || code == ERANGE || code == ENOSPC || code == EDQUOT { return .tooLarge }
        return .failed(code)
    }

    /// Removes the attribute of `fd`, if any.
    static func remove(_ fd: Int32) {
        _ = SystemCalls.shared.fremovexattr?(fd, name)
    }
}
