import WebImageCore

/// Where one frame of an animated WebP sits, how it combines with the canvas, and where its
/// bitstream (the ALPH + VP8, or VP8L, chunks) lies in the file.
struct WebPFrameInfo: Sendable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    /// Clear the frame's rectangle to transparent after it shows (`WEBP_MUX_DISPOSE_BACKGROUND`);
    /// `false`: leave it (`WEBP_MUX_DISPOSE_NONE`).
    var disposeToBackground: Bool
    /// Alpha-blend over the canvas (`WEBP_MUX_BLEND`); `false`: replace the rectangle, alpha
    /// included (`WEBP_MUX_NO_BLEND`).
    var blendOver: Bool
    /// Whether the frame's bitstream has alpha.
    var hasAlpha: Bool
    /// How long the frame shows, in seconds (after the short-delay rule).
    var duration: Double
    /// How long the file says the frame shows, in seconds (before the short-delay rule).
    var statedDuration: Double
    /// The canvas before this frame can be taken as transparent (or the frame replaces all of
    /// it), so rendering may start here without the frames before it.
    var isKeyframe = false
    /// The byte range of the frame's bitstream in the file.
    var range: Range<Int>

    /// Where the frame sits on the canvas and how it combines with it. Disposal clears to
    /// transparent, not to the ANIM chunk's background color, as libwebp's `WebPAnimDecoder`
    /// does (the specification makes the color a hint). A frame without alpha replaces its
    /// rectangle (blending opaque pixels over the canvas would give the same pixels, slower).
    var layout: AnimationFrameLayout {
        AnimationFrameLayout(
            x: x, y: y, width: width, height: height,
            blend: blendOver && hasAlpha ? .over : .source,
            disposal: disposeToBackground ? .background : .none,
            isKeyframe: isKeyframe
        )
    }

    /// Whether the frame covers the whole canvas of `width` x `height`.
    func covers(width canvasWidth: Int, height canvasHeight: Int) -> Bool {
        x == 0 && y == 0 && width == canvasWidth && height == canvasHeight
    }

    /// Marks the keyframes of `frames` on a `width` x `height` canvas.
    ///
    /// Frame 0 is one (it starts on the empty canvas). A frame that covers the canvas and
    /// replaces every pixel (no alpha, or no blending) is one. A frame after a frame that is
    /// disposed to the background is one when that previous frame covered the canvas or was
    /// itself a keyframe (a keyframe's canvas holds nothing but its own rectangle, so clearing
    /// that rectangle leaves the canvas empty).
    static func markKeyframes(_ frames: inout [WebPFrameInfo], width: Int, height: Int) {
        for index in frames.indices {
            if index == 0 {
                frames[index].isKeyframe = true
                continue
            }
            let frame = frames[index]
            let previous = frames[index - 1]
            if frame.covers(width: width, height: height) && (!frame.hasAlpha || !frame.blendOver) {
                frames[index].isKeyframe = true
            } else {
                frames[index].isKeyframe = previous.disposeToBackground
                    && (previous.covers(width: width, height: height) || previous.isKeyframe)
            }
        }
    }

    /// The display time of a frame that says `milliseconds`: delays of 10 ms or less show for
    /// 100 ms, as in browsers and SDWebImage's WebP coder (files that say 0 mean "as fast as
    /// sensible", and playing them at 0 would spin).
    static func duration(milliseconds: Int) -> Double {
        milliseconds <= 10 ? 0.1 : Double(milliseconds) / 1000
    }
}
