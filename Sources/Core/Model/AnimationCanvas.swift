/// The canvas of an animation rendered frame by frame: each frame's own pixels are blended into
/// its rectangle and disposed of as its ``AnimationFrameLayout`` says, the way APNG, GIF and WebP
/// players compose frames. The built-in GIF and APNG coders and the WebP plug-in render with it.
///
/// ```swift
/// var canvas = try AnimationCanvas(width: 320, height: 240, frames: layouts)
/// let pixels = try canvas.render(5) { index in try decodeOwnPixels(of: index) }
/// ```
///
/// Pixels are RGBA8 with straight alpha, rows tightly packed, starting transparent black.
/// Sequential access costs one frame decode per frame; going back (or far forward) restarts at
/// the nearest keyframe at or before the target (see ``AnimationFrameLayout/isKeyframe``).
///
/// Memory: the canvas is one `width * height * 4` buffer. A frame returned by a render shares it
/// copy-on-write, so drawing the next frame while the caller still holds the last one copies it.
/// ``takePixels()`` hands the buffer over instead when no later frame is drawn on it (the last
/// frame, or the frame before a keyframe): a reader that goes through the frames once gets the
/// last one (and every frame before a keyframe) as its only owner, free to change in place.
///
/// A value type that is not safe to mutate from two threads at once: an animated image provider
/// keeps it in a ``Locked`` and renders under the lock.
public struct AnimationCanvas: Sendable {
    /// The canvas width in pixels.
    public let width: Int
    /// The canvas height in pixels.
    public let height: Int
    /// The frames, in display order.
    public let frames: [AnimationFrameLayout]
    /// The canvas as last rendered: `width * height * 4` bytes, RGBA8, straight alpha; all zero
    /// before the first render; empty after ``takePixels()`` handed them over, until the next
    /// render.
    public private(set) var pixels: [UInt8]
    /// The frame now drawn (before its disposal), or -1.
    private var index = -1
    /// The rectangle of frame `index` before it was drawn, when its disposal is `.previous`.
    private var saved: [UInt8]?

    /// An empty (transparent black) `width` x `height` canvas for `frames`.
    /// - Throws: ``WebImageError/Code/invalidArgument`` if a size is negative or a frame's
    ///   rectangle is not inside the canvas (the message names the frame and its rectangle).
    public init(width: Int, height: Int, frames: [AnimationFrameLayout]) throws {
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        guard width >= 0, height >= 0, !overflow, area <= Int.max / 4 else {
            throw WebImageError(.invalidArgument, "an animation canvas of \(width) x \(height) pixels is not possible")
        }
        for (index, frame) in frames.enumerated() {
            guard frame.x >= 0, frame.y >= 0, frame.width >= 0, frame.height >= 0,
                  frame.width <= width - frame.x, frame.height <= height - frame.y
            else {
                throw WebImageError(
                    .invalidArgument,
                    "frame \(index) at (\(frame.x), \(frame.y)), \(frame.width) x \(frame.height) pixels, is not inside the \(width) x \(height) canvas"
                )
            }
        }
        self.width = width
        self.height = height
        self.frames = frames
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Renders frame `target` and returns the canvas pixels (also in ``pixels``).
    ///
    /// Rendering the frame already on the canvas decodes nothing. If `decode` throws, the error
    /// is rethrown and the next render starts over from a keyframe.
    /// - Parameters:
    ///   - target: The index of the frame to render.
    ///   - decode: Decodes frame `i`'s own pixels: `frames[i].width * frames[i].height * 4`
    ///     bytes, RGBA8, straight alpha, rows tightly packed. Called for the frames from the
    ///     starting point to `target`, in order.
    /// - Throws: ``WebImageError/Code/invalidArgument`` if `target` is not a frame index,
    ///   ``WebImageError/Code/badImageData`` if `decode` returns the wrong number of bytes, or
    ///   what `decode` throws.
    public mutating func render(_ target: Int, decode: (Int) throws -> [UInt8]) throws -> [UInt8] {
        try renderFrames(upTo: target) { canvas, frameIndex, frame in
            let source = try decode(frameIndex)
            guard source.count == frame.width * frame.height * 4 else {
                throw WebImageError(
                    .badImageData,
                    "frame \(frameIndex) of the animation decoded to \(source.count) bytes, not \(frame.width * frame.height * 4) (\(frame.width) x \(frame.height) RGBA8)"
                )
            }
            canvas.draw(source, frame)
        }
    }

    /// Renders frame `target` as ``render(_:decode:)`` does, with each frame's pixels handed
    /// over a row at a time and blended straight into the canvas, so no frame-size buffer is
    /// made besides the canvas itself (what a decoder that produces rows in order needs).
    ///
    /// - Parameters:
    ///   - target: The index of the frame to render.
    ///   - decodeRows: Decodes frame `i` by calling `draw(row, pixels)` for rows of its
    ///     rectangle (`row` in `0..<frames[i].height`, any order, each at most once): `pixels` is
    ///     RGBA8, straight alpha, the row's leftmost pixels (at most `frames[i].width` of them).
    ///     Pixels and rows it does not draw count as transparent black, as missing bytes would.
    ///     Other `row` values and bytes past the rectangle are ignored.
    /// - Throws: ``WebImageError/Code/invalidArgument`` if `target` is not a frame index, or
    ///   what `decodeRows` throws.
    public mutating func render(
        _ target: Int,
        decodeRows: (_ frame: Int, _ draw: (_ row: Int, _ pixels: UnsafeBufferPointer<UInt8>) -> Void) throws -> Void
    ) throws -> [UInt8] {
        try renderFrames(upTo: target) { canvas, frameIndex, frame in
            if frame.blend == .source { canvas.clear(frame) }
            let canvasWidth = canvas.width
            try canvas.pixels.withUnsafeMutableBufferPointer { canvas in
                try decodeRows(frameIndex) { row, source in
                    guard row >= 0, row < frame.height, source.count >= 4 else { return }
                    let count = min(source.count / 4, frame.width)
                    let to = canvas.baseAddress! + ((frame.y + row) * canvasWidth + frame.x) * 4
                    Self.blend(source.baseAddress!, into: to, count: count, frame.blend)
                }
            }
        }
    }

    /// The pixels of the frame now drawn, handed over when the canvas no longer needs them.
    ///
    /// When the frame now drawn is the last, or the next one is a keyframe (drawn on a clear
    /// canvas), no frame that follows in order is drawn on these pixels: the canvas lets go of
    /// them, and the array returned is their only owner (a caller may change it in place without
    /// a copy). ``pixels`` is then empty, and the next render starts at a keyframe on a new
    /// buffer, as it would after going back. Otherwise the canvas keeps them, and the array
    /// returned shares them copy-on-write (as a render's result does).
    /// - Returns: `width * height * 4` bytes, RGBA8, straight alpha: the frame last rendered
    ///   (all zero before the first render).
    public mutating func takePixels() -> [UInt8] {
        let isLast = index >= 0 && index == frames.count - 1
        let nextIsKeyframe = index >= 0 && index + 1 < frames.count && frames[index + 1].isKeyframe
        guard isLast || nextIsKeyframe else { return pixels }
        let taken = pixels
        pixels = []
        index = -1
        saved = nil
        return taken
    }

    /// Brings the canvas to frame `target` (see ``render(_:decode:)``), calling `drawFrame` to
    /// draw each frame from the starting point to `target` after disposing of the one before.
    private mutating func renderFrames(
        upTo target: Int,
        _ drawFrame: (inout AnimationCanvas, Int, AnimationFrameLayout) throws -> Void
    ) throws -> [UInt8] {
        guard target >= 0, target < frames.count else {
            throw WebImageError(.invalidArgument, "frame index \(target) is outside 0..<\(frames.count) of the animation canvas")
        }
        if target == index { return pixels }
        var keyframe = target
        while keyframe > 0 && !frames[keyframe].isKeyframe { keyframe -= 1 }
        let start: Int
        if index >= 0 && target > index && keyframe <= index + 1 {
            start = index + 1  // carry on from the frame on the canvas
        } else {
            start = keyframe
            if pixels.count == width * height * 4 {
                pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            } else {
                pixels = [UInt8](repeating: 0, count: width * height * 4)  // handed over by takePixels()
            }
            index = -1
            saved = nil
        }
        do {
            for frameIndex in start...target {
                if index >= 0 { dispose(frames[index]) }
                let frame = frames[frameIndex]
                saved = frame.disposal == .previous ? copyRectangle(of: frame) : nil
                try drawFrame(&self, frameIndex, frame)
                index = frameIndex
            }
        } catch {
            index = -1  // the canvas is half-made: start over next time
            saved = nil
            throw error
        }
        return pixels
    }
}

extension AnimationCanvas {
    /// A copy of the canvas pixels in `frame`'s rectangle, rows tightly packed.
    private func copyRectangle(of frame: AnimationFrameLayout) -> [UInt8] {
        var region = [UInt8](repeating: 0, count: frame.width * frame.height * 4)
        let rowBytes = frame.width * 4
        guard rowBytes > 0 else { return region }
        pixels.withUnsafeBufferPointer { canvas in
            region.withUnsafeMutableBufferPointer { target in
                for row in 0..<frame.height {
                    let from = ((frame.y + row) * width + frame.x) * 4
                    (target.baseAddress! + row * rowBytes).update(from: canvas.baseAddress! + from, count: rowBytes)
                }
            }
        }
        return region
    }

    /// Applies `frame`'s disposal to its rectangle.
    private mutating func dispose(_ frame: AnimationFrameLayout) {
        let rowBytes = frame.width * 4
        let canvasWidth = width
        guard rowBytes > 0 else { return }
        switch frame.disposal {
        case .none:
            return
        case .background:
            clear(frame)
        case .previous:
            guard let saved else { return }
            pixels.withUnsafeMutableBufferPointer { canvas in
                saved.withUnsafeBufferPointer { region in
                    for row in 0..<frame.height {
                        let to = ((frame.y + row) * canvasWidth + frame.x) * 4
                        (canvas.baseAddress! + to).update(from: region.baseAddress! + row * rowBytes, count: rowBytes)
                    }
                }
            }
        }
    }

    /// Draws `source` (the frame's own pixels, `frame.width * frame.height * 4` bytes) into its
    /// rectangle.
    private mutating func draw(_ source: [UInt8], _ frame: AnimationFrameLayout) {
        let rowBytes = frame.width * 4
        let canvasWidth = width
        guard rowBytes > 0 else { return }
        pixels.withUnsafeMutableBufferPointer { canvas in
            source.withUnsafeBufferPointer { own in
                for row in 0..<frame.height {
                    let to = canvas.baseAddress! + ((frame.y + row) * canvasWidth + frame.x) * 4
                    Self.blend(own.baseAddress! + row * rowBytes, into: to, count: frame.width, frame.blend)
                }
            }
        }
    }

    /// Sets `frame`'s rectangle to transparent black.
    private mutating func clear(_ frame: AnimationFrameLayout) {
        let rowBytes = frame.width * 4
        let canvasWidth = width
        guard rowBytes > 0 else { return }
        pixels.withUnsafeMutableBufferPointer { canvas in
            for row in 0..<frame.height {
                let to = ((frame.y + row) * canvasWidth + frame.x) * 4
                (canvas.baseAddress! + to).update(repeating: 0, count: rowBytes)
            }
        }
    }

    /// Blends `count` RGBA8 pixels from `from` onto the canvas at `to` as `blend` says.
    @inline(__always)
    private static func blend(_ from: UnsafePointer<UInt8>, into to: UnsafeMutablePointer<UInt8>, count: Int, _ blend: AnimationFrameLayout.Blend) {
        switch blend {
        case .source:
            to.update(from: from, count: count * 4)
        case .over:
            for x in 0..<count {
                let p = x * 4
                let alpha = Int(from[p + 3])
                if alpha == 255 {
                    to[p] = from[p]; to[p + 1] = from[p + 1]; to[p + 2] = from[p + 2]; to[p + 3] = 255
                } else if alpha != 0 {
                    over(from + p, to + p, alpha)
                }
            }
        }
    }

    /// Straight-alpha "source over" of one translucent pixel (`alpha` in 1...254):
    /// out.a = s.a + d.a (1 - s.a); out.c = (s.c s.a + d.c d.a (1 - s.a)) / out.a, in integers
    /// scaled by 255 and rounded to nearest.
    @inline(__always)
    private static func over(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ alpha: Int) {
        let sourceWeight = alpha * 255
        let destinationWeight = Int(destination[3]) * (255 - alpha)
        let total = sourceWeight + destinationWeight  // out.a * 255, > 0
        let half = total / 2
        for channel in 0..<3 {
            destination[channel] = UInt8((Int(source[channel]) * sourceWeight + Int(destination[channel]) * destinationWeight + half) / total)
        }
        destination[3] = UInt8((total + 127) / 255)
    }
}
