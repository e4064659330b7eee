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

    /// The first value of a field (case-insensitive name).
    func value(_ name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Every value of a field (such as `Set-Cookie`).
    func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
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
        value("Content-Length").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
    }
}
