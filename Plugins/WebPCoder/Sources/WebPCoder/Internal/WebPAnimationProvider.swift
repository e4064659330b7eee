import Foundation
import WebImageCore
import WebImageColor

/// Random access to the frames of a WebP (animated, or a still seen as one frame): the container
/// is parsed once; frames are decoded by libwebp on demand and composited by Core's
/// `AnimationCanvas` (blending and disposal, with the WebP rules: see
/// ``WebPFrameInfo/layout``), then resampled (Lanczos-3, Core's resampler) when
/// the options ask for a thumbnail or a scale-down.
///
/// Thread-safety: the canvas sits in a `Locked` (Core's mutex); frames are rendered under it
/// (only this provider's own code and libwebp run there), so concurrent callers take turns.
final class WebPAnimationProvider: AnimatedImageProvider {
    let animatedImageData: Data
    let format = ImageFormat.webp
    let pixelSize: PixelSize
    let canvasSize: PixelSize
    let frameCount: Int
    let loopCount: Int?
    /// Whether any frame has alpha or leaves part of the canvas uncovered.
    let hasAlpha: Bool
    private let frames: [WebPFrameInfo]
    /// The converter from the file's ICC profile when it is not sRGB: every frame goes through it.
    /// The frames' colour: converted to sRGB from the `ICCP` profile, or the profile kept.
    let color: ColorPlan
    private let canvas: Locked<AnimationCanvas>

    /// Parses `data` and checks the canvas against the pixel limit, then the frame count and the
    /// pixels of all frames against the per-image budget (``checkBudget``), from the headers
    /// before any frame is decoded.
    /// - Parameter partial: `data` may be cut short; only its complete frames are used.
    /// - Throws: ``WebImageError/Code/badImageData``, ``WebImageError/Code/imageTooLarge``.
    init(data: Data, options: ImageDecodeOptions, partial: Bool = false) throws {
        guard let header = try WebPHeader.read(data, partial: partial) else {
            throw WebImageError(.badImageData, "WebP data of \(data.count) bytes is truncated (the header is incomplete)")
        }
        try header.checkLimit(options, byteCount: data.count)
        let container = try WebPContainer.parse(data, partial: partial, firstFrameOnly: options.firstFrameOnly) { frameCount, canvasSize in
            try Self.checkBudget(frameCount: options.firstFrameOnly ? 1 : frameCount, canvasSize: canvasSize, options: options, byteCount: data.count)
        }
        guard container.canvasSize == header.size else {
            throw WebImageError(.badImageData, "WebP data of \(data.count) bytes: the canvas (\(container.canvasSize)) does not match the header (\(header.size))")
        }
        let canvasSize = container.canvasSize
        self.animatedImageData = data
        self.canvasSize = canvasSize
        self.frames = container.frames
        self.frameCount = container.frames.count
        self.loopCount = container.frames.count > 1 ? container.loopCount : nil
        self.hasAlpha = container.frames.contains { $0.hasAlpha || !$0.covers(width: canvasSize.width, height: canvasSize.height) }
        self.pixelSize = options.targetPixelSize(for: canvasSize, frameCount: container.frames.count)
        self.canvas = Locked(try AnimationCanvas(width: canvasSize.width, height: canvasSize.height, frames: container.frames.map(\.layout)))
        // An sRGB or unusable profile gives no converter.
        self.color = ColorConversion.plan(for: WebPColorProfile.read(data), options: options)
    }

    /// Throws ``WebImageError/Code/imageTooLarge`` when an animation of `frameCount` frames has
    /// more than `options.maxFrameCount` frames, or when its frames together have more source
    /// pixels (`frameCount` x the canvas) than `options.maxTotalPixelCount`.
    ///
    /// Decision: the source's pixels count, not a thumbnail's: every frame is composited at
    /// the canvas size before it is resampled, so that is what decoding costs.
    static func checkBudget(frameCount: Int, canvasSize: PixelSize, options: ImageDecodeOptions, byteCount: Int) throws {
        guard frameCount <= options.maxFrameCount else {
            throw WebImageError(
                .imageTooLarge,
                "animated WebP of \(frameCount) frames (\(byteCount) bytes of data) is over the limit of \(options.maxFrameCount) frames"
            )
        }
        let perFrame = canvasSize.pixelCount ?? Int.max
        let (total, overflow) = perFrame.multipliedReportingOverflow(by: max(1, frameCount))
        guard !overflow, total <= options.maxTotalPixelCount else {
            throw WebImageError(
                .imageTooLarge,
                "animated WebP of \(frameCount) frame\(frameCount == 1 ? "" : "s") of \(canvasSize) (\(overflow ? "over \(Int.max)" : "\(total)") pixels in all, \(byteCount) bytes of data) is over the limit of \(options.maxTotalPixelCount) pixels per image"
            )
        }
    }

    /// Whether frames come out smaller than the canvas.
    var isThumbnail: Bool { pixelSize != canvasSize }

    func statedDuration(at index: Int) -> Double {
        guard index >= 0, index < frameCount else { return 0 }
        return frames[index].statedDuration
    }

    func duration(at index: Int) -> Double {
        guard index >= 0, index < frameCount else { return 0 }
        return frames[index].duration
    }

    func frame(at index: Int) throws -> Bitmap {
        guard index >= 0, index < frameCount else {
            throw WebImageError(.invalidArgument, "frame index \(index) is outside 0..<\(frameCount)")
        }
        let pixels = try canvas.withLock { canvas in
            _ = try canvas.render(index) { frameIndex in try decodeFrame(frameIndex) }
            return canvas.takePixels()  // the canvas's buffer itself when no later frame needs it
        }
        var bitmap = try Bitmap(width: canvasSize.width, height: canvasSize.height, bytes: pixels, hasAlpha: hasAlpha)
        color.apply(to: &bitmap)
        if bitmap.size == pixelSize { return bitmap }
        return try bitmap.resampled(to: pixelSize, filter: .lanczos3)
    }

    /// The RGBA8 pixels of frame `index`'s own rectangle.
    private func decodeFrame(_ index: Int) throws -> [UInt8] {
        let frame = frames[index]
        let count = frame.width * frame.height * 4
        let what = "frame \(index) of \(frameCount) of WebP data of \(animatedImageData.count) bytes"
        return try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            try animatedImageData.withUnsafeBytes { raw in
                let bytes = UnsafeRawBufferPointer(rebasing: raw[frame.range])
                try WebPStillDecoding.decode(bytes, into: buffer, size: PixelSize(width: frame.width, height: frame.height), scaling: false, what: what)
            }
            initialized = count
        }
    }
}
