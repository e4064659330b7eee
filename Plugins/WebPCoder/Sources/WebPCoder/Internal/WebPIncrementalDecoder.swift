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
/// Thread-safety: the state sits in a `Locked` (Core's mutex); libwebp runs under it (no user
/// code does), so concurrent callers take turns.
final class WebPIncrementalDecoder: IncrementalImageDecoder {
    typealias Decode = @Sendable (Data, ImageDecodeOptions) throws -> WebImage

    private struct State: Sendable {
        var data = Data()
        var finished = false
        /// Bumped on every update, so that a request for the same data returns the same image.
        var generation = 0
        var image: WebImage?
        var imageGeneration = -1
        var header: WebPHeader?
        var handle: WebPIncrementalHandle?
        /// The first frame of an animation, once complete.
        var poster: WebImage?
        /// Set when the data cannot give more partial images (corrupt, too large).
        var failed = false
    }

    private let options: ImageDecodeOptions
    private let decodeAll: Decode
    private let state = Locked(State())

    /// - Parameters:
    ///   - decodeAll: Decodes complete data (the coder's `decode`).
    init(options: ImageDecodeOptions, decodeAll: @escaping Decode) {
        self.options = options
        self.decodeAll = decodeAll
    }

    func update(data: Data, finished: Bool) {
        state.withLock { state in
            if data.count < state.data.count {
                // Not the same download growing: start over.
                state = State(generation: state.generation)
            }
            state.data = data
            state.finished = finished
            state.generation += 1
        }
    }

    func currentImage() -> WebImage? {
        state.withLock { state in
            if state.generation == state.imageGeneration { return state.image }
            let image = makeImage(&state)
            if let image {
                state.image = image
            }
            state.imageGeneration = state.generation
            return state.image
        }
    }

    private func makeImage(_ state: inout State) -> WebImage? {
        if state.finished {
            return try? decodeAll(state.data, options)
        }
        guard !state.failed else { return nil }
        do {
            if state.header == nil {
                guard let header = try WebPHeader.read(state.data, partial: true) else { return nil }
                try header.checkLimit(options, byteCount: state.data.count)
                state.header = header
            }
            guard let header = state.header else { return nil }
            if header.isAnimated {
                if let poster = state.poster { return poster }
                state.poster = poster(of: state.data)
                return state.poster
            }
            return try partialStill(header: header, state: &state)
        } catch {
            state.failed = true
            return nil
        }
    }

    /// The first frame of a partial animation, once its data is complete.
    private func poster(of data: Data) -> WebImage? {
        var first = options
        first.firstFrameOnly = true
        guard let provider = try? WebPAnimationProvider(data: data, options: first, partial: true),
              let bitmap = try? provider.frame(at: 0) else { return nil }
        var metadata: ImageMetadata = [.decoded, .incremental]
        if provider.isThumbnail { metadata.insert(.thumbnail) }
        return WebImage(bitmap: bitmap, scale: options.scaleFactor, format: .webp, metadata: metadata)
    }

    private func partialStill(header: WebPHeader, state: inout State) throws -> WebImage? {
        let size = options.targetPixelSize(for: header.size)
        if state.handle == nil {
            guard let handle = WebPIncrementalHandle(header: header, size: size) else {
                throw WebImageError(.badImageData, "libwebp cannot make an incremental decoder")
            }
            state.handle = handle
        }
        guard let handle = state.handle else { return nil }
        let status = state.data.withUnsafeBytes { handle.append($0) }
        guard status == VP8_STATUS_OK || status == VP8_STATUS_SUSPENDED else {
            throw WebPStatus.decodingError(status, "WebP data of \(state.data.count) bytes")
        }
        guard handle.decodedRows > 0 else { return nil }
        var metadata: ImageMetadata = [.decoded, .incremental]
        if size != header.size { metadata.insert(.thumbnail) }
        return WebImage(bitmap: try handle.snapshot(hasAlpha: header.hasAlpha), scale: options.scaleFactor, format: .webp, metadata: metadata)
    }
}
