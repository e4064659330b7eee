import CWebP
import CWebPDemux
import Foundation
import WebImageCore

/// The frames of a WebP file, read by libwebpdemux (headers only: no pixel is decoded).
struct WebPContainer: Sendable {
    /// The canvas size.
    var canvasSize: PixelSize
    /// The ANIM chunk's loop count (0 = forever); `nil` for a still image.
    var loopCount: Int?
    /// The frames, in display order; at least one.
    var frames: [WebPFrameInfo]

    /// Parses `data`.
    /// - Parameters:
    ///   - partial: Accept data that is cut short and keep only the frames whose data is
    ///     complete (for incremental decoding).
    ///   - firstFrameOnly: Stop after the first frame.
    ///   - budget: Called with the frame count and canvas size the container's header states
    ///     (for data cut short, the frames parsed so far), before any frame is read; it throws to
    ///     refuse the image.
    /// - Throws: ``WebImageError/Code/badImageData`` for a container libwebp rejects, data cut
    ///   short (unless `partial`), frames outside the canvas, or no complete frame; what
    ///   `budget` throws.
    static func parse(
        _ data: Data, partial: Bool = false, firstFrameOnly: Bool = false,
        budget: (_ frameCount: Int, _ canvasSize: PixelSize) throws -> Void = { _, _ in }
    ) throws -> WebPContainer {
        let what = "WebP data of \(data.count) bytes"
        return try data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count > 0 else {
                throw WebImageError(.badImageData, "\(what) is empty")
            }
            var input = WebPData(bytes: base, size: raw.count)
            var state = WEBP_DEMUX_PARSING_HEADER
            // Always the partial parser: its state says "cut short" apart from "corrupt".
            let demuxer = WebPDemuxPartial(&input, &state)
            guard let demuxer, state != WEBP_DEMUX_PARSE_ERROR else {
                if let demuxer { WebPDemuxDelete(demuxer) }
                if state == WEBP_DEMUX_PARSING_HEADER {
                    throw WebImageError(.badImageData, "\(what) is truncated (the container's header is incomplete)")
                }
                throw WebImageError(.badImageData, "\(what) has a corrupt container (libwebpdemux cannot parse it)")
            }
            defer { WebPDemuxDelete(demuxer) }
            if !partial && state != WEBP_DEMUX_DONE {
                throw WebImageError(.badImageData, "\(what) is truncated (the container ends early)")
            }
            let width = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH))
            let height = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT))
            let flags = WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS)
            let isAnimation = flags & UInt32(ANIMATION_FLAG.rawValue) != 0
            guard width > 0, height > 0 else {
                throw WebImageError(.badImageData, "\(what) has an empty canvas (\(width)x\(height))")
            }
            let declaredFrames = isAnimation ? Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT)) : 1
            try budget(max(1, declaredFrames), PixelSize(width: width, height: height))

            var frames: [WebPFrameInfo] = []
            var iterator = WebPIterator()
            if WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 {
                defer { WebPDemuxReleaseIterator(&iterator) }
                repeat {
                    guard iterator.complete != 0 else {
                        if partial { break }
                        throw WebImageError(.badImageData, "\(what): frame \(frames.count) is truncated")
                    }
                    frames.append(try frameInfo(iterator, base: base, count: raw.count, canvasWidth: width, canvasHeight: height, what: what))
                    if firstFrameOnly { break }
                } while WebPDemuxNextFrame(&iterator) != 0
            }
            guard !frames.isEmpty else {
                let reason = partial ? "has no complete frame yet" : "has no frame"
                throw WebImageError(.badImageData, "\(what) \(reason)")
            }
            if !isAnimation {  // a still shows for no set time
                frames[0].duration = 0
                frames[0].statedDuration = 0
            }
            WebPFrameInfo.markKeyframes(&frames, width: width, height: height)
            return WebPContainer(
                canvasSize: PixelSize(width: width, height: height),
                loopCount: isAnimation ? Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT)) : nil,
                frames: frames
            )
        }
    }

    private static func frameInfo(_ iterator: WebPIterator, base: UnsafePointer<UInt8>, count: Int, canvasWidth: Int, canvasHeight: Int, what: String) throws -> WebPFrameInfo {
        let index = Int(iterator.frame_num) - 1
        let x = Int(iterator.x_offset), y = Int(iterator.y_offset)
        let width = Int(iterator.width), height = Int(iterator.height)
        guard x >= 0, y >= 0, width > 0, height > 0, x + width <= canvasWidth, y + height <= canvasHeight else {
            throw WebImageError(.badImageData, "\(what): frame \(index) (\(width)x\(height) at \(x),\(y)) is not inside the \(canvasWidth)x\(canvasHeight) canvas")
        }
        guard let bytes = iterator.fragment.bytes else {
            throw WebImageError(.badImageData, "\(what): frame \(index) has no data")
        }
        let start = bytes - base
        let end = start + iterator.fragment.size
        guard start >= 0, end <= count, start < end else {
            throw WebImageError(.badImageData, "\(what): frame \(index)'s data lies outside the file")
        }
        return WebPFrameInfo(
            x: x, y: y, width: width, height: height,
            disposeToBackground: iterator.dispose_method == WEBP_MUX_DISPOSE_BACKGROUND,
            blendOver: iterator.blend_method == WEBP_MUX_BLEND,
            hasAlpha: iterator.has_alpha != 0,
            duration: WebPFrameInfo.duration(milliseconds: Int(iterator.duration)),
            statedDuration: Double(iterator.duration) / 1000,
            range: start..<end
        )
    }
}
