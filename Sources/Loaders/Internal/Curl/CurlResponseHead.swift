#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The status line and header fields of one HTTP response, as libcurl's header callback
/// delivered them, and the `HTTPURLResponse` made from them.
struct CurlResponseHead: Sendable {
    /// The URL this response answers (the hop's URL, after redirects).
    let url: URL
    let statusCode: Int
    /// `HTTP/1.1`, `HTTP/2`...
    let httpVersion: String
    /// The fields in the order received, names as sent.
    let fields: [(name: String, value: String)]

    /// The first value of a field (ASCII case-insensitive name).
    func value(_ name: String) -> String? {
        fields.first { Self.same($0.name, name) }?.value
    }

    /// Every value of a field (such as `Set-Cookie`).
    func values(_ name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// Every value of a field joined with ", " (as ``response`` joins them), or `nil`.
    func joinedValue(_ name: String) -> String? {
        let all = values(name)
        return all.isEmpty ? nil : all.joined(separator: ", ")
    }

    /// Whether two field names are equal ignoring ASCII case (field names are ASCII tokens;
    /// Foundation's `caseInsensitiveCompare` was a visible cost per response).
    static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 97 && (x | 0x20) <= 122)
        }
    }

    /// The response as Foundation's type (repeated fields joined with ", ", as HTTP allows;
    /// `Set-Cookie` lines are read from ``values(_:)`` instead).
    var response: HTTPURLResponse? {
        var joined: [String: String] = [:]
        var names: [String: String] = [:]
        for (name, value) in fields {
            let key = name.lowercased()
            if let first = names[key] {
                joined[first] = (joined[first] ?? "") + ", " + value
            } else {
                names[key] = name
                joined[name] = value
            }
        }
        return HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: httpVersion, headerFields: joined)
    }

    /// The declared body length, if any.
    var contentLength: Int64? {
        value("Content-Length").flatMap { Int64($0) }
    }
}
