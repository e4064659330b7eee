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
        let hash = SHA256.hexDigest(key.utf8)
        guard let pathExtension = pathExtension(of: key) else { return hash }
        return hash + "." + pathExtension
    }

    /// The path extension of a key as a URL would give it: after the last dot of the last path
    /// component, with the query and fragment cut off. `nil` when absent, empty, longer than
    /// ``maxExtensionLength`` or not plain ASCII letters and digits.
    static func pathExtension(of key: String) -> String? {
        var path = Substring(key)
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<cut] }
        if let slash = path.lastIndex(of: "/") { path = path[path.index(after: slash)...] }
        guard let dot = path.lastIndex(of: "."), dot != path.startIndex else { return nil }
        let candidate = path[path.index(after: dot)...]
        guard !candidate.isEmpty, candidate.utf8.count <= maxExtensionLength,
              candidate.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) })
        else { return nil }
        return String(candidate)
    }

    /// Whether a directory item named `name` is an entry (not a temporary file, a sidecar, or
    /// anything else the cache keeps there): every cache file that is not an entry starts
    /// with a dot.
    static func isEntry(_ name: String) -> Bool {
        !name.hasPrefix(".")
    }

    /// The prefix of temporary files (`.tmp-...`); a reader never opens them.
    static let temporaryPrefix = ".tmp-"
    /// The prefix of extended-data sidecar files (`.ext-<entry name>`).
    static let sidecarPrefix = ".ext-"

    static func sidecarName(for entryName: String) -> String {
        sidecarPrefix + entryName
    }
}
