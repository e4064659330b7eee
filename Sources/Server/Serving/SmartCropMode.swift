/// What `smart` in a thumbor URL does when ``ImageServer`` crops a source to the requested
/// aspect ratio and the URL names no `focal(...)` regions.
public enum SmartCropMode: String, Sendable, CaseIterable {
    /// The crop is centred, or aligned as `halign`/`valign` ask: thumbor's behaviour without a
    /// detector, so sizes and pixels match thumbor's (the default).
    case centre
    /// The crop window goes where the image draws the eye, as libvips' `attention` crop: on a
    /// 32x32 reduction of the region being cropped, the edges of the luminance, skin tones and
    /// colourfulness are scored, blurred over about a tenth of the window, and the window is
    /// centred on the highest score (clamped to the region).
    case attention
}
