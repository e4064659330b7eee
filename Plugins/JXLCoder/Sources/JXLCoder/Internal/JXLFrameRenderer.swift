import Foundation
import WebImageCore

/// Renders the frames of one JPEG XL file on demand, with one decoder kept between calls:
/// frames asked in order (as an animation plays) continue where the last one ended; any other
/// index rewinds the decoder and skips to it.
///
/// `@unchecked Sendable`: used only inside the provider's `Locked`; it owns a copy of the file
/// (libjxl reads the input in place, so it must not move), freed in `deinit`.
final class JXLFrameRenderer: @unchecked Sendable {
    private let bytes: UnsafeMutableRawBufferPointer
    private let session: JXLDecoderSession
    private let info: JXLImageInfo
    /// Whether the session is mid-way through a failed frame (so must rewind).
    private var needsRewind = false

    /// - Throws: ``WebImageError/Code/badImageData`` when libjxl cannot read the headers.
    init(data: Data, info: JXLImageInfo, applyOrientation: Bool, threads: Int, what: String) throws {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        data.withUnsafeBytes { raw in
            if let base = raw.baseAddress { bytes.baseAddress?.copyMemory(from: base, byteCount: raw.count) }
        }
        self.bytes = bytes
        self.info = info
        do {
            session = try JXLDecoderSession(pixels: true, applyOrientation: applyOrientation, threads: threads, what: what)
            try session.setInput(UnsafeRawBufferPointer(rebasing: bytes[0..<data.count]))
            _ = try session.readInfo()
        } catch {
            bytes.deallocate()
            throw error
        }
    }

    deinit { bytes.deallocate() }

    /// Frame `index` (coalesced on the canvas) at the output size.
    /// - Throws: ``WebImageError/Code/badImageData`` for truncated or corrupt frame data.
    func frame(at index: Int) throws -> Bitmap {
        if needsRewind || index != session.nextFrame {
            try session.rewind(to: index)
            needsRewind = false
        }
        do {
            return try JXLStillDecoding.render(session, info: info)
        } catch {
            needsRewind = true
            throw error
        }
    }
}
