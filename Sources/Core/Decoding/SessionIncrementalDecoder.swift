public import Foundation

/// The bookkeeping of an incremental decoder that keeps a decoding session between updates (a
/// codec's own incremental decoder fed only the new bytes), for plug-in coders: the data so far,
/// a generation that makes repeated ``currentImage()`` calls for the same data return the same
/// image, the session, and the end of partial images after a failure.
///
/// - Until the data is finished, `partial` is asked for an image of the data so far with the
///   session (`nil` at first: it makes one) and the last image it gave; it returns `nil` when it
///   has nothing new. An error ends the partial images: ``currentImage()`` then returns the last
///   good one, and the session is dropped.
/// - With the last chunk, the session is dropped and the whole data is decoded with `decodeAll`
///   (the coder's `decode`, animations included); a failure returns the last partial image.
/// - Data shorter than before is another download: the state starts over.
///
/// Thread-safety: the state sits in a ``Locked``; `partial` and `decodeAll` run under it, so
/// concurrent callers take turns (they must call no user code).
public final class SessionIncrementalDecoder<Session: Sendable>: IncrementalImageDecoder {
    /// Decodes complete data with the options (the coder's `decode`).
    public typealias Decode = @Sendable (Data, ImageDecodeOptions) throws -> WebImage
    /// An image of the data so far: `(data, session, last image)`; `nil` for nothing new.
    public typealias Partial = @Sendable (Data, inout Session?, WebImage?) throws -> WebImage?

    private struct State: Sendable {
        var data = Data()
        var finished = false
        /// Bumped on every update, so that a request for the same data returns the same image.
        var generation = 0
        var image: WebImage?
        var imageGeneration = -1
        var session: Session?
        /// Set when the data cannot give more partial images (corrupt, too large).
        var failed = false
    }

    private let options: ImageDecodeOptions
    private let decodeAll: Decode
    private let partial: Partial
    private let state = Locked(State())

    /// A decoder of partial images through `partial` and of the finished data through `decodeAll`.
    /// - Parameters:
    ///   - options: The decode options of every image.
    ///   - decodeAll: Decodes complete data (the coder's `decode`).
    ///   - partial: Makes the image of incomplete data (see ``Partial``).
    public init(options: ImageDecodeOptions, decodeAll: @escaping Decode, partial: @escaping Partial) {
        self.options = options
        self.decodeAll = decodeAll
        self.partial = partial
    }

    /// Takes every byte received so far; `finished` with the last chunk.
    public func update(data: Data, finished: Bool) {
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

    /// The image of the data so far (the same instance until new data comes), or `nil`.
    public func currentImage() -> WebImage? {
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
            state.session = nil
            return try? decodeAll(state.data, options)
        }
        guard !state.failed else { return nil }
        do {
            return try partial(state.data, &state.session, state.image)
        } catch {
            state.failed = true
            state.session = nil
            return nil
        }
    }
}
