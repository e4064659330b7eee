import Foundation
import WebImageCore

/// The decoding step every built-in loader shares: empty-data check, the coder of the context
/// (or the loader's), decode options from the options and context with the scale factor from
/// the cache key, the "zero pixels" check, and errors that name the URL.
enum ImageDataDecoding {
    /// The cache key decode options derive the scale factor from (`@2x.`): the context's
    /// ``WebImageContext/imageCacheKey``, else its cache key filter's key, else the URL.
    static func cacheKey(for url: URL, context: WebImageContext) -> String {
        context.imageCacheKey ?? context.cacheKeyFilter?.cacheKey(for: url) ?? url.absoluteString
    }

    /// The decode options of one request.
    static func decodeOptions(for url: URL, options: WebImageOptions, context: WebImageContext) -> ImageDecodeOptions {
        var decodeOptions = ImageDecodeOptions(options: options, context: context, cacheKey: cacheKey(for: url, context: context))
        if decodeOptions.fileExtensionHint == nil, !url.pathExtension.isEmpty {
            decodeOptions.fileExtensionHint = url.pathExtension.lowercased()
        }
        return decodeOptions
    }

    /// Decodes `data` for one request, or returns `nil` with `avoidDecodeImage`.
    /// - Throws: ``WebImageError/Code/badImageData`` for empty data or an image of zero
    ///   pixels; the coder's error otherwise (with the URL filled in).
    static func decode(_ data: Data, url: URL, options: WebImageOptions, context: WebImageContext, coder: any ImageCoder) throws -> WebImage? {
        guard !data.isEmpty else {
            throw WebImageError(.badImageData, "Image data is empty: \(url.absoluteString) delivered 0 bytes", url: url)
        }
        if options.contains(.avoidDecodeImage) { return nil }
        let decodeOptions = decodeOptions(for: url, options: options, context: context)
        let image: WebImage
        do {
            image = try (context.imageCoder ?? coder).decode(data, options: decodeOptions)
        } catch var error as WebImageError {
            if error.url == nil { error.url = url }
            throw error
        } catch {
            throw WebImageError(.badImageData, "Cannot decode \(data.count) bytes from \(url.absoluteString): \(error)", underlyingError: error, url: url)
        }
        guard !image.pixelSize.isEmpty else {
            throw WebImageError(.badImageData, "Image from \(url.absoluteString) decoded to \(image.pixelSize) pixels", url: url)
        }
        return image
    }
}
