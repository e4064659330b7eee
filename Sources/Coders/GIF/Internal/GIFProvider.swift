import Foundation
import WebImageCore

/// Random access to the frames of a GIF: parses the blocks once, then decodes and composites
/// frames on demand (disposal 0 and 1 leave the frame, 2 clears its region to transparent as
/// browsers do, 3 restores what was under it; transparent pixels never overwrite the canvas).
/// Images that reach past the logical screen are clipped to it.
///
/// Thumbnails (a ``pixelSize`` smaller than the screen) are composited at thumbnail size: each
/// frame's LZW data is decoded a row at a time and its rows area-averaged into the frame's
/// rectangle mapped onto a canvas of the thumbnail's size (``ThumbnailGrid``,
/// ``FrameDownsampler``, ``ScaledAnimationCanvas``), transparency and disposal applied at that
/// scale, so no screen-size canvas or frame is ever allocated: memory grows with the thumbnail,
/// not the source. Frame edges that fall inside a thumbnail pixel are approximated (see
/// ``ScaledAnimationCanvas``). A full-size decode composites at full size, each frame decoded a
/// row at a time straight into the canvas (``AnimationCanvas/render(_:decodeRows:)``), so the
/// canvas is the only screen-size buffer it makes; the last frame (and a frame before a
/// keyframe) is handed over with the canvas's buffer (``AnimationCanvas/takePixels()``), so a
/// reader that changes it in place, such as a flip, copies nothing.
///
/// Thread-safety: the canvas sits in a `Locked` (Core's mutex); frames are rendered under it
/// (only this provider's own code runs there), so concurrent callers take turns.
final class GIFProvider: AnimatedImageProvider {
    let animatedImageData: Data
    let format = ImageFormat.gif
    let pixelSize: PixelSize
    let canvasSize: PixelSize
    let frameCount: Int
    let loopCount: Int?
    let hasAlpha: Bool
    let isTruncated: Bool
    /// Whether the palettes were converted from the file's ICC profile to sRGB.
    let convertsColor: Bool
    private let frames: [GIFFile.Frame]
    private let layouts: [AnimationFrameLayout]
    /// Each frame's delay as the file states it, in seconds, 0 for a single frame (the played
    /// delay is derived: ``FrameDuration/played(stated:frameCount:)``).
    private let statedDurations: [Double]
    /// The full-size canvas, `nil` for a thumbnail.
    private let canvas: Locked<AnimationCanvas>?
    /// The thumbnail-size canvas, `nil` for a full-size decode.
    private let scaledCanvas: Locked<ScaledAnimationCanvas>?

    init(data: Data, options: ImageDecodeOptions) throws {
        let file = try data.withUnsafeBytes { try GIFFile.parse($0, options: options) }
        let canvasSize = PixelSize(width: file.width, height: file.height)
        let frameCount = options.firstFrameOnly ? 1 : file.frames.count
        let pixelSize = options.targetPixelSize(for: canvasSize, frameCount: frameCount)
        try PixelLimit.checkTotal(frameCount: frameCount, frameSize: canvasSize, options: options, format: "GIF", byteCount: data.count)
        var frames: [GIFFile.Frame] = []
        var layouts: [AnimationFrameLayout] = []
        for frame in options.firstFrameOnly ? [file.frames[0]] : file.frames {
            // Clip to the screen; an image entirely outside it still counts as a (no-op) frame.
            let x0 = min(frame.x, canvasSize.width), y0 = min(frame.y, canvasSize.height)
            let x1 = min(frame.x + frame.width, canvasSize.width), y1 = min(frame.y + frame.height, canvasSize.height)
            let disposal: AnimationFrameLayout.Disposal = switch frame.disposal {
            case 2: .background
            case 3: .previous
            default: .none
            }
            let covers = x0 == 0 && y0 == 0 && x1 == canvasSize.width && y1 == canvasSize.height
            layouts.append(AnimationFrameLayout(
                x: x0, y: y0, width: x1 - x0, height: y1 - y0, blend: .over, disposal: disposal,
                isKeyframe: covers && frame.transparentIndex == nil && !frame.partial
            ))
            frames.append(frame)
        }
        self.statedDurations = frames.count == 1 ? [0] : frames.map { Double($0.delay) / 100 }
        self.animatedImageData = data
        self.canvasSize = canvasSize
        self.frames = frames
        self.layouts = layouts
        self.frameCount = frames.count
        self.loopCount = frames.count > 1 ? file.loopCount : nil
        self.isTruncated = file.truncated
        self.convertsColor = file.colorConverted
        self.hasAlpha = zip(frames, layouts).contains { frame, layout in
            frame.transparentIndex != nil || frame.partial || layout.width != canvasSize.width || layout.height != canvasSize.height
        }
        self.pixelSize = pixelSize
        if pixelSize != canvasSize {
            self.canvas = nil
            self.scaledCanvas = Locked(ScaledAnimationCanvas(grid: ThumbnailGrid(source: canvasSize, target: pixelSize), frames: layouts))
        } else {
            self.canvas = Locked(try AnimationCanvas(width: canvasSize.width, height: canvasSize.height, frames: layouts))
            self.scaledCanvas = nil
        }
    }

    var isThumbnail: Bool { pixelSize != canvasSize }

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
        let pixels: [UInt8]
        if let scaledCanvas {
            pixels = try scaledCanvas.withLock { canvas in
                let grid = canvas.grid
                return try canvas.render(index) { frameIndex in self.decodeFrame(frameIndex, downsampledOn: grid) }
            }
        } else {
            pixels = canvas!.withLock { canvas in
                // Decoding a GIF frame never throws: missing or corrupt data leaves pixels transparent.
                _ = try? canvas.render(index) { frameIndex, draw in self.decodeFrame(frameIndex, drawing: draw) }
                return canvas.takePixels()
            }
        }
        return try Bitmap(width: pixelSize.width, height: pixelSize.height, bytes: pixels, hasAlpha: hasAlpha)
    }

    /// The LZW data of frame `frame`, its sub-blocks joined.
    private func compressedData(of frame: GIFFile.Frame) -> [UInt8] {
        var compressed: [UInt8] = []
        animatedImageData.withUnsafeBytes { raw in
            compressed.reserveCapacity(frame.data.reduce(0) { $0 + $1.count })
            for range in frame.data { compressed.append(contentsOf: raw[range]) }
        }
        return compressed
    }

    /// Frame `index`'s clipped region area-averaged onto `grid`'s target canvas, decoded a row
    /// at a time: only one row of indices and one of colors at source size are held. Missing
    /// and transparent-index pixels count as transparent.
    private func decodeFrame(_ index: Int, downsampledOn grid: ThumbnailGrid) -> FrameDownsampler {
        let layout = layouts[index]
        var sampler = FrameDownsampler(layout: layout, grid: grid)
        decodeFrame(index) { regionY, pixels in
            sampler.add(row: layout.y + regionY, pixels: UnsafeRawPointer(pixels.baseAddress!), firstColumn: 0, count: pixels.count / 4)
        }
        return sampler
    }

    /// Frame `index`'s clipped region handed to `draw` a row at a time (its index in the region
    /// and its RGBA8 pixels), decoded a row at a time: only one row of indices and one of colors
    /// are held, never the frame. Rows and pixels whose data is missing are not drawn, and
    /// transparent-index pixels are (0, 0, 0, 0): both leave the canvas as it is.
    private func decodeFrame(_ index: Int, drawing draw: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        let frame = frames[index]
        let layout = layouts[index]
        guard layout.width > 0, layout.height > 0 else { return }
        let stream = LZWStream(input: compressedData(of: frame), minimumCodeSize: frame.minimumCodeSize, total: frame.width * frame.height)
        let offsetX = layout.x - frame.x, offsetY = layout.y - frame.y
        var indices = [UInt8](repeating: 0, count: frame.width)
        var colors = [UInt8](repeating: 0, count: layout.width * 4)
        frame.palette.withUnsafeBufferPointer { palette in
            indices.withUnsafeMutableBufferPointer { indices in
                colors.withUnsafeMutableBytes { colors in
                    for row in 0..<frame.height {
                        let decoded = stream.read(into: indices)
                        let y = frame.interlaced ? Self.interlacedRow(row, height: frame.height) : row
                        let regionY = y - offsetY
                        let available = min(layout.width, decoded - offsetX)
                        if regionY >= 0, regionY < layout.height, available > 0 {
                            for x in 0..<available {
                                colors.storeBytes(of: palette[Int(indices[offsetX + x])], toByteOffset: x * 4, as: UInt32.self)
                            }
                            draw(regionY, UnsafeBufferPointer(start: colors.baseAddress!.assumingMemoryBound(to: UInt8.self), count: available * 4))
                        }
                        if decoded < frame.width { break }
                    }
                }
            }
        }
    }

    /// The image row that the `row`-th stored row of an interlaced image is (passes every 8th
    /// row from 0, every 8th from 4, every 4th from 2, every 2nd from 1).
    static func interlacedRow(_ row: Int, height: Int) -> Int {
        let pass1 = (height + 7) / 8
        if row < pass1 { return row * 8 }
        let pass2 = (height + 3) / 8
        if row < pass1 + pass2 { return (row - pass1) * 8 + 4 }
        let pass3 = (height + 1) / 4
        if row < pass1 + pass2 + pass3 { return (row - pass1 - pass2) * 4 + 2 }
        return (row - pass1 - pass2 - pass3) * 2 + 1
    }
}
