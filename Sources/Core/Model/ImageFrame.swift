/// One frame of an image: its bitmap and how long it shows.
public struct ImageFrame: Hashable, Sendable {
    /// The frame's pixels, composited onto the full canvas.
    public var bitmap: Bitmap
    /// How long the frame shows, in seconds (0 for a still image).
    public var duration: Double

    public init(bitmap: Bitmap, duration: Double = 0) {
        self.bitmap = bitmap
        self.duration = duration
    }
}
