
/// An animated image whose frames are decoded on demand by an ``AnimatedImageProvider`` and
/// kept in a bounded buffer (SDWebImage's `SDAnimatedImage`, with a memory bound it lacks).
///
/// Frame 0 (the poster) is decoded at creation and always kept. Other frames are decoded
/// when asked for and buffered up to ``maxBufferBytes``; when the buffer is full the least
/// recently used frame is dropped. ``preloadAllFrames()`` decodes and keeps every frame
/// (ignoring the bound, as `preloadAllFrames` does in SDWebImage) until ``unloadAllFrames()``.
///
/// Thread-safety: every method may be called from any thread. Frames are decoded outside the
/// lock, so two threads asking for the same missing frame may both decode it; the buffer keeps
/// one copy.
public final class AnimatedImage: Sendable {
    /// The default buffer bound: 32 MiB (at least one frame is always kept).
    public static let defaultMaxBufferBytes = 32 << 20

    /// Where the frames come from.
    public let provider: any AnimatedImageProvider
    /// The canvas size of every frame.
    public let pixelSize: PixelSize
    /// The number of frames.
    public let frameCount: Int
    /// How many times the animation plays: 0 = forever, `nil` = the file states none.
    public let loopCount: Int?
    /// The duration of each frame, in seconds.
    public let durations: [Double]
    /// The delay the data states for each frame, in seconds, before the provider's playback
    /// rules (see ``AnimatedImageProvider/statedDuration(at:)``).
    public let statedDurations: [Double]
    /// Frame 0, decoded at creation.
    public let posterFrame: Bitmap
    /// The most bytes of decoded frames (besides the poster) kept at once.
    public let maxBufferBytes: Int

    private struct State {
        var frames: [Int: Bitmap] = [:]
        /// Buffered frame indices, least recently used first.
        var recency: [Int] = []
        var bytes = 0
        var pinnedAll = false
    }

    private let state = Locked(State())

    /// Creates an animated image over `provider`, decoding its first frame.
    /// - Parameters:
    ///   - provider: Decodes the frames on demand.
    ///   - maxBufferBytes: The buffer bound (default ``defaultMaxBufferBytes``).
    /// - Throws: The provider's error if frame 0 cannot be decoded;
    ///   ``WebImageError/Code/badImageData`` if the provider reports no frames.
    public init(provider: any AnimatedImageProvider, maxBufferBytes: Int = AnimatedImage.defaultMaxBufferBytes) throws {
        guard provider.frameCount >= 1 else {
            throw WebImageError(.badImageData, "animated \(provider.format) data has no frames")
        }
        self.provider = provider
        self.pixelSize = provider.pixelSize
        self.frameCount = provider.frameCount
        self.loopCount = provider.loopCount
        self.durations = (0..<provider.frameCount).map { provider.duration(at: $0) }
        self.statedDurations = (0..<provider.frameCount).map { provider.statedDuration(at: $0) }
        self.posterFrame = try provider.frame(at: 0)
        self.maxBufferBytes = max(0, maxBufferBytes)
    }

    /// The frame at `index`, from the buffer or decoded now.
    /// - Throws: ``WebImageError/Code/invalidArgument`` for an index out of range, or the
    ///   provider's decoding error.
    public func frame(at index: Int) throws -> Bitmap {
        try frame(at: index, buffering: true)
    }

    /// The frame at `index`, from the buffer or decoded now; with `buffering` `false` a frame
    /// decoded now is not kept (and nothing is evicted for it). An encoder reads each frame once
    /// this way, so that it never pushes a whole animation through the buffer.
    /// - Throws: ``WebImageError/Code/invalidArgument`` for an index out of range, or the
    ///   provider's decoding error.
    public func frame(at index: Int, buffering: Bool) throws -> Bitmap {
        guard index >= 0, index < frameCount else {
            throw WebImageError(.invalidArgument, "frame index \(index) is outside 0..<\(frameCount)")
        }
        if index == 0 { return posterFrame }
        let buffered: Bitmap? = state.withLock { state in
            guard let bitmap = state.frames[index] else { return nil }
            if let position = state.recency.firstIndex(of: index) {
                state.recency.remove(at: position)
                state.recency.append(index)
            }
            return bitmap
        }
        if let buffered { return buffered }
        let decoded = try provider.frame(at: index)  // outside the lock: user code
        guard buffering else { return decoded }
        state.withLock { state in insert(decoded, at: index, into: &state) }
        return decoded
    }

    private func insert(_ bitmap: Bitmap, at index: Int, into state: inout State) {
        guard state.frames[index] == nil else { return }
        state.frames[index] = bitmap
        state.recency.append(index)
        state.bytes += bitmap.byteCount
        guard !state.pinnedAll else { return }
        // Drop least recently used frames until under the bound, but keep the newest one.
        while state.bytes > maxBufferBytes, state.recency.count > 1 {
            let evicted = state.recency.removeFirst()
            if let old = state.frames.removeValue(forKey: evicted) { state.bytes -= old.byteCount }
        }
    }

    /// Decodes every frame and keeps them all until ``unloadAllFrames()``.
    /// - Throws: The first decoding error; frames decoded before it stay buffered.
    public func preloadAllFrames() throws {
        state.withLock { $0.pinnedAll = true }
        for index in 1..<max(1, frameCount) {
            let missing = state.withLock { $0.frames[index] == nil }
            guard missing else { continue }
            let bitmap = try provider.frame(at: index)
            state.withLock { state in insert(bitmap, at: index, into: &state) }
        }
    }

    /// Drops every buffered frame but the poster and restores the buffer bound.
    public func unloadAllFrames() {
        state.withLock { state in state = State() }
    }

    /// Whether every frame is decoded and held.
    public var isAllFramesLoaded: Bool {
        state.withLock { $0.frames.count == frameCount - 1 }
    }

    /// The number of frames held in the buffer, the poster included.
    public var bufferedFrameCount: Int {
        state.withLock { $0.frames.count } + 1
    }

    /// The bytes of decoded pixels held, the poster included.
    public var bufferedBytes: Int {
        state.withLock { $0.bytes } + posterFrame.byteCount
    }
}
