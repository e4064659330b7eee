import WebImageCore

/// An animation canvas kept at thumbnail size (``ThumbnailGrid/target``), for GIF and APNG
/// thumbnails: the counterpart of Core's ``AnimationCanvas`` whose frames arrive already
/// area-averaged (``FrameDownsampler``), so that neither a source-size canvas nor a source-size
/// frame is ever allocated.
///
/// The canvas holds premultiplied RGBA as fractions of 65535 (8 bytes per target pixel), so
/// that blending and disposing can be done in proportion to how much of each target pixel's box
/// a frame covers: with `F` the frame's box mean, `O` the canvas, `c` the coverage,
/// - blend over: `F + O (1 - F.alpha)`; blend source: `F + O (1 - c)`;
/// - dispose background: `O (1 - c)`; dispose previous: the frame's mapped rectangle as it was
///   before the frame was drawn.
///
/// These are exact where the canvas under a target pixel's box is one colour and approximate at
/// frame edges over detailed content (the part of a box outside the frame is taken as the
/// box's mean). Rendering order, keyframes and restarts follow ``AnimationCanvas``.
///
/// A value type that is not safe to mutate from two threads at once: the providers keep it in
/// a ``Locked``.
struct ScaledAnimationCanvas: Sendable {
    let grid: ThumbnailGrid
    /// The frames' rectangles on the source canvas.
    let frames: [AnimationFrameLayout]
    /// The frames' rectangles on the target canvas.
    private let mapped: [AnimationFrameLayout]
    private var pixels: [UInt16]
    /// The frame now drawn (before its disposal), or -1.
    private var index = -1
    /// The coverage of frame `index`, when its disposal is `.background` or its blend `.source`.
    private var coverage: [UInt16] = []
    /// The mapped rectangle of frame `index` before it was drawn, when its disposal is `.previous`.
    private var saved: [UInt16]?

    /// A transparent canvas of `grid.target` for `frames` (rectangles inside `grid.source`).
    init(grid: ThumbnailGrid, frames: [AnimationFrameLayout]) {
        self.grid = grid
        self.frames = frames
        mapped = frames.map(grid.map)
        pixels = [UInt16](repeating: 0, count: grid.target.width * grid.target.height * 4)
    }

    /// Renders frame `target` and returns the canvas as RGBA8 with straight alpha
    /// (`grid.target` pixels, rows tightly packed).
    /// - Parameter decode: Gives frame `i` area-averaged onto the grid (its ``FrameDownsampler``
    ///   after every row was added). Called for the frames from the starting point to `target`,
    ///   in order.
    mutating func render(_ target: Int, decode: (Int) throws -> FrameDownsampler) throws -> [UInt8] {
        guard target >= 0, target < frames.count else {
            throw WebImageError(.invalidArgument, "frame index \(target) is outside 0..<\(frames.count) of the animation")
        }
        if target != index {
            var keyframe = target
            while keyframe > 0 && !frames[keyframe].isKeyframe { keyframe -= 1 }
            let start: Int
            if index >= 0 && target > index && keyframe <= index + 1 {
                start = index + 1
            } else {
                start = keyframe
                pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
                index = -1
                saved = nil
            }
            do {
                for frameIndex in start...target {
                    if index >= 0 { dispose(index) }
                    let frame = frames[frameIndex]
                    saved = frame.disposal == .previous ? copyRectangle(mapped[frameIndex]) : nil
                    let sampler = try decode(frameIndex)
                    let needsCoverage = frame.disposal == .background || frame.blend == .source
                    coverage = needsCoverage ? sampler.coverage() : []
                    draw(sampler.premultiplied(), frameIndex)
                    index = frameIndex
                }
            } catch {
                index = -1
                saved = nil
                throw error
            }
        }
        return straightPixels()
    }

    private func copyRectangle(_ rect: AnimationFrameLayout) -> [UInt16] {
        var region: [UInt16] = []
        region.reserveCapacity(rect.width * rect.height * 4)
        for row in 0..<rect.height {
            let from = ((rect.y + row) * grid.target.width + rect.x) * 4
            region.append(contentsOf: pixels[from..<from + rect.width * 4])
        }
        return region
    }

    private mutating func dispose(_ frameIndex: Int) {
        let rect = mapped[frameIndex]
        let canvasWidth = grid.target.width
        guard rect.width > 0, rect.height > 0 else { return }
        switch frames[frameIndex].disposal {
        case .none:
            return
        case .background:
            let coverage = coverage
            pixels.withUnsafeMutableBufferPointer { canvas in
                for row in 0..<rect.height {
                    for column in 0..<rect.width {
                        let keep = 65535 - Int(coverage[row * rect.width + column])
                        let p = ((rect.y + row) * canvasWidth + rect.x + column) * 4
                        for channel in 0..<4 { canvas[p + channel] = UInt16((Int(canvas[p + channel]) * keep + 32767) / 65535) }
                    }
                }
            }
        case .previous:
            guard let saved else { return }
            pixels.withUnsafeMutableBufferPointer { canvas in
                saved.withUnsafeBufferPointer { region in
                    for row in 0..<rect.height {
                        let to = ((rect.y + row) * canvasWidth + rect.x) * 4
                        (canvas.baseAddress! + to).update(from: region.baseAddress! + row * rect.width * 4, count: rect.width * 4)
                    }
                }
            }
        }
    }

    private mutating func draw(_ source: [UInt16], _ frameIndex: Int) {
        let rect = mapped[frameIndex]
        let canvasWidth = grid.target.width
        guard rect.width > 0, rect.height > 0, source.count == rect.width * rect.height * 4 else { return }
        let over = frames[frameIndex].blend == .over
        let coverage = coverage
        pixels.withUnsafeMutableBufferPointer { canvas in
            source.withUnsafeBufferPointer { own in
                for row in 0..<rect.height {
                    for column in 0..<rect.width {
                        let s = (row * rect.width + column) * 4
                        let p = ((rect.y + row) * canvasWidth + rect.x + column) * 4
                        let keep = 65535 - (over ? Int(own[s + 3]) : Int(coverage[row * rect.width + column]))
                        for channel in 0..<4 {
                            let value = Int(own[s + channel]) + (Int(canvas[p + channel]) * keep + 32767) / 65535
                            canvas[p + channel] = UInt16(min(65535, value))
                        }
                    }
                }
            }
        }
    }

    /// The canvas as RGBA8 with straight alpha.
    private func straightPixels() -> [UInt8] {
        PixelBuffer.make(count: grid.target.width * grid.target.height * 4) { out in
            pixels.withUnsafeBufferPointer { canvas in
                for index in stride(from: 0, to: canvas.count, by: 4) {
                    let alpha = Int(canvas[index + 3])
                    guard alpha > 0 else {
                        out[index] = 0; out[index + 1] = 0; out[index + 2] = 0; out[index + 3] = 0
                        continue
                    }
                    for channel in 0..<3 {
                        out[index + channel] = UInt8(min(255, (Int(canvas[index + channel]) * 255 + alpha / 2) / alpha))
                    }
                    out[index + 3] = UInt8((alpha + 128) / 257)
                }
            }
        }
    }
}
