import WebImageCore

/// The file name of a key in a disk cache: the SHA-256 of the key's UTF-8 bytes in lowercase
/// hex (64 characters), plus the key's path extension when it is short and alphanumeric
/// (`".png"`), as SDWebImage names its files with MD5 plus the URL's extension.
///
/// Whatever the key (`../../etc/passwd`, 10 kB, NUL bytes, Unicode), the name is 64 hex digits
/// and at most 17 more characters of `.[A-Za-z0-9]`: it never contains a `/`, never starts with
/// a dot, and never exceeds `NAME_MAX`, so it can only name a file inside the cache directory.
enum CacheFileName {
    /// The longest path extension kept.
    static let maxExtensionLength = 16

    static func name(forKey key: String) -> String {
        let hash = SHA256.hash(key.utf8).hexString
        guard let pathExtension = pathExtension(of: key) else { return hash }
        return hash + "." + pathExtension
    }

    /// The path extension of a key as a URL would give it: after the last dot of the last path
    /// component, with the query and fragment cut off. `nil` when absent, empty, longer than
    /// ``maxExtensionLength`` or not plain ASCII letters and digits.
    ///
    /// Works on the UTF-8 bytes: the delimiters are ASCII, so they never occur inside a
    /// multi-byte character.
    static func pathExtension(of key: String) -> String? {
        let utf8 = key.utf8
        var end = utf8.endIndex
        if let cut = utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) { end = cut }
        var start = utf8.startIndex
        if let slash = utf8[..<end].lastIndex(of: UInt8(ascii: "/")) { start = utf8.index(after: slash) }
        guard let dot = utf8[start..<end].lastIndex(of: UInt8(ascii: ".")), dot != start else { return nil }
        let candidate = utf8[utf8.index(after: dot)..<end]
        guard !candidate.isEmpty, candidate.count <= maxExtensionLength,
              candidate.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) })
        else { return nil }
        return String(decoding: candidate, as: UTF8.self)
    }

    /// Whether a directory item named `name` is an entry (not a temporary file, a sidecar, or
    /// anything else the cache keeps there): every cache file that is not an entry starts
    /// with a dot.
    static func isEntry(_ name: String) -> Bool {
        !name.hasPrefix(".")
    }

    /// The prefix of temporary files (`.tmp-...`); a reader never opens them.
    static let temporaryPrefix = ".tmp-"
    /// The prefix of extended-data sidecar files (`.ext-<entry name>`; content:
    /// ``ExtendedDataSidecar``).
    static let sidecarPrefix = ".ext-"

    static func sidecarName(for entryName: String) -> String {
        sidecarPrefix + entryName
    }
}
