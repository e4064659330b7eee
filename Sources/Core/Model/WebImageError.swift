public import Foundation

/// The one error type of SwiftWebImage.
///
/// A `WebImageError` carries a ``Code`` (seeded from `SDWebImageErrorDomain`, extensible by
/// plug-ins), a human message that names what was wrong and with which input, the underlying
/// error when there is one, and the user info SDWebImage puts in its errors: the URL, the HTTP
/// status code and the content type.
///
/// ```swift
/// throw WebImageError(.badImageData, "PNG data of 12 bytes is truncated", url: url)
/// ```
public struct WebImageError: Error, Sendable, CustomStringConvertible {
    /// An error code. Plug-ins declare their own with `static let` in an extension, using
    /// numbers outside the ranges reserved here (1000..<5000).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's number (SDWebImage's where it has one).
        public let rawValue: Int
        /// The code numbered `rawValue`.
        public init(rawValue: Int) { self.rawValue = rawValue }

        // SDWebImage's codes, same numbers.
        /// The URL is nil, empty, or has no scheme. (SDWebImageErrorInvalidURL, 1000)
        public static let invalidURL = Code(rawValue: 1000)
        /// The data is empty, corrupt, truncated or decodes to zero pixels. (1001)
        public static let badImageData = Code(rawValue: 1001)
        /// The server said "not modified" for a `refreshCached` request. (1002)
        public static let cacheNotModified = Code(rawValue: 1002)
        /// The URL failed before and is blocked; pass `retryFailed` to try again. (1003)
        public static let blockedURL = Code(rawValue: 1003)
        /// The loader could not create the operation (for example a request modifier vetoed it). (2000)
        public static let invalidDownloadOperation = Code(rawValue: 2000)
        /// The HTTP status code is not acceptable; see ``WebImageError/statusCode``. (2001)
        public static let invalidDownloadStatusCode = Code(rawValue: 2001)
        /// The request was cancelled by its requester. (2002)
        public static let cancelled = Code(rawValue: 2002)
        /// The response is not one the loader can use (not HTTP, too large, rewritten to nil). (2003)
        public static let invalidDownloadResponse = Code(rawValue: 2003)
        /// The response's content type is not acceptable; see ``WebImageError/contentType``. (2004)
        public static let invalidDownloadContentType = Code(rawValue: 2004)

        // SwiftWebImage's own codes.
        /// No coder can decode (or encode) the format. (1100)
        public static let unsupportedFormat = Code(rawValue: 1100)
        /// A coder failed to encode an image. (1101)
        public static let encodingFailed = Code(rawValue: 1101)
        /// The image's pixel count is over the allowed limit (checked from the header, before
        /// any pixel memory is allocated). (1102)
        public static let imageTooLarge = Code(rawValue: 1102)
        /// No loader can request the URL (for example an unknown scheme). (2100)
        public static let unsupportedURL = Code(rawValue: 2100)
        /// A loader failed with an error of its own; see ``WebImageError/underlyingError``. (2101)
        public static let loaderFailed = Code(rawValue: 2101)
        /// A cache could not read or write. (3000)
        public static let cacheFailure = Code(rawValue: 3000)
        /// The image is not in the cache and `fromCacheOnly` forbids loading it. (3001)
        public static let cacheMiss = Code(rawValue: 3001)
        /// A transformer could not transform the image (for example a crop outside the image). (4000)
        public static let transformFailed = Code(rawValue: 4000)
        /// A parameter is out of its documented range. (4001)
        public static let invalidArgument = Code(rawValue: 4001)

        /// The code's name (`"badImageData"`), or `"code NUMBER"` for a code declared elsewhere.
        public var description: String {
            switch self {
            case .invalidURL: "invalidURL"
            case .badImageData: "badImageData"
            case .cacheNotModified: "cacheNotModified"
            case .blockedURL: "blockedURL"
            case .invalidDownloadOperation: "invalidDownloadOperation"
            case .invalidDownloadStatusCode: "invalidDownloadStatusCode"
            case .cancelled: "cancelled"
            case .invalidDownloadResponse: "invalidDownloadResponse"
            case .invalidDownloadContentType: "invalidDownloadContentType"
            case .unsupportedFormat: "unsupportedFormat"
            case .encodingFailed: "encodingFailed"
            case .imageTooLarge: "imageTooLarge"
            case .unsupportedURL: "unsupportedURL"
            case .loaderFailed: "loaderFailed"
            case .cacheFailure: "cacheFailure"
            case .cacheMiss: "cacheMiss"
            case .transformFailed: "transformFailed"
            case .invalidArgument: "invalidArgument"
            default: "code \(rawValue)"
            }
        }
    }

    /// What kind of failure this is.
    public var code: Code
    /// A human message: what was wrong, and with which input.
    public var message: String
    /// The error that caused this one, if any (a `URLError`, a POSIX error, a coder's error...).
    public var underlyingError: (any Error & Sendable)?
    /// The URL of the request, when the error belongs to one.
    public var url: URL?
    /// The HTTP status code, for ``Code/invalidDownloadStatusCode`` and ``Code/cacheNotModified``.
    public var statusCode: Int?
    /// The response's content type, for ``Code/invalidDownloadContentType``.
    public var contentType: String?

    /// Creates an error.
    /// - Parameters:
    ///   - code: What kind of failure.
    ///   - message: What was wrong and with which input.
    ///   - underlyingError: The error that caused this one.
    ///   - url: The request's URL.
    ///   - statusCode: The HTTP status code.
    ///   - contentType: The response's content type.
    public init(
        _ code: Code,
        _ message: String,
        underlyingError: (any Error & Sendable)? = nil,
        url: URL? = nil,
        statusCode: Int? = nil,
        contentType: String? = nil
    ) {
        self.code = code
        self.message = message
        self.underlyingError = underlyingError
        self.url = url
        self.statusCode = statusCode
        self.contentType = contentType
    }

    /// The cancellation error used everywhere a request ends because its requester cancelled.
    public static func cancelled(_ message: String = "Operation cancelled by user", url: URL? = nil) -> WebImageError {
        WebImageError(.cancelled, message, url: url)
    }

    /// `true` for a cancellation, whether reported as ``Code/cancelled``, as Swift's
    /// `CancellationError`, or as `URLError.cancelled`.
    public static func isCancellation(_ error: any Error) -> Bool {
        if let error = error as? WebImageError { return error.code == .cancelled }
        if error is CancellationError { return true }
        if let error = error as? URLError { return error.code == .cancelled }
        return false
    }

    /// The code, its number and the message on one line, then the URL, status, content type
    /// and underlying error when present.
    public var description: String {
        var text = "WebImageError.\(code) (\(code.rawValue)): \(message)"
        if let url { text += " [url: \(url.absoluteString)]" }
        if let statusCode { text += " [status: \(statusCode)]" }
        if let contentType { text += " [content type: \(contentType)]" }
        if let underlyingError { text += " [underlying: \(underlyingError)]" }
        return text
    }
}

extension WebImageError: LocalizedError {
    /// The message (what went wrong, with which input), for `localizedDescription`.
    public var errorDescription: String? { message }
}
