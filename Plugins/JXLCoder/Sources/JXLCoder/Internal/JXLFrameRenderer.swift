import Foundation
import WebImageCore
import WebImageColor

/// Renders the frames of one JPEG XL file on demand, with one decoder kept between calls:
/// frames asked in order (as an animation plays) continue where the last one ended; a later
/// index skips ahead (libjxl reads but does not output the frames between), an earlier one starts
/// a new decoder and skips.
///
/// `@unchecked Sendable`: used only inside the provider's `Locked`; it owns a copy of the file
/// (libjxl reads the input in place, so it must not move), freed in `deinit`.
final class JXLFrameRenderer: @unchecked Sendable {
    private let bytes: UnsafeMutableRawBufferPointer
    private var session: JXLDecoderSession
    private let info: JXLImageInfo
    private let applyOrientation: Bool
    private let threads: Int
    private let what: String
    private let count: Int
    /// Whether the session stopped inside a failed frame (the next call starts a new one).
    private var needsRewind = false
    private let colorProfileHandling: ColorProfileHandling

    /// The frames' colour (``JXLDecoderSession/color``), once a frame has been rendered.
    var color: ColorPlan { session.color }

    /// - Throws: ``WebImageError/Code/badImageData`` when libjxl cannot read the headers.
    init(data: Data, info: JXLImageInfo, applyOrientation: Bool, threads: Int, what: String, colorProfileHandling: ColorProfileHandling) throws {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        data.withUnsafeBytes { raw in
            if let base = raw.baseAddress { bytes.baseAddress?.copyMemory(from: base, byteCount: raw.count) }
        }
        self.bytes = bytes
        self.info = info
        self.applyOrientation = applyOrientation
        self.threads = threads
        self.what = what
        self.count = data.count
        self.colorProfileHandling = colorProfileHandling
        do {
            session = try Self.makeSession(bytes: UnsafeRawBufferPointer(rebasing: bytes[0..<data.count]), applyOrientation: applyOrientation, threads: threads, what: what, colorProfileHandling: colorProfileHandling)
        } catch {
            bytes.deallocate()
            throw error
        }
    }

    deinit { bytes.deallocate() }

    private static func makeSession(bytes: UnsafeRawBufferPointer, applyOrientation: Bool, threads: Int, what: String, colorProfileHandling: ColorProfileHandling) throws -> JXLDecoderSession {
        let session = try JXLDecoderSession(pixels: true, applyOrientation: applyOrientation, threads: threads, what: what, colorProfileHandling: colorProfileHandling)
        try session.setInput(bytes)
        _ = try session.readInfo()
        return session
    }

    /// Frame `index` (coalesced on the canvas) at the output size.
    /// - Throws: ``WebImageError/Code/badImageData`` for truncated or corrupt frame data.
    func frame(at index: Int) throws -> Bitmap {
        if needsRewind || index < session.nextFrame {
            // A new decoder: after JxlDecoderRewind, libjxl 0.7 delivered no frame (seen in testing).
            session = try Self.makeSession(bytes: UnsafeRawBufferPointer(rebasing: bytes[0..<count]), applyOrientation: applyOrientation, threads: threads, what: what, colorProfileHandling: colorProfileHandling)
            needsRewind = false
        }
        session.skip(index - session.nextFrame)
        do {
            return try JXLStillDecoding.render(session, info: info)
        } catch {
            needsRewind = true
            throw error
        }
    }
}
