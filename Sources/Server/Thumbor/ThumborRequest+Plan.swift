public import WebImageCore

extension ThumborRequest {
    /// The crop, size, canvas and flips this request gives a source of `sourceSize` pixels
    /// (after EXIF orientation), with thumbor's semantics for `fit-in`, 0 dimensions and upscaling.
    public func plan(sourceSize: PixelSize) -> ThumborPlan {
        // Skeleton: the geometry is being written (issue 22).
        ThumborPlan(size: sourceSize, flipsHorizontally: flipsHorizontally, flipsVertically: flipsVertically)
    }
}
