import Foundation
import WebImageCore
import WebImageLoaders
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request that ends in an error status: the status, a short message for the body (one
/// line, no stack trace, no internal detail beyond what names the problem) and, for `503`,
/// the `Retry-After` seconds.
struct ServingFailure: Error, Sendable {
    /// The HTTP status.
    var status: Int
    /// The body's text, without the trailing newline.
    var message: String
    /// `Retry-After` in seconds, when the client should come back later.
    var retryAfter: Int?

    init(_ status: Int, _ message: String, retryAfter: Int? = nil) {
        self.status = status
        self.message = message
        self.retryAfter = retryAfter
    }

    /// The longest message put in a body: the messages name inputs (URLs, paths) that a client
    /// chose, so they are cut.
    static let maximumMessageLength = 300

    /// The failure a source load ended with, by the error's code and the loaders' underlying
    /// error (``DownloadAddressRefusal``, `URLError` `.dataLengthExceedsMaximum` / `.timedOut`):
    /// - the downloader's address guard (`refusesNonPublicAddresses`): `403`;
    /// - a body or file over the size limit: `413`;
    /// - the origin's 404 or 410: `404`; a file that does not exist: `404`;
    /// - another origin status, a connection failure or timeout, a bad response: `502`;
    /// - data that does not decode, an unsupported format: `422`; a header over the pixel or
    ///   frame limits (`imageTooLarge`): `422`;
    /// - a malformed or unsupported URL: `400`.
    static func forLoad(_ error: any Error, source: String) -> ServingFailure {
        guard let error = error as? WebImageError else {
            return ServingFailure(502, "source \(source) could not be loaded")
        }
        let text = error.message
        switch error.code {
        case .invalidDownloadStatusCode:
            if let status = error.statusCode, status == 404 || status == 410 {
                return ServingFailure(404, "source not found: \(source) (origin status \(status))")
            }
            return ServingFailure(502, "origin answered \(error.statusCode.map(String.init) ?? "an unacceptable status") for \(source)")
        case .invalidDownloadResponse:
            if error.underlyingError is DownloadAddressRefusal {
                return ServingFailure(403, "source refused: \(source) resolves to a non-public address")
            }
            switch (error.underlyingError as? URLError)?.code {
            case .dataLengthExceedsMaximum?:
                return ServingFailure(413, "source \(source) is larger than the limit of the server")
            case .timedOut?:
                return ServingFailure(502, "origin timed out for \(source)")
            default:
                return ServingFailure(502, "origin failed for \(source)")
            }
        case .invalidDownloadContentType:
            return ServingFailure(502, "origin answered a content type that is not accepted for \(source)")
        case .imageTooLarge where error.underlyingError is MemoryBudget.Exhausted:
            return ServingFailure(503, "the server's memory budget is spent; retry shortly (source \(source))", retryAfter: 1)
        case .imageTooLarge:
            return ServingFailure(422, "source \(source) is over the limits of the server: \(text)")
        case .badImageData, .unsupportedFormat:
            return ServingFailure(422, "source \(source) is not an image the server can decode")
        case .invalidURL, .unsupportedURL:
            if (error.underlyingError as? URLError)?.code == .fileDoesNotExist {
                return ServingFailure(404, "source not found: \(source)")
            }
            return ServingFailure(400, "source \(source) is not a URL the server can load")
        case .cancelled:
            return ServingFailure(503, "request cancelled", retryAfter: 1)
        default:
            return ServingFailure(502, "source \(source) could not be loaded")
        }
    }

    /// The response body: the message cut to ``maximumMessageLength`` characters, one line.
    var body: Data {
        var line = message.count > Self.maximumMessageLength ? String(message.prefix(Self.maximumMessageLength)) + "..." : message
        line = String(line.map { $0.isNewline ? " " : $0 })
        return Data((line + "\n").utf8)
    }
}
