/// One frame of an image: its bitmap and how long it shows.
///
/// A frame has two durations: ``duration``, how long it plays, and ``statedDuration``, the
/// delay its file states. They differ only when a coder changed the stated delay for playback
/// (GIF and APNG delays of 10 ms or less play for 100 ms, as in browsers); a frame made in
/// memory states what it plays.
public struct ImageFrame: Hashable, Sendable {
    /// The frame's pixels, composited onto the full canvas.
    public var bitmap: Bitmap
    /// How long the frame shows, in seconds (0 for a still image).
    public var duration: Double
    /// The delay the source file states for the frame, in seconds, before any playback rule
    /// (0 for a still image). Unless set, it is ``duration`` and follows it when that changes.
    public var statedDuration: Double {
        get { explicitStatedDuration ?? duration }
        set { explicitStatedDuration = newValue }
    }

    /// The stated duration when it was given; `nil` means "the same as `duration`".
    private var explicitStatedDuration: Double?

    /// Creates a frame.
    /// - Parameters:
    ///   - bitmap: The frame's pixels, composited onto the full canvas.
    ///   - duration: How long the frame shows, in seconds.
    ///   - statedDuration: The delay the file states, in seconds; `nil` (the default) means
    ///     the same as `duration`.
    public init(bitmap: Bitmap, duration: Double = 0, statedDuration: Double? = nil) {
        self.bitmap = bitmap
        self.duration = duration
        self.explicitStatedDuration = statedDuration
    }

    /// Frames are equal when their bitmaps, durations and stated durations are.
    public static func == (lhs: ImageFrame, rhs: ImageFrame) -> Bool {
        lhs.bitmap == rhs.bitmap && lhs.duration == rhs.duration && lhs.statedDuration == rhs.statedDuration
    }

    /// Hashes the bitmap, the duration and the stated duration.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bitmap)
        hasher.combine(duration)
        hasher.combine(statedDuration)
    }
}
