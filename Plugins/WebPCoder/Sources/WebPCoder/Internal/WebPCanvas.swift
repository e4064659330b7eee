/// The canvas of an animated WebP being rendered frame by frame: blending (straight-alpha
/// "source over", or replace) and disposal (none, or clear to transparent).
///
/// The ANIM chunk's background color is not used: disposal clears to transparent, as
/// libwebp's `WebPAnimDecoder` does (the specification makes the color a hint).
///
/// Sequential access costs one frame decode per frame; going back (or far forward) restarts at
/// the nearest keyframe at or before the target. Not thread-safe: the provider keeps it in a
/// `Locked`.
struct WebPCanvas {
    let width: Int
    let height: Int
    private(set) var pixels: [UInt8]
    /// The frame now drawn (before its disposal), or -1.
    private var index = -1

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Renders frame `target` and returns the canvas pixels (RGBA8, straight alpha).
    /// - Parameter decode: Decodes frame `i`'s own pixels: `width * height * 4` RGBA8 bytes.
    mutating func render(_ target: Int, frames: [WebPFrameInfo], decode: (Int) throws -> [UInt8]) throws -> [UInt8] {
        if target == index { return pixels }
        var keyframe = target
        while keyframe > 0 && !frames[keyframe].isKeyframe { keyframe -= 1 }
        let start: Int
        if index >= 0 && target > index && keyframe <= index + 1 {
            start = index + 1  // carry on from the frame on the canvas
        } else {
            start = keyframe
            clearAll()
            index = -1
        }
        do {
            for frameIndex in start...target {
                if index >= 0, frames[index].disposeToBackground { clear(frames[index]) }
                let source = try decode(frameIndex)
                draw(source, frames[frameIndex])
                index = frameIndex
            }
        } catch {
            index = -1  // the canvas is half-made: start over next time
            throw error
        }
        return pixels
    }

    private mutating func clearAll() {
        pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    /// Disposal to the background: the frame's rectangle becomes transparent black.
    private mutating func clear(_ frame: WebPFrameInfo) {
        let rowBytes = frame.width * 4
        let canvasRow = width * 4
        pixels.withUnsafeMutableBufferPointer { canvas in
            for row in 0..<frame.height {
                let start = (frame.y + row) * canvasRow + frame.x * 4
                UnsafeMutableBufferPointer(rebasing: canvas[start..<start + rowBytes]).update(repeating: 0)
            }
        }
    }

    /// Draws `source` (`frame.width * frame.height` RGBA8 pixels) at the frame's place.
    private mutating func draw(_ source: [UInt8], _ frame: WebPFrameInfo) {
        let rowBytes = frame.width * 4
        let canvasRow = width * 4
        let blend = frame.blendOver && frame.hasAlpha
        pixels.withUnsafeMutableBufferPointer { canvas in
            source.withUnsafeBufferPointer { source in
                for row in 0..<frame.height {
                    let target = (frame.y + row) * canvasRow + frame.x * 4
                    let from = row * rowBytes
                    if !blend {
                        _ = UnsafeMutableBufferPointer(rebasing: canvas[target..<target + rowBytes])
                            .update(fromContentsOf: source[from..<from + rowBytes])
                        continue
                    }
                    var offset = 0
                    while offset < rowBytes {
                        Self.blendPixel(source, at: from + offset, onto: canvas, at: target + offset)
                        offset += 4
                    }
                }
            }
        }
    }

    /// Straight-alpha "source over": out.a = s.a + d.a (1 - s.a); out.c = (s.c s.a + d.c d.a
    /// (1 - s.a)) / out.a, in integers scaled by 255 and rounded to nearest. A fully transparent
    /// result is (0, 0, 0, 0).
    @inline(__always)
    static func blendPixel(_ source: UnsafeBufferPointer<UInt8>, at s: Int, onto canvas: UnsafeMutableBufferPointer<UInt8>, at d: Int) {
        let sourceAlpha = Int(source[s + 3])
        if sourceAlpha == 255 {
            canvas[d] = source[s]
            canvas[d + 1] = source[s + 1]
            canvas[d + 2] = source[s + 2]
            canvas[d + 3] = 255
            return
        }
        if sourceAlpha == 0 { return }
        let sourceWeight = sourceAlpha * 255
        let canvasWeight = Int(canvas[d + 3]) * (255 - sourceAlpha)
        let total = sourceWeight + canvasWeight  // = out.a * 255, > 0
        let half = total / 2
        canvas[d] = UInt8((Int(source[s]) * sourceWeight + Int(canvas[d]) * canvasWeight + half) / total)
        canvas[d + 1] = UInt8((Int(source[s + 1]) * sourceWeight + Int(canvas[d + 1]) * canvasWeight + half) / total)
        canvas[d + 2] = UInt8((Int(source[s + 2]) * sourceWeight + Int(canvas[d + 2]) * canvasWeight + half) / total)
        canvas[d + 3] = UInt8((total + 127) / 255)
    }
}
