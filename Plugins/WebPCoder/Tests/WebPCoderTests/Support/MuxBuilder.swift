import CWebP
import CWebPMux
import Foundation
import WebImageCore
import WebPCoder

/// Builds animated WebP files frame by frame with libwebpmux, with the offsets, disposal and
/// blending the test chooses (`WebPAnimEncoder` chooses those itself). Each frame is encoded
/// losslessly by `WebPCoder`, so the expected pixels can be computed by hand.
enum MuxBuilder {
    struct Frame {
        var bitmap: Bitmap
        /// Even offsets only (WebP stores them halved).
        var x = 0
        var y = 0
        var milliseconds = 100
        var disposeToBackground = false
        var blend = true
    }

    static func animation(width: Int, height: Int, loopCount: Int = 0, background: UInt32 = 0xFFFF_FFFF, frames: [Frame]) throws -> Data {
        guard let mux = WebPMuxNew() else { throw WebImageError(.encodingFailed, "WebPMuxNew failed") }
        defer { WebPMuxDelete(mux) }
        let coder = WebPCoder(lossless: true)
        for (index, frame) in frames.enumerated() {
            let still = try coder.encode(WebImage(bitmap: frame.bitmap), as: .webp)
            let status = still.withUnsafeBytes { raw -> WebPMuxError in
                var info = WebPMuxFrameInfo()
                info.bitstream = WebPData(bytes: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), size: raw.count)
                info.x_offset = Int32(frame.x)
                info.y_offset = Int32(frame.y)
                info.duration = Int32(frame.milliseconds)
                info.id = WEBP_CHUNK_ANMF
                info.dispose_method = frame.disposeToBackground ? WEBP_MUX_DISPOSE_BACKGROUND : WEBP_MUX_DISPOSE_NONE
                info.blend_method = frame.blend ? WEBP_MUX_BLEND : WEBP_MUX_NO_BLEND
                return WebPMuxPushFrame(mux, &info, 1)
            }
            guard status == WEBP_MUX_OK else { throw WebImageError(.encodingFailed, "WebPMuxPushFrame(\(index)) failed: \(status.rawValue)") }
        }
        var parameters = WebPMuxAnimParams(bgcolor: background, loop_count: Int32(loopCount))
        guard WebPMuxSetAnimationParams(mux, &parameters) == WEBP_MUX_OK,
              WebPMuxSetCanvasSize(mux, Int32(width), Int32(height)) == WEBP_MUX_OK else {
            throw WebImageError(.encodingFailed, "WebPMux parameters rejected")
        }
        var output = WebPData()
        WebPDataInit(&output)
        defer { WebPDataClear(&output) }
        guard WebPMuxAssemble(mux, &output) == WEBP_MUX_OK, let bytes = output.bytes else {
            throw WebImageError(.encodingFailed, "WebPMuxAssemble failed")
        }
        return Data(bytes: bytes, count: output.size)
    }
}
