import Foundation
import WebImageCore
import WebImageColor

/// Random access to the frames of an APNG (or a PNG seen as one frame): parses the chunks once,
/// then decodes and composites frames on demand (dispose none / background / previous,
/// blend source / over).
///
/// Thumbnails (a ``pixelSize`` smaller than the canvas) are composited at thumbnail size: each
/// frame is inflated and unfiltered a row at a time and its rows area-averaged into the frame's
/// rectangle mapped onto a canvas of the thumbnail's size (``ThumbnailGrid``,
/// ``FrameDownsampler``, ``ScaledAnimationCanvas``); blend and dispose operations, the
/// dispose-to-previous copy included, apply at that scale. No canvas-size canvas or frame is
/// ever allocated: memory grows with the thumbnail, not the source (every frame's data is still
/// inflated in full, which is why ``ImageDecodeOptions/maxTotalPixelCount`` counts source
/// pixels). Frame edges that fall inside a thumbnail pixel are approximated (see
/// ``ScaledAnimationCanvas``). A full-size decode composites at full size, as before; a frame no
/// later frame is drawn on is handed over with the canvas's buffer (``AnimationCanvas/takePixels()``).
///
/// Thread-safety: the canvas sits in a `Locked` (Core's mutex); frames are rendered under it (only this
/// provider's own code runs there), so concurrent callers take turns.
final class APNGProvider: AnimatedImageProvider {
    let animatedImageData: Data
    let format = ImageFormat.png
    let pixelSize: PixelSize
    let canvasSize: PixelSize
    let frameCount: Int
    let loopCount: Int?
    let hasAlpha: Bool
    private let file: PNGFile
    private let frames: [PNGFile.Frame]
    /// The converter from the file's colour profile when it is not sRGB (`iCCP`, `cICP`): every
    /// frame is converted with it.
    private let colorConverter: ColorConverter?
    /// The profile the frames keep (``/WebImageCore/ColorProfileHandling/keep``).
    let colorProfile: ColorProfile?
    /// Each frame's delay as its `fcTL` states it (`delay_num / delay_den` seconds, a zero
    /// denominator meaning 100), 0 for a single frame (the played delay is derived:
    /// ``FrameDuration/played(stated:frameCount:)``).
    private let statedDurations: [Double]
    /// The full-size canvas, `nil` for a thumbnail.
    private let canvas: Locked<AnimationCanvas>?
    /// The thumbnail-size canvas, `nil` for a full-size decode.
    private let scaledCanvas: Locked<ScaledAnimationCanvas>?

    /// - Parameter firstFrameOnly: Expose only the first frame.
    init(data: Data, options: ImageDecodeOptions) throws {
        let file = try data.withUnsafeBytes { try PNGDecoding.parse($0, options: options) }
        let color = data.withUnsafeBytes { raw in PNGDecoding.colorPlan(file, in: raw, options: options) }
        (colorProfile, colorConverter) = (color.keptProfile, color.converter)
        let canvasSize = PixelSize(width: file.header.width, height: file.header.height)
        var frames = file.frames
        if frames.isEmpty {
            guard !file.imageData.isEmpty else {
                throw WebImageError(.badImageData, "PNG data of \(data.count) bytes has no image data")
            }
            let whole = PNGFile.FrameControl(width: canvasSize.width, height: canvasSize.height, x: 0, y: 0,
                                             delayNumerator: 0, delayDenominator: 0, dispose: 0, blend: 0)
            frames = [PNGFile.Frame(control: whole, data: file.imageData)]
        }
        if options.firstFrameOnly { frames = [frames[0]] }
        let pixelSize = options.targetPixelSize(for: canvasSize, frameCount: frames.count)
        try PixelLimit.checkTotal(frameCount: frames.count, frameSize: canvasSize, options: options, format: "PNG", byteCount: data.count)
        var layouts: [AnimationFrameLayout] = []
        var statedDurations: [Double] = []
        var coversAll = true
        for (index, frame) in frames.enumerated() {
            let control = frame.control
            let full = control.x == 0 && control.y == 0 && control.width == canvasSize.width && control.height == canvasSize.height
            if index == 0 && !full { coversAll = false }
            let denominator = control.delayDenominator == 0 ? 100 : control.delayDenominator
            let disposal: AnimationFrameLayout.Disposal = switch control.dispose {
            case 1: .background
            case 2: .previous
            default: .none
            }
            let replaces = control.blend == 0 || !file.hasTransparency
            layouts.append(AnimationFrameLayout(
                x: control.x, y: control.y, width: control.width, height: control.height,
                blend: control.blend == 1 ? .over : .source, disposal: disposal, isKeyframe: index == 0 || (full && replaces)
            ))
            statedDurations.append(frames.count == 1 ? 0 : Double(control.delayNumerator) / Double(denominator))
        }
        self.statedDurations = statedDurations
        self.animatedImageData = data
        self.file = file
        self.frames = frames
        self.canvasSize = canvasSize
        self.frameCount = frames.count
        // One frame that is not the default image is still the file's animation: it keeps its loop count.
        self.loopCount = frames.count > 1 || (!options.firstFrameOnly && !file.defaultImageIsFirstFrame) ? file.numPlays : nil
        self.hasAlpha = file.hasTransparency || !coversAll || layouts.contains { $0.disposal == .background && $0.width * $0.height != canvasSize.width * canvasSize.height }
        self.pixelSize = pixelSize
        if pixelSize != canvasSize {
            // PNGFile keeps only frames whose rectangle is inside the canvas.
            self.canvas = nil
            self.scaledCanvas = Locked(ScaledAnimationCanvas(grid: ThumbnailGrid(source: canvasSize, target: pixelSize), frames: layouts))
        } else {
            self.canvas = Locked(try AnimationCanvas(width: canvasSize.width, height: canvasSize.height, frames: layouts))
            self.scaledCanvas = nil
        }
    }

    /// Whether the frames are decoded smaller than the canvas.
    var isThumbnail: Bool { pixelSize != canvasSize }

    /// Whether the data ended before IEND.
    var isTruncated: Bool { file.truncated }

    func duration(at index: Int) -> Double {
        guard index >= 0, index < frameCount else { return 0 }
        return FrameDuration.played(stated: statedDurations[index], frameCount: frameCount)
    }

    func statedDuration(at index: Int) -> Double {
        guard index >= 0, index < frameCount else { return 0 }
        return statedDurations[index]
    }

    func frame(at index: Int) throws -> Bitmap {
        guard index >= 0, index < frameCount else {
            throw WebImageError(.invalidArgument, "frame index \(index) is outside 0..<\(frameCount)")
        }
        if let scaledCanvas {
            let pixels = try scaledCanvas.withLock { canvas in
                let grid = canvas.grid, layouts = canvas.frames
                return try canvas.render(index) { frameIndex in
                    let frame = frames[frameIndex]
                    var sampler = FrameDownsampler(layout: layouts[frameIndex], grid: grid)
                    try animatedImageData.withUnsafeBytes { raw in
                        let y = frame.control.y
                        _ = try PNGRaster.decodeRows(raw, ranges: frame.data, width: frame.control.width, height: frame.control.height, format: file.format) { row, column, step, pixels, count in
                            sampler.add(row: y + row, pixels: pixels, firstColumn: column, step: step, count: count)
                        }
                    }
                    return sampler
                }
            }
            return try converted(Bitmap(width: pixelSize.width, height: pixelSize.height, bytes: pixels, hasAlpha: hasAlpha))
        }
        let pixels = try canvas!.withLock { canvas in
            _ = try canvas.render(index) { frameIndex in
                let frame = frames[frameIndex]
                return try animatedImageData.withUnsafeBytes { raw in
                    try PNGDecoding.pixels(raw, file: file, ranges: frame.data, width: frame.control.width, height: frame.control.height).bytes
                }
            }
            return canvas.takePixels()  // the canvas's buffer itself when no later frame needs it
        }
        return try converted(Bitmap(width: pixelSize.width, height: pixelSize.height, bytes: pixels, hasAlpha: hasAlpha))
    }

    /// Whether the frames are converted from the file's colour profile to sRGB.
    var convertsColor: Bool { colorConverter != nil }

    /// `bitmap` converted to sRGB from the file's profile (as it is without one).
    private func converted(_ bitmap: Bitmap) -> Bitmap {
        guard let colorConverter else { return bitmap }
        var bitmap = bitmap
        colorConverter.convert(&bitmap)
        return bitmap
    }
}
