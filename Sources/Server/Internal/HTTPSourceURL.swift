import Foundation

/// The URL an HTTP source is fetched from, made as thumbor 7.8's HTTP loader makes it
/// (`thumbor/loaders/http_loader.py`, `_normalize_url`), from the source as the URL parser gives
/// it (percent-decoded once):
/// - a source with no `%XX` sequence left is percent-encoded: every byte but the letters,
///   digits, `-._~` and ``keptCharacters`` (so a space is `%20`, `é` is `%C3%A9`, while `?`,
///   `=`, `&`, `:` and `#` keep their URL meaning);
/// - a source that still has one (it was encoded twice in the thumbor URL, or is a URL whose
///   own escapes were kept) keeps its escapes as they are (only characters no URL may hold,
///   such as a space, are encoded);
/// - a source without a scheme gets `http://` in front (`example.com/a.png`,
///   `127.0.0.1:8080/a.png`: `host[:port]/path`).
///
/// thumbor prefixes `http://` to anything that does not start with the four letters `http`, so a
/// host whose name starts with them (`httpbin.org/a.png`) becomes no URL at all and is refused
/// there; here the scheme is recognised by its `http://` or `https://`, and such a host is
/// fetched (see the README's differences from thumbor).
enum HTTPSourceURL {
    /// The characters thumbor's loader leaves unencoded besides the letters, digits and `-._~`.
    static let keptCharacters = Set("~@#$&()*!+=:;,.?/'".utf8)

    /// The URL to fetch for `source`; `nil` when it is not a URL with a host.
    /// - Parameter addsScheme: Whether `source` has no scheme and is fetched over `http://`.
    static func url(for source: String, addsScheme: Bool) -> URL? {
        // A source that still has escapes may also hold characters a URL cannot (a space beside
        // a `%20`, which thumbor would send as they are): those are encoded, the escapes kept.
        let keepsPercent = hasPercentEscape(source)
        // The brackets of an IPv6 literal (`[::1]:8080`) stay as they are in the host part.
        let hostStart = addsScheme ? source.startIndex : source.range(of: "://").map(\.upperBound) ?? source.startIndex
        let hostEnd = source[hostStart...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? source.endIndex
        let encoded = percentEncoded(String(source[..<hostStart]), keepingPercent: keepsPercent)
            + percentEncoded(String(source[hostStart..<hostEnd]), keepingPercent: keepsPercent, keepingBrackets: true)
            + percentEncoded(String(source[hostEnd...]), keepingPercent: keepsPercent)
        guard let url = URL(string: addsScheme ? "http://" + encoded : encoded), let host = url.host, !host.isEmpty else { return nil }
        return url
    }

    /// Whether `text` has a `%` followed by two hexadecimal digits (what Python's `unquote`
    /// would change).
    static func hasPercentEscape(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 3 else { return false }
        for index in 0..<(bytes.count - 2) where bytes[index] == UInt8(ascii: "%") {
            if isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) { return true }
        }
        return false
    }

    /// `text` with every UTF-8 byte outside the kept set written `%XX` (upper-case hex), as
    /// Python's `quote(text, safe=...)` with thumbor's safe characters; `%` itself too unless
    /// `keepingPercent`, `[` and `]` too unless `keepingBrackets` (a host part: thumbor encodes
    /// an IPv6 literal's brackets, and so never fetches from one; here it is fetched).
    static func percentEncoded(_ text: String, keepingPercent: Bool = false, keepingBrackets: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            let kept = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                || keptCharacters.contains(byte) || (keepingPercent && byte == UInt8(ascii: "%"))
                || (keepingBrackets && (byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")))
            if kept {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0xF)]))
            }
        }
        return out
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }
}
