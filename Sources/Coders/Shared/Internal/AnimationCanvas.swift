import WebImageCore

/// How one frame of an animation (APNG or GIF) sits on the canvas.
struct AnimationFrameLayout: Sendable {
    enum Disposal: Sendable {
        /// Leave the frame on the canvas (APNG none, GIF 0 and 1).
        case none
        /// Clear the frame's region to transparent black (APNG background, GIF 2; browsers clear
        /// to transparent rather than to the GIF background color).
        case background
        /// Restore the region to what it was before the frame (APNG previous, GIF 3). On the first
        /// frame that is the empty canvas, as the APNG specification asks.
        case previous
    }

    var x: Int
    var y: Int
    var width: Int
    var height: Int
    var disposal: Disposal
    /// Alpha-composite over the canvas (`true`) or replace the region (`false`).
    var blendOver: Bool
    /// The frame alone defines every canvas pixel (it covers the canvas and replaces it), so
    /// rendering may start here without the frames before it.
    var isKeyframe: Bool
    /// How long the frame shows, in seconds.
    var duration: Double
}

/// The canvas of an animation being rendered frame by frame, with what disposal needs.
///
/// Sequential access costs one frame decode per frame; going back (or far forward) restarts at
/// the nearest keyframe at or before the target. Not thread-safe: the providers keep it in a
/// `Locked` (Core's mutex).
struct AnimationCanvas {
    let width: Int
    let height: Int
    private(set) var pixels: [UInt8]
    /// The frame now drawn (before its disposal), or -1.
    private var index = -1
    /// The region of frame `index` before it was drawn, when its disposal is `.previous`.
    private var saved: [UInt8]?

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Renders frame `target` and returns the canvas pixels.
    /// - Parameter decode: Decodes frame `i`'s own pixels: `layout.width * layout.height * 4`
    ///   RGBA8 bytes.
    mutating func render(_ target: Int, layouts: [AnimationFrameLayout], decode: (Int) throws -> [UInt8]) throws -> [UInt8] {
        if target == index { return pixels }
        var keyframe = target
        while keyframe > 0 && !layouts[keyframe].isKeyframe { keyframe -= 1 }
        let start: Int
        if index >= 0 && target > index && keyframe <= index + 1 {
            start = index + 1  // carry on from the frame on the canvas
        } else {
            start = keyframe
            pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            index = -1
            saved = nil
        }
        do {
            for frame in start...target {
                if index >= 0 { dispose(layouts[index]) }
                let layout = layouts[frame]
                saved = layout.disposal == .previous ? copyRegion(layout) : nil
                let source = try decode(frame)
                draw(source, layout)
                index = frame
            }
        } catch {
            index = -1  // the canvas is half-made: start over next time
            saved = nil
            throw error
        }
        return pixels
    }

    private func copyRegion(_ layout: AnimationFrameLayout) -> [UInt8] {
        var region = [UInt8](repeating: 0, count: layout.width * layout.height * 4)
        let rowBytes = layout.width * 4
        pixels.withUnsafeBufferPointer { canvas in
            region.withUnsafeMutableBufferPointer { target in
                for row in 0..<layout.height {
                    let from = ((layout.y + row) * width + layout.x) * 4
                    (target.baseAddress! + row * rowBytes).update(from: canvas.baseAddress! + from, count: rowBytes)
                }
            }
        }
        return region
    }

    private mutating func dispose(_ layout: AnimationFrameLayout) {
        let rowBytes = layout.width * 4
        let canvasWidth = width
        switch layout.disposal {
        case .none:
            return
        case .background:
            pixels.withUnsafeMutableBufferPointer { canvas in
                for row in 0..<layout.height {
                    let from = ((layout.y + row) * canvasWidth + layout.x) * 4
                    (canvas.baseAddress! + from).update(repeating: 0, count: rowBytes)
                }
            }
        case .previous:
            guard let saved else { return }
            pixels.withUnsafeMutableBufferPointer { canvas in
                saved.withUnsafeBufferPointer { region in
                    for row in 0..<layout.height {
                        let to = ((layout.y + row) * canvasWidth + layout.x) * 4
                        (canvas.baseAddress! + to).update(from: region.baseAddress! + row * rowBytes, count: rowBytes)
                    }
                }
            }
        }
    }

    /// Draws `source` (the frame's own RGBA8 pixels) into its region.
    private mutating func draw(_ source: [UInt8], _ layout: AnimationFrameLayout) {
        let rowBytes = layout.width * 4
        let canvasWidth = width
        pixels.withUnsafeMutableBufferPointer { canvas in
            source.withUnsafeBufferPointer { frame in
                for row in 0..<layout.height {
                    let to = canvas.baseAddress! + ((layout.y + row) * canvasWidth + layout.x) * 4
                    let from = frame.baseAddress! + row * rowBytes
                    if !layout.blendOver {
                        to.update(from: from, count: rowBytes)
                        continue
                    }
                    for x in 0..<layout.width {
                        let p = x * 4
                        let alpha = Int(from[p + 3])
                        if alpha == 255 {
                            to[p] = from[p]; to[p + 1] = from[p + 1]; to[p + 2] = from[p + 2]; to[p + 3] = 255
                        } else if alpha != 0 {
                            Self.over(from + p, to + p, alpha)
                        }
                    }
                }
            }
        }
    }

    /// Straight-alpha "over": result = source over destination, un-premultiplied.
    @inline(__always) private static func over(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ alpha: Int) {
        let below = Int(destination[3])
        let outAlpha = alpha * 255 + below * (255 - alpha)  // scaled by 255
        guard outAlpha > 0 else { return }
        for channel in 0..<3 {
            let value = Int(source[channel]) * alpha * 255 + Int(destination[channel]) * below * (255 - alpha)
            destination[channel] = UInt8((value + outAlpha / 2) / outAlpha)
        }
        destination[3] = UInt8((outAlpha + 127) / 255)
    }
}
