public import Foundation
import WebImageCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where disk caches live by default.
extension DiskCache {
    /// The default directory of a namespace: `$XDG_CACHE_HOME/swiftwebimage/<namespace>`, or
    /// `~/.cache/swiftwebimage/<namespace>` when `XDG_CACHE_HOME` is unset or not absolute (the
    /// XDG Base Directory rule). The home directory is `$HOME`, else the user database's.
    ///
    /// Pure: it creates nothing.
    /// - Parameters:
    ///   - namespace: The cache's namespace, made safe by ``directoryName(forNamespace:)``.
    ///   - environment: The environment to read (default: the process's), for tests.
    public static func defaultDirectory(namespace: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: String
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = home + "/.cache"
        } else if let entry = getpwuid(getuid()), let home = entry.pointee.pw_dir {
            base = String(cString: home) + "/.cache"
        } else {
            base = NSTemporaryDirectory()
        }
        return URL(fileURLWithPath: base, isDirectory: true)
            .appendingPathComponent("swiftwebimage", isDirectory: true)
            .appendingPathComponent(directoryName(forNamespace: namespace), isDirectory: true)
    }

    /// The directory name of a namespace: the namespace itself when it is 1 to 100 characters
    /// of ASCII letters, digits, `-`, `_` and `.` (and not `.` or `..`); otherwise those
    /// characters kept, the others replaced by `_`, plus `-` and 16 hex digits of the
    /// namespace's SHA-256, so that `"a/b"` and `"a_b"` stay apart and no namespace can
    /// climb out of the `swiftwebimage` directory.
    public static func directoryName(forNamespace namespace: String) -> String {
        let allowed = { (byte: UInt8) -> Bool in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F || byte == 0x2E
        }
        let bytes = Array(namespace.utf8)
        let isSafe = !bytes.isEmpty && bytes.count <= 100 && bytes.allSatisfy(allowed) && !bytes.allSatisfy { $0 == 0x2E }
        if isSafe { return namespace }
        let kept = String(decoding: bytes.prefix(100).map { allowed($0) && $0 != 0x2E ? $0 : 0x5F }, as: UTF8.self)
        return kept + "-" + String(SHA256.hash(bytes).hexString.prefix(16))
    }
}
