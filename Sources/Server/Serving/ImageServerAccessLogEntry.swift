/// One line of ``ImageServer``'s access log: what was asked, what was answered, how fast, and
/// which cache answered it. ``ImageServerConfiguration/accessLog`` receives one per request.
public struct ImageServerAccessLogEntry: Sendable {
    /// The request method (`GET`, `HEAD`, ...).
    public var method: String
    /// The request path as received (percent-encoded, without the query).
    public var path: String
    /// The response status; `499` when the client hung up before the answer (its task was
    /// cancelled; nothing was sent).
    public var status: Int
    /// The response body's size in bytes (what a `GET` sends; `0` for a `304`).
    public var bytes: Int
    /// The time from arrival to the response, in seconds.
    public var duration: Double
    /// Where the image came from, or ``ImageServerCacheTier/none`` for a fresh result or a
    /// response that is no image.
    public var cacheTier: ImageServerCacheTier
    /// The peer's address, when the HTTP library gave it.
    public var remoteAddress: String?

    /// An entry from its parts.
    public init(method: String, path: String, status: Int, bytes: Int, duration: Double, cacheTier: ImageServerCacheTier, remoteAddress: String? = nil) {
        self.method = method
        self.path = path
        self.status = status
        self.bytes = bytes
        self.duration = duration
        self.cacheTier = cacheTier
        self.remoteAddress = remoteAddress
    }

    /// The entry as one line (no newline): `127.0.0.1 GET /unsafe/300x200/a.jpg 200 1234 5.1ms result-memory`.
    /// Control characters, spaces and non-ASCII bytes of the address, method and path are
    /// percent-escaped, so a crafted request cannot forge a second line or a field.
    public var line: String {
        let milliseconds = (duration * 10_000).rounded() / 10
        return "\(remoteAddress.map(Self.escaped) ?? "-") \(Self.escaped(method)) \(Self.escaped(path)) \(status) \(bytes) \(milliseconds)ms \(cacheTier.rawValue)"
    }

    /// `text` with bytes outside printable ASCII (and spaces) as `%XX`.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if byte > 0x20, byte < 0x7F {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }
}

extension String {
    /// The string with leading zeros up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
