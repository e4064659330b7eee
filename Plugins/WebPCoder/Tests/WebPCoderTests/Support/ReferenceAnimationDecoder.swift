import CWebP
import CWebPDemux
import Foundation
import WebImageCore

/// libwebp's own animation decoder (`WebPAnimDecoder`: blending and disposal written by the
/// libwebp authors), used as the independent reference for the coder's compositor.
enum ReferenceAnimationDecoder {
    struct Result {
        var canvas: PixelSize
        var loopCount: Int
        var frames: [Bitmap]
        /// Each frame's end time in milliseconds, as `WebPAnimDecoderGetNext` reports it.
        var timestamps: [Int]
    }

    static func decode(_ data: Data) throws -> Result {
        try data.withUnsafeBytes { raw in
            var input = WebPData(bytes: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), size: raw.count)
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw WebImageError(.badImageData, "options") }
            options.color_mode = MODE_RGBA
            options.use_threads = 0
            guard let decoder = WebPAnimDecoderNew(&input, &options) else {
                throw WebImageError(.badImageData, "WebPAnimDecoderNew refused the data")
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else { throw WebImageError(.badImageData, "info") }
            let width = Int(info.canvas_width), height = Int(info.canvas_height)
            var result = Result(canvas: PixelSize(width: width, height: height), loopCount: Int(info.loop_count), frames: [], timestamps: [])
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var pixels: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, let pixels else {
                    throw WebImageError(.badImageData, "frame \(result.frames.count)")
                }
                let bytes = Array(UnsafeBufferPointer(start: pixels, count: width * height * 4))
                result.frames.append(try Bitmap(width: width, height: height, bytes: bytes))
                result.timestamps.append(Int(timestamp))
            }
            return result
        }
    }
}
