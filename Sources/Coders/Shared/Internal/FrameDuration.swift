/// The frame delay rule shared by APNG and GIF.
enum FrameDuration {
    /// Delays of 10 ms or less show for 100 ms, as browsers do: many files say 0 (or 1/100 s)
    /// and mean "as fast as sensible", and playing them at 0 would spin. Longer delays are kept.
    static let minimum = 0.011
    /// The delay used in place of a too-short one.
    static let replacement = 0.1

    /// `seconds`, or 0.1 if it is 10 ms or less.
    static func normalized(_ seconds: Double) -> Double {
        seconds < minimum ? replacement : seconds
    }

    /// How long a frame that states `seconds` plays in an image of `frameCount` frames: 0 for
    /// a still (one frame), else ``normalized(_:)``.
    static func played(stated seconds: Double, frameCount: Int) -> Double {
        frameCount == 1 ? 0 : normalized(seconds)
    }
}
