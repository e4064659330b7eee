import CCurl
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import WebImageCore

/// libcurl's result codes as the ``WebImageError`` a download fails with, with the nearest
/// `URLError` underneath (so that ``WebImageError/isTransientLoadError(_:)`` and callers that
/// look for `URLError` codes keep working as with URLSession).
enum CurlErrors {
    /// The error of a download of `url` whose hop to `hop` failed with `code`.
    static func error(_ code: CURLcode, _ text: String?, url: URL, hop: URL, limit: Int) -> WebImageError {
        let reason = text ?? String(cString: curl_easy_strerror(code))
        let where_ = hop == url ? "" : " (at \(hop.absoluteString))"
        if code == CURLE_FILESIZE_EXCEEDED {
            return WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) refused: it declares more than the limit of \(limit) bytes\(where_)", underlyingError: URLError(.dataLengthExceedsMaximum), url: url)
        }
        if isMalformedChunkedBody(code, reason) {
            // The server's framing is broken: retrying gets the same bytes, so the URL is
            // blocked like any other bad response (not a lost connection).
            return WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) failed\(where_): the server sent a malformed chunked body (\(reason))", underlyingError: URLError(.cannotParseResponse), url: url)
        }
        let urlCode = urlErrorCode(code)
        return WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) failed\(where_): \(reason) (curl error \(code.rawValue))", underlyingError: URLError(urlCode), url: url)
    }

    /// Whether libcurl failed on the framing of a chunked body: `CURLE_RECV_ERROR` with a
    /// message of its chunk parser, "... in chunked-encoding" (libcurl 7.88: "Illegal or
    /// missing hexadecimal sequence", "Too long hexadecimal number", "Malformed encoding
    /// found"), as opposed to a receive that failed on the socket. A connection closed in the
    /// middle of a chunk is `CURLE_PARTIAL_FILE`, a lost connection as any other.
    static func isMalformedChunkedBody(_ code: CURLcode, _ text: String) -> Bool {
        code == CURLE_RECV_ERROR && text.contains("chunked-encoding")
    }

    /// The `URLError` code nearest to a libcurl code.
    static func urlErrorCode(_ code: CURLcode) -> URLError.Code {
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: .unsupportedURL
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .cannotFindHost
        case CURLE_COULDNT_CONNECT: .cannotConnectToHost
        case CURLE_OPERATION_TIMEDOUT: .timedOut
        case CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM: .networkConnectionLost
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE: .serverCertificateUntrusted
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER: .secureConnectionFailed
        case CURLE_TOO_MANY_REDIRECTS: .httpTooManyRedirects
        case CURLE_FILESIZE_EXCEEDED: .dataLengthExceedsMaximum
        case CURLE_BAD_CONTENT_ENCODING: .cannotDecodeContentData
        case CURLE_ABORTED_BY_CALLBACK, CURLE_WRITE_ERROR: .cancelled
        case CURLE_OUT_OF_MEMORY: .cannotLoadFromNetwork
        default: .unknown
        }
    }
}
