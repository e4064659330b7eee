/// How a coder encodes (SDWebImage's `SDImageCoderOptions` for encoding).
public struct ImageEncodeOptions: Sendable {
    /// Quality for lossy formats, 0...1 (default 1). Lossless formats may map it to effort.
    public var compressionQuality: Double = 1
    /// Encode only the first frame of an animation.
    public var firstFrameOnly = false
    /// The color under transparent pixels when the format has no alpha (default white).
    public var backgroundColor: RGBAColor = .white
    /// Downscale (keeping the aspect ratio) so that neither side is larger than this.
    public var maxPixelSize: PixelSize?
    /// Try to keep the output under this many bytes (lossy formats lower the quality).
    public var maxFileSize: Int?
    /// Embed a thumbnail where the format supports one.
    public var embedThumbnail = false
    /// The request's context, for coders that read keys of their own.
    public var context = WebImageContext()

    /// Options with `compressionQuality` clamped to 0...1 and the other fields at their defaults.
    public init(compressionQuality: Double = 1, firstFrameOnly: Bool = false) {
        self.compressionQuality = min(1, max(0, compressionQuality))
        self.firstFrameOnly = firstFrameOnly
    }
}
