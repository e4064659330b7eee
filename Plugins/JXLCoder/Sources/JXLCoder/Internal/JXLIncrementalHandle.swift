import CJXL
import WebImageCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One libjxl decoder fed a growing download: each ``append(_:)`` gives it the bytes it has not
/// consumed yet, runs it as far as they go, and flushes what it can render of the first frame
/// (`JxlDecoderFlushImage`) into the output pixels.
///
/// The output comes from `calloc` once the basic info has passed the limit check: zeroed
/// pages the system maps on first touch, so parts not rendered yet are transparent.
///
/// `@unchecked Sendable`: used only by ``JXLIncrementalDecoder`` inside its `Locked` state;
/// the C objects are freed in `deinit`.
final class JXLIncrementalHandle: @unchecked Sendable {
    /// The basic info, once read.
    private(set) var info: JXLImageInfo?
    /// Whether the output holds something to show (a flush succeeded or the frame is complete).
    private(set) var hasPixels = false
    /// Whether the first frame is complete.
    private(set) var isComplete = false
    private let decoder: OpaquePointer
    private let runner: UnsafeMutableRawPointer?
    private let options: ImageDecodeOptions
    /// How many bytes of the file libjxl has consumed.
    private var consumed = 0
    private var pixels: UnsafeMutableRawBufferPointer?

    /// - Returns: `nil` if libjxl cannot make a decoder.
    init?(options: ImageDecodeOptions, threads: Int) {
        guard let decoder = JxlDecoderCreate(nil) else { return nil }
        self.decoder = decoder
        self.options = options
        runner = threads > 1 ? JxlThreadParallelRunnerCreate(nil, threads) : nil
        let events = JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_FRAME.rawValue | JXL_DEC_FULL_IMAGE.rawValue
        var ok = JxlDecoderSubscribeEvents(decoder, Int32(events)) == JXL_DEC_SUCCESS
        ok = ok && JxlDecoderSetKeepOrientation(decoder, options.applyOrientation ? 0 : 1) == JXL_DEC_SUCCESS
        ok = ok && JxlDecoderSetUnpremultiplyAlpha(decoder, 1) == JXL_DEC_SUCCESS
        ok = ok && JxlDecoderSetProgressiveDetail(decoder, kPasses) == JXL_DEC_SUCCESS
        if let runner {
            ok = ok && JxlDecoderSetParallelRunner(decoder, JxlThreadParallelRunner, runner) == JXL_DEC_SUCCESS
        }
        if !ok {
            JxlDecoderDestroy(decoder)
            if let runner { JxlThreadParallelRunnerDestroy(runner) }
            return nil
        }
    }

    deinit {
        JxlDecoderDestroy(decoder)
        if let runner { JxlThreadParallelRunnerDestroy(runner) }
        if let pixels { free(pixels.baseAddress) }
    }

    /// Gives libjxl the bytes of `raw` (the whole download so far) past those it consumed.
    /// - Throws: ``WebImageError/Code/badImageData`` for corrupt data,
    ///   ``WebImageError/Code/imageTooLarge`` over the limits.
    func append(_ raw: UnsafeRawBufferPointer) throws {
        guard !isComplete, raw.count > consumed, let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let what = "JPEG XL data of \(raw.count) bytes (so far)"
        guard JxlDecoderSetInput(decoder, base + consumed, raw.count - consumed) == JXL_DEC_SUCCESS else {
            throw WebImageError(.badImageData, "\(what): libjxl refused the input")
        }
        defer { consumed = raw.count - JxlDecoderReleaseInput(decoder) }
        var format = JXLDecoderSession.pixelFormat
        while true {
            let status = JxlDecoderProcessInput(decoder)
            switch status {
            case JXL_DEC_BASIC_INFO:
                var basic = JxlBasicInfo()
                guard JxlDecoderGetBasicInfo(decoder, &basic) == JXL_DEC_SUCCESS else {
                    throw WebImageError(.badImageData, "\(what): libjxl cannot give its basic info")
                }
                let info = JXLImageInfo(basic)
                try info.checkLimit(options, byteCount: raw.count)
                self.info = info
            case JXL_DEC_FRAME:
                continue
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                guard let info else { throw WebImageError(.badImageData, "\(what): pixels before the basic info") }
                let count = info.outputSize.width * info.outputSize.height * 4
                var size = 0
                guard JxlDecoderImageOutBufferSize(decoder, &format, &size) == JXL_DEC_SUCCESS, size == count else {
                    throw WebImageError(.badImageData, "\(what): the first frame needs \(size) bytes of output, not the \(count) its header implies")
                }
                if pixels == nil {
                    guard let memory = calloc(count, 1) else {
                        throw WebImageError(.imageTooLarge, "\(what): no memory for \(info.outputSize) pixels")
                    }
                    pixels = UnsafeMutableRawBufferPointer(start: memory, count: count)
                }
                guard JxlDecoderSetImageOutBuffer(decoder, &format, pixels?.baseAddress, count) == JXL_DEC_SUCCESS else {
                    throw WebImageError(.badImageData, "\(what): libjxl refused the output buffer")
                }
            case JXL_DEC_FULL_IMAGE:
                isComplete = true
                hasPixels = true
                return
            case JXL_DEC_NEED_MORE_INPUT:
                if pixels != nil, JxlDecoderFlushImage(decoder) == JXL_DEC_SUCCESS { hasPixels = true }
                return
            case JXL_DEC_SUCCESS:
                throw WebImageError(.badImageData, "\(what) has no frame")
            default:
                throw WebImageError(.badImageData, "\(what) is corrupt or not JPEG XL (libjxl status \(status.rawValue))")
            }
        }
    }

    /// A copy of the output pixels.
    func snapshot() throws -> Bitmap? {
        guard hasPixels, let info, let pixels else { return nil }
        let size = info.outputSize
        return try Bitmap(width: size.width, height: size.height, bytes: Array(pixels.bindMemory(to: UInt8.self)), hasAlpha: info.hasAlpha)
    }
}
