#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What a transfer keeps of the response it accepted: the values the download itself reads
/// (status, MIME type, declared length, content encoding), and the `HTTPURLResponse`, made
/// only when something asks for it (an event observer, the decryptor, the revalidation store).
///
/// Why: making an `HTTPURLResponse` (corelibs Foundation canonicalises every field name and
/// parses the content type through strings) was about an eighth of the libcurl thread's time
/// per download in the many-small-downloads benchmark, and most downloads never need one.
struct AcceptedResponse: Sendable {
    let statusCode: Int
    /// As `HTTPURLResponse.mimeType`.
    let mimeType: String?
    /// As `HTTPURLResponse.expectedContentLength`: the declared length, or -1.
    let expectedContentLength: Int64
    /// The `Content-Encoding` value, lower-cased, if any.
    let contentEncoding: String?
    private let source: Source

    private enum Source: Sendable {
        /// A response made already (by a response modifier, or for an unusual content type).
        case response(HTTPURLResponse)
        /// The head to make it from, on demand.
        case head(CurlResponseHead)
    }

    /// The response as Foundation's type (made from the head now if it was not made before;
    /// `nil` only if Foundation refuses to make one).
    var response: HTTPURLResponse? {
        switch source {
        case .response(let response): response
        case .head(let head): head.response
        }
    }

    /// The values of a response made already.
    init(_ response: HTTPURLResponse) {
        statusCode = response.statusCode
        mimeType = response.mimeType
        expectedContentLength = response.expectedContentLength
        contentEncoding = response.value(forHTTPHeaderField: "Content-Encoding")?.lowercased()
        source = .response(response)
    }

    /// The values read from the head as `HTTPURLResponse` reads them, without making one;
    /// `nil` when the content type is not plain (a quote, a backslash, or a character outside
    /// printable ASCII), for which the caller makes the response and uses ``init(_:)``.
    ///
    /// Foundation's MIME type is the `Content-Type` value (repeated fields joined with ", ")
    /// up to its first `;` outside quotes, untrimmed, lower-cased; its expected length is
    /// `Int64` of the `Content-Length` value, or -1. Without quotes and escapes the first is
    /// the text before the first `;`. A test compares both ways on a table of content types.
    init?(head: CurlResponseHead) {
        let contentType = head.joinedValue("Content-Type")
        if let contentType {
            let plain = contentType.unicodeScalars.allSatisfy { scalar in
                (scalar.value >= 0x20 && scalar.value < 0x7F || scalar.value == 0x09) && scalar != "\"" && scalar != "\\"
            }
            guard plain else { return nil }
            mimeType = String(contentType.prefix { $0 != ";" }).lowercased()
        } else {
            mimeType = nil
        }
        statusCode = head.statusCode
        expectedContentLength = head.joinedValue("Content-Length").flatMap { Int64($0) } ?? -1
        contentEncoding = head.joinedValue("Content-Encoding")?.lowercased()
        source = .head(head)
    }
}
