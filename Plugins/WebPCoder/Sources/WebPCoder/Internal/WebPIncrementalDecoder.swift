import CWebP
import Foundation
import WebImageCore

/// The incremental decoder of ``WebPCoder``: fed every byte received so far, it shows what the
/// data holds.
///
/// - A still image is decoded by libwebp's incremental decoder (`WebPIDecoder`), which keeps its
///   state between updates and is only given the new bytes: rows appear as their data arrives
///   (16 rows at a time: macroblock rows for lossy data, row batches for lossless), the rest stays
///   transparent. The header is read and checked against the pixel limit before the decoder and
///   its pixels are made; thumbnails come from libwebp's scaled decoding.
/// - An animated image shows its first frame (a still) once that frame's data is complete.
/// - With the last chunk (`finished`), the whole data is decoded as ``WebPCoder/decode(_:options:)``
///   does (animations included), and the result is not marked ``ImageMetadata/incremental``.
///
/// Corrupt data, or an image over the pixel limit, ends the partial images: `currentImage()`
/// then returns the last good one (or `nil`).
///
/// The bookkeeping (data, generations, the end after a failure) is the core's
/// ``/WebImageCore/SessionIncrementalDecoder``, with ``Session`` as its session; libwebp runs
/// under its lock (no user code does), so concurrent callers take turns.
enum WebPIncrementalDecoder {
    /// What is kept between updates.
    struct Session: Sendable {
        var header: WebPHeader?
        var handle: WebPIncrementalHandle?
        /// The first frame of an animation, once complete.
        var poster: WebImage?
    }

    /// The incremental decoder of `options`; `decodeAll` decodes complete data (the coder's `decode`).
    static func make(options: ImageDecodeOptions, decodeAll: @escaping SessionIncrementalDecoder<Session>.Decode) -> SessionIncrementalDecoder<Session> {
        SessionIncrementalDecoder(options: options, decodeAll: decodeAll) { data, session, _ in
            var current = session ?? Session()
            defer { session = current }
            return try partialImage(of: data, session: &current, options: options)
        }
    }

    /// The image `data` holds so far; `nil` when there is nothing new.
    private static func partialImage(of data: Data, session: inout Session, options: ImageDecodeOptions) throws -> WebImage? {
        if session.header == nil {
            guard let header = try WebPHeader.read(data, partial: true) else { return nil }
            try header.checkLimit(options, byteCount: data.count)
            session.header = header
        }
        guard let header = session.header else { return nil }
        if header.isAnimated {
            if let poster = session.poster { return poster }
            session.poster = poster(of: data, options: options)
            return session.poster
        }
        return try partialStill(of: data, header: header, session: &session, options: options)
    }

    /// The first frame of a partial animation, once its data is complete.
    private static func poster(of data: Data, options: ImageDecodeOptions) -> WebImage? {
        var first = options
        first.firstFrameOnly = true
        guard let provider = try? WebPAnimationProvider(data: data, options: first, partial: true),
              let bitmap = try? provider.frame(at: 0) else { return nil }
        var metadata: ImageMetadata = [.decoded, .incremental]
        if provider.isThumbnail { metadata.insert(.thumbnail) }
        return WebImage(bitmap: bitmap, scale: options.scaleFactor, format: .webp, metadata: metadata)
    }

    private static func partialStill(of data: Data, header: WebPHeader, session: inout Session, options: ImageDecodeOptions) throws -> WebImage? {
        let size = options.targetPixelSize(for: header.size)
        if session.handle == nil {
            guard let handle = WebPIncrementalHandle(header: header, size: size) else {
                throw WebImageError(.badImageData, "libwebp cannot make an incremental decoder")
            }
            session.handle = handle
        }
        guard let handle = session.handle else { return nil }
        let status = data.withUnsafeBytes { handle.append($0) }
        guard status == VP8_STATUS_OK || status == VP8_STATUS_SUSPENDED else {
            throw WebPStatus.decodingError(status, "WebP data of \(data.count) bytes")
        }
        guard handle.decodedRows > 0 else { return nil }
        var metadata: ImageMetadata = [.decoded, .incremental]
        if size != header.size { metadata.insert(.thumbnail) }
        return WebImage(bitmap: try handle.snapshot(hasAlpha: header.hasAlpha), scale: options.scaleFactor, format: .webp, metadata: metadata)
    }
}
