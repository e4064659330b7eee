public import Foundation
public import WebImageCore

/// Loads images from `data:` URLs (RFC 2397): `data:image/png;base64,iVBORw0...` or
/// percent-encoded `data:image/svg+xml,%3Csvg...`, decoded like the ``Downloader`` (the
/// context's coder or ``coder``, scale factor, thumbnail size, `avoidDecodeImage`).
///
/// Base64 payloads may be percent-encoded, contain white space, use the URL-safe alphabet
/// (`-`, `_`) or omit their `=` padding; anything else is a clear error.
///
/// Thread-safety: immutable; use from any thread.
public final class DataURLLoader: ImageLoader {
    /// The coder for requests whose context sets no ``/WebImageCore/WebImageContext/imageCoder``.
    public let coder: any ImageCoder

    /// A data URL loader.
    /// - Parameter coder: Decodes the payload when the context gives no coder.
    public init(coder: any ImageCoder) {
        self.coder = coder
    }

    /// `true` for `data:` URLs.
    public func canRequestImage(for url: URL) -> Bool {
        url.scheme?.lowercased() == "data"
    }

    /// Decodes the payload of `url`, then the image in it. Sends one progress event.
    /// - Returns: The image, the payload, and the URL's media type as the content type.
    /// - Throws: ``/WebImageCore/WebImageError``: `unsupportedURL` (not a data URL), `invalidURL` (malformed:
    ///   no comma, a bad percent escape, invalid Base64), `badImageData` (empty payload,
    ///   undecodable), `cancelled`.
    public func requestImage(with url: URL, options: WebImageOptions, context: WebImageContext, progress: ImageLoaderProgressHandler?) async throws -> ImageLoaderResult {
        guard canRequestImage(for: url) else {
            throw WebImageError(.unsupportedURL, "DataURLLoader loads data: URLs, not \(url.absoluteString.prefix(64))", url: url)
        }
        guard !Task.isCancelled else {
            throw WebImageError.cancelled("Operation cancelled by user before decoding the data URL", url: url)
        }
        let parsed = try DataURL(url)
        progress?(.progress(receivedBytes: Int64(parsed.data.count), expectedBytes: Int64(parsed.data.count)))
        var body = parsed.data
        if let decryptor = context.downloadDecryptor {
            guard let decrypted = decryptor.decryptedData(body, response: nil) else {
                throw WebImageError(.badImageData, "The decryptor returned nil for the \(body.count)-byte payload of a data URL", url: url)
            }
            body = decrypted
        }
        let image = try await ImageDecodeRequest(url: url, options: options, context: context, defaultCoder: coder).decodeLoadedData(body, on: .processing)
        guard !Task.isCancelled else {
            throw WebImageError.cancelled("Operation cancelled by user during loading", url: url)
        }
        return ImageLoaderResult(image: image, data: body, statusCode: nil, contentType: parsed.mediaType)
    }
}
