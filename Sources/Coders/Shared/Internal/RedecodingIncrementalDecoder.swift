import Foundation
import WebImageCore

/// An incremental decoder that decodes all the data received so far each time a new image is
/// asked for (as ImageIO does for SDWebImage), reusing the last image while no new data came.
///
/// The decode closure returns what the data holds so far (decoders flag partial output
/// ``ImageMetadata/incremental``); before the last chunk the result is always flagged.
/// A decode that fails (too little data yet) gives `nil`, or the last good image.
///
/// Work bound: before the last chunk, a new decode happens only once the data has grown by a
/// quarter since the last decode (or when there is no image yet), so a download fed in many
/// small chunks costs a few full decodes in all, not one per chunk.
///
/// Thread-safety: the state sits in a `Locked` (Core's mutex); decoding runs outside the lock.
final class RedecodingIncrementalDecoder: IncrementalImageDecoder {
    typealias Decode = @Sendable (Data, ImageDecodeOptions) throws -> WebImage

    private struct State {
        var data = Data()
        var finished = false
        /// Bumped on every update, so that a decode knows whether it is still current.
        var generation = 0
        var image: WebImage?
        var imageGeneration = -1
        /// The data size the image was decoded from.
        var imageByteCount = 0
    }

    private let options: ImageDecodeOptions
    private let format: ImageFormat
    private let decode: Decode
    private let state = Locked(State())

    init(options: ImageDecodeOptions, format: ImageFormat, decode: @escaping Decode) {
        self.options = options
        self.format = format
        self.decode = decode
    }

    func update(data: Data, finished: Bool) {
        state.withLock { state in
            state.data = data
            state.finished = finished
            state.generation += 1
        }
    }

    func currentImage() -> WebImage? {
        let (data, finished, generation, cached, cachedGeneration, cachedCount) = state.withLock {
            ($0.data, $0.finished, $0.generation, $0.image, $0.imageGeneration, $0.imageByteCount)
        }
        if generation == cachedGeneration { return cached }
        if !finished, cached != nil, data.count - cachedCount < cachedCount / 4 { return cached }
        guard !data.isEmpty, var image = try? decode(data, options) else { return cached }
        if !finished { image.metadata.insert(.incremental) }
        state.withLock { state in
            if state.generation == generation || state.imageGeneration < generation {
                state.image = image
                state.imageGeneration = generation
                state.imageByteCount = data.count
            }
        }
        return image
    }
}
