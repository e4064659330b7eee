public import WebImageCore
public import WebImageTransformers

extension ThumborRequest {
    /// The crop, size, canvas and flips this request gives a source of `sourceSize` pixels,
    /// with thumbor 7.8's semantics; the same as ``plan(sourceSize:trimmedRegion:)`` without
    /// `trim`.
    public func plan(sourceSize: PixelSize) -> ThumborPlan {
        plan(sourceSize: sourceSize, trimmedRegion: nil)
    }

    /// The crop, size, canvas and flips this request gives a source of `sourceSize` pixels
    /// (after EXIF orientation), with thumbor 7.8's semantics (`thumbor/transformer.py`).
    ///
    /// In thumbor's order:
    /// 1. `no_upscale()` caps the requested width and height at the source's (before any
    ///    crop; a 0 or absent side stays so).
    /// 2. `trim` keeps `trimmedRegion` (found by the caller from the pixels) and moves the
    ///    manual crop with it.
    /// 3. The manual crop `AxB:CxD`, clamped to the image; one with no area is ignored.
    /// 4. The target size: both sides 0 or absent keep the image's size; one side 0 or absent
    ///    follows the aspect ratio (rounded half to even, as Python's `round`); `orig` is the
    ///    image's side.
    /// 5. Without fit-in: unless `stretch()`, crop to the target's aspect ratio (when the two
    ///    ratios differ at two decimals) around the focal point: the centre of mass of the
    ///    ``focalRegions`` (those inside the manual crop), else the point `halign`/`valign`
    ///    name (`smart` without a detector uses the same point); then resize to the target
    ///    size, which may enlarge (use `no_upscale()` to prevent it).
    /// 6. `fit-in`: fit inside the box, never enlarging; `full-fit-in`: cover the box (the
    ///    smaller side fits), enlarging if needed; `adaptive-` turns the box when its orientation
    ///    differs from the image's. thumbor then takes the larger of the box and the result as
    ///    the requested size, which `fill` and `upscale` use.
    /// 7. The flips.
    /// 8. After that, in the URL's order: `upscale()` enlarges to fit the requested box when
    ///    the image is smaller on both sides, `rotate` turns, `fill` sets the canvas.
    ///
    /// Where thumbor would fail on degenerate sizes (a side that rounds to 0 pixels, `orig`
    /// with the other side absent, divisions by zero), the plan keeps every side at least 1
    /// pixel and treats `orig` as the image's side.
    ///
    /// - Parameters:
    ///   - sourceSize: The source's size in pixels, after EXIF orientation.
    ///   - trimmedRegion: For a `trim` request, the region the trim keeps, in source pixels
    ///     (thumbor ignores a trim that would keep nothing: pass `nil` then).
    public func plan(sourceSize: PixelSize, trimmedRegion: PixelRect?) -> ThumborPlan {
        var geometry = ThumborGeometry(request: self, sourceSize: sourceSize)
        geometry.run(trimmedRegion: trimmedRegion)
        return geometry.plan
    }
}
