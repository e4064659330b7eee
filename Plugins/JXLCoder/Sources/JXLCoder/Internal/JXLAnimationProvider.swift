import Foundation
import WebImageCore
import WebImageColor

/// Random access to the frames of a JPEG XL animation (or a still seen as one frame).
///
/// Made in two steps before any pixel is decoded: the basic info (checked against
/// `maxPixelCount`), then a pass over the frame headers only, which counts the frames (stopping
/// past `maxFrameCount`) and reads their durations, so that frames x source size is checked
/// against `maxTotalPixelCount`. Frames are then rendered on demand by libjxl (it blends them
/// onto the canvas itself) and resampled (Lanczos-3) for a thumbnail.
///
/// Thread-safety: the renderer sits in a `Locked`; concurrent callers take turns.
final class JXLAnimationProvider: AnimatedImageProvider {
    let animatedImageData: Data
    let format = ImageFormat.jpegXL
    let pixelSize: PixelSize
    let frameCount: Int
    let loopCount: Int?
    /// The size libjxl renders frames at (upright).
    let canvasSize: PixelSize
    /// The file's basic info.
    let info: JXLImageInfo
    private let durations: [Double]
    private let renderer: Locked<JXLFrameRenderer>

    /// The frames' colour: converted to sRGB, or the profile kept (known once a frame has been
    /// rendered).
    var color: ColorPlan { renderer.withLock { $0.color } }

    /// Parses `data` (headers only) and checks the limits.
    /// - Throws: ``WebImageError/Code/badImageData``, ``WebImageError/Code/imageTooLarge``.
    init(data: Data, options: ImageDecodeOptions, threads: Int) throws {
        let what = "JPEG XL data of \(data.count) bytes"
        let scan = try JXLDecoderSession(pixels: false, applyOrientation: options.applyOrientation, threads: 1, what: what)
        let (info, ticks) = try data.withUnsafeBytes { raw in
            try scan.setInput(raw)
            let info = try scan.readInfo()
            try JXLLimits.checkFrame(info.outputSize, options: options, byteCount: data.count)
            guard info.isAnimated, !options.firstFrameOnly else { return (info, [UInt32(0)]) }
            return (info, try scan.frameDurations(limit: options.maxFrameCount, byteCount: data.count, options: options))
        }
        let frameCount = ticks.count
        let pixelSize = options.targetPixelSize(for: info.outputSize, frameCount: frameCount)
        try JXLLimits.checkTotal(frameCount: frameCount, frameSize: info.outputSize, options: options, byteCount: data.count)
        self.animatedImageData = data
        self.info = info
        self.canvasSize = info.outputSize
        self.pixelSize = pixelSize
        self.frameCount = frameCount
        self.loopCount = frameCount > 1 ? info.loopCount : nil
        self.durations = frameCount > 1 ? ticks.map { Double($0) * info.secondsPerTick } : [0]
        self.renderer = Locked(try JXLFrameRenderer(data: data, info: info, applyOrientation: options.applyOrientation, threads: threads, what: what, colorProfileHandling: options.colorProfileHandling))
    }

    /// Whether frames come out smaller than the canvas.
    var isThumbnail: Bool { pixelSize != canvasSize }

    /// The duration the file states (ticks x tps denominator / numerator); JPEG XL durations
    /// play as stated.
    func duration(at index: Int) -> Double {
        guard index >= 0, index < frameCount else { return 0 }
        return durations[index]
    }

    func frame(at index: Int) throws -> Bitmap {
        guard index >= 0, index < frameCount else {
            throw WebImageError(.invalidArgument, "frame index \(index) is outside 0..<\(frameCount)")
        }
        let bitmap = try renderer.withLock { renderer in try renderer.frame(at: index) }
        return try JXLStillDecoding.fitted(bitmap, to: pixelSize)
    }
}
