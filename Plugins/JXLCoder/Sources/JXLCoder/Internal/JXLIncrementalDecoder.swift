import Foundation
import WebImageCore

/// Progressive decoding of a JPEG XL download (``JXLCoder/makeIncrementalDecoder(options:)``).
///
/// - Until the data is complete, one libjxl decoder (``JXLIncrementalHandle``) is given only
///   the new bytes each time and flushes what it can render of the first frame: for a lossy
///   image, the 1:8 DC image first, then 256x256 groups and refinement passes as they arrive;
///   for a lossless one, groups. Parts not rendered yet are transparent. A thumbnail request
///   resamples each partial image. Images are marked ``ImageMetadata/incremental``.
/// - An animation shows its first frame (partially, then whole) until the end.
/// - With the last chunk (`finished`), the whole data is decoded as ``JXLCoder/decode(_:options:)``
///   does (animations included), and the result is not marked ``ImageMetadata/incremental``.
///
/// Corrupt data, or an image over the limits, ends the partial images: `currentImage()` then
/// returns the last good one (or `nil`).
///
/// Thread-safety: the state sits in a `Locked`; libjxl runs under it (no user code does), so
/// concurrent callers take turns.
final class JXLIncrementalDecoder: IncrementalImageDecoder {
    typealias Decode = @Sendable (Data, ImageDecodeOptions) throws -> WebImage

    private struct State: Sendable {
        var data = Data()
        var finished = false
        /// Bumped on every update, so that a request for the same data returns the same image.
        var generation = 0
        var image: WebImage?
        var imageGeneration = -1
        var handle: JXLIncrementalHandle?
        /// Set when the data cannot give more partial images (corrupt, too large).
        var failed = false
    }

    private let options: ImageDecodeOptions
    private let threads: Int
    private let decodeAll: Decode
    private let state = Locked(State())

    /// - Parameters:
    ///   - decodeAll: Decodes complete data (the coder's `decode`).
    init(options: ImageDecodeOptions, threads: Int, decodeAll: @escaping Decode) {
        self.options = options
        self.threads = threads
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
            if let image = makeImage(&state) {
                state.image = image
            }
            state.imageGeneration = state.generation
            return state.image
        }
    }

    private func makeImage(_ state: inout State) -> WebImage? {
        if state.finished {
            state.handle = nil
            return try? decodeAll(state.data, options)
        }
        guard !state.failed else { return nil }
        do {
            if state.handle == nil {
                guard let handle = JXLIncrementalHandle(options: options, threads: threads) else {
                    throw WebImageError(.badImageData, "libjxl cannot make an incremental decoder")
                }
                state.handle = handle
            }
            guard let handle = state.handle else { return nil }
            let before = handle.hasPixels
            try state.data.withUnsafeBytes { raw in try handle.append(raw) }
            // A complete first frame does not change with more data.
            if handle.isComplete && before && state.image != nil { return nil }
            guard let bitmap = try handle.snapshot(), let info = handle.info else { return nil }
            let size = options.targetPixelSize(for: info.outputSize)
            var metadata: ImageMetadata = [.decoded, .incremental]
            if size != info.outputSize { metadata.insert(.thumbnail) }
            return WebImage(bitmap: try JXLStillDecoding.fitted(bitmap, to: size), scale: options.scaleFactor, format: .jpegXL, metadata: metadata)
        } catch {
            state.failed = true
            state.handle = nil
            return nil
        }
    }
}
