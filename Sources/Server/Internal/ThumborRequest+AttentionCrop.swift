import WebImageCore
import WebImageTransformers

extension ThumborRequest {
    /// `plan` with its crop to the requested aspect ratio moved to where ``AttentionCrop``
    /// looks in `source` (a server whose ``ImageServerConfiguration/smartCrop`` is
    /// ``SmartCropMode/attention``). Only a `smart` request with no `focal(...)` regions, no
    /// `fit-in` and no `stretch()` moves; the window keeps its size and stays inside what the
    /// trim and the manual crop kept, so the result's size is thumbor's. `halign` and `valign`
    /// are not used then.
    func attentionPlan(_ plan: ThumborPlan, source: Bitmap, trimmedRegion: PixelRect?) -> ThumborPlan {
        guard smart, focalRegions.isEmpty, fitIn == .none, !filters.contains(.stretch), let crop = plan.crop else { return plan }
        // The same request without a size keeps what the trim and the manual crop keep, and
        // crops nothing to an aspect ratio.
        var unsized = self
        unsized.width = nil
        unsized.height = nil
        unsized.usesSourceWidth = false
        unsized.usesSourceHeight = false
        let region = unsized.plan(sourceSize: source.size, trimmedRegion: trimmedRegion).crop ?? PixelRect(x: 0, y: 0, size: source.size)
        guard crop.size != region.size, region.contains(crop) else { return plan }
        var moved = plan
        moved.crop = AttentionCrop.window(of: crop.size, in: region, of: source)
        return moved
    }
}
