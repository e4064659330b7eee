import CJXL
import Foundation
import WebImageCore
import WebImageColor

/// One libjxl decoder (`JxlDecoder`) over data given whole, with its optional thread runner:
/// reads the basic info, renders frames one after another (skipping ahead when asked) as RGBA8,
/// and lists the frame headers without decoding pixels.
///
/// Output: RGBA8 (`JXL_TYPE_UINT8`, 4 channels; opaque images get alpha 255), straight alpha
/// (`JxlDecoderSetUnpremultiplyAlpha`), frames coalesced (blended onto the canvas by libjxl),
/// turned upright when `applyOrientation` (libjxl's default).
///
/// `@unchecked Sendable`: a session is used by one thread at a time (a local variable, or the
/// animation provider's `Locked` state); the C objects are freed in `deinit`.
final class JXLDecoderSession: @unchecked Sendable {
    /// RGBA8, native order, rows packed.
    static let pixelFormat = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)

    /// What is decoded, for error messages (`"JPEG XL data of 1200 bytes"`).
    let what: String
    /// The basic info, once read.
    private(set) var info: JXLImageInfo?
    /// The index of the frame the next ``render()`` delivers.
    private(set) var nextFrame = 0
    /// The ICC profile of the pixels libjxl outputs (`JXL_COLOR_PROFILE_TARGET_DATA`: the
    /// file's own profile for a lossless or ICC-tagged file, what libjxl renders XYB into
    /// otherwise), once the colour encoding has been read by ``render()``.
    private(set) var outputProfile: Data?
    /// What the frames' colour gets under ``colorProfileHandling``: converted from
    /// ``outputProfile`` to sRGB, or the profile kept; made when the colour encoding is read.
    private(set) var color = ColorPlan.none
    /// Convert the frames to sRGB or keep their profile.
    private let colorProfileHandling: ColorProfileHandling
    private let decoder: OpaquePointer
    private let runner: UnsafeMutableRawPointer?

    /// Creates a decoder subscribed to the basic info and frame headers, and to full frames
    /// when `pixels` is `true`.
    /// - Parameters:
    ///   - threads: Worker threads of libjxl's thread runner; 1 or less: no runner, the
    ///     caller's thread decodes.
    /// - Throws: ``WebImageError/Code/badImageData`` when libjxl cannot make a decoder.
    init(pixels: Bool, applyOrientation: Bool, threads: Int, what: String, colorProfileHandling: ColorProfileHandling = .convertToSRGB) throws {
        self.what = what
        self.colorProfileHandling = colorProfileHandling
        guard let decoder = JxlDecoderCreate(nil) else {
            throw WebImageError(.badImageData, "\(what): libjxl cannot make a decoder (out of memory?)")
        }
        self.decoder = decoder
        runner = threads > 1 ? JxlThreadParallelRunnerCreate(nil, threads) : nil
        var events = JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_FRAME.rawValue
        if pixels { events |= JXL_DEC_FULL_IMAGE.rawValue | JXL_DEC_COLOR_ENCODING.rawValue }
        var ok = JxlDecoderSubscribeEvents(decoder, Int32(events)) == JXL_DEC_SUCCESS
        ok = ok && JxlDecoderSetKeepOrientation(decoder, applyOrientation ? 0 : 1) == JXL_DEC_SUCCESS
        ok = ok && JxlDecoderSetUnpremultiplyAlpha(decoder, 1) == JXL_DEC_SUCCESS
        if let runner {
            ok = ok && JxlDecoderSetParallelRunner(decoder, JxlThreadParallelRunner, runner) == JXL_DEC_SUCCESS
        }
        guard ok else {
            throw WebImageError(.badImageData, "\(what): libjxl refused the decoder settings (a libjxl older than the 0.7 headers?)")
        }
    }

    deinit {
        JxlDecoderDestroy(decoder)
        if let runner { JxlThreadParallelRunnerDestroy(runner) }
    }

    /// Gives libjxl the whole file. `bytes` must stay valid while the session uses it.
    func setInput(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw WebImageError(.badImageData, "\(what) is empty")
        }
        guard JxlDecoderSetInput(decoder, base.assumingMemoryBound(to: UInt8.self), bytes.count) == JXL_DEC_SUCCESS else {
            throw WebImageError(.badImageData, "\(what): libjxl refused the input")
        }
        JxlDecoderCloseInput(decoder)
    }

    /// Runs libjxl until the basic info (once per session; later calls return it).
    /// - Throws: ``WebImageError/Code/badImageData`` for data that is not JPEG XL, truncated
    ///   inside the headers or corrupt.
    func readInfo() throws -> JXLImageInfo {
        if let info { return info }
        let status = JxlDecoderProcessInput(decoder)
        guard status == JXL_DEC_BASIC_INFO else { throw failure(status, during: "its headers") }
        return try takeBasicInfo()
    }

    /// Renders the next frame (``nextFrame``) as RGBA8 bytes of the output size. The memory is
    /// allocated only when libjxl asks for it (`JXL_DEC_NEED_IMAGE_OUT_BUFFER`, once the frame's
    /// header and table of contents are read), so a file that is all header costs none.
    /// - Throws: ``WebImageError/Code/badImageData`` for a missing frame, truncated or corrupt data.
    func render() throws -> [UInt8] {
        var format = Self.pixelFormat
        while true {
            let status = JxlDecoderProcessInput(decoder)
            switch status {
            case JXL_DEC_BASIC_INFO where info == nil:
                _ = try takeBasicInfo()
            case JXL_DEC_BASIC_INFO, JXL_DEC_FRAME:
                continue
            case JXL_DEC_COLOR_ENCODING:
                outputProfile = readOutputProfile()
                color = ColorConversion.plan(for: outputProfile, handling: colorProfileHandling)
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                guard let size = info?.outputSize else {
                    throw WebImageError(.badImageData, "\(what): pixels before the basic info")
                }
                let count = size.width * size.height * 4
                var needed = 0
                guard JxlDecoderImageOutBufferSize(decoder, &format, &needed) == JXL_DEC_SUCCESS, needed == count else {
                    throw WebImageError(.badImageData, "\(what): frame \(nextFrame) needs \(needed) bytes of output, not the \(count) its header implies")
                }
                return try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                    guard JxlDecoderSetImageOutBuffer(decoder, &format, buffer.baseAddress, count) == JXL_DEC_SUCCESS else {
                        throw WebImageError(.badImageData, "\(what): libjxl refused the output buffer for frame \(nextFrame)")
                    }
                    try finishFrame()
                    initialized = count
                }
            case JXL_DEC_SUCCESS:
                throw WebImageError(.badImageData, "\(what) has no frame \(nextFrame)")
            default:
                throw failure(status, during: "frame \(nextFrame)")
            }
        }
    }

    /// The ICC profile of the output pixels, or `nil` when libjxl gives none.
    private func readOutputProfile() -> Data? {
        var size = 0
        guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS,
              size > 0, size <= ColorConversion.maximumProfileBytes else { return nil }
        var profile = [UInt8](repeating: 0, count: size)
        guard JxlDecoderGetColorAsICCProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &profile, size) == JXL_DEC_SUCCESS else { return nil }
        return Data(profile)
    }

    /// Runs libjxl until the frame whose output buffer is set is complete.
    private func finishFrame() throws {
        let status = JxlDecoderProcessInput(decoder)
        guard status == JXL_DEC_FULL_IMAGE else { throw failure(status, during: "frame \(nextFrame)") }
        nextFrame += 1
    }

    /// Makes the next ``render()`` deliver the frame `count` frames after ``nextFrame``:
    /// libjxl still reads the frames between (and decodes those later frames depend on) but
    /// outputs none.
    func skip(_ count: Int) {
        guard count > 0 else { return }
        JxlDecoderSkipFrames(decoder, count)
        nextFrame += count
    }

    /// The durations (in ticks) of the displayed frames, read from the frame headers only
    /// (a session made with `pixels: false`: libjxl skips the frames' pixel data).
    /// - Parameter limit: Stop and throw ``WebImageError/Code/imageTooLarge`` past this many frames.
    /// - Throws: ``WebImageError/Code/badImageData`` for truncated or corrupt data.
    func frameDurations(limit: Int, byteCount: Int, options: ImageDecodeOptions) throws -> [UInt32] {
        var durations: [UInt32] = []
        while true {
            let status = JxlDecoderProcessInput(decoder)
            switch status {
            case JXL_DEC_BASIC_INFO:
                if info == nil { _ = try takeBasicInfo() }
            case JXL_DEC_FRAME:
                var header = JxlFrameHeader()
                guard JxlDecoderGetFrameHeader(decoder, &header) == JXL_DEC_SUCCESS else {
                    throw WebImageError(.badImageData, "\(what): libjxl cannot read the header of frame \(durations.count)")
                }
                durations.append(header.duration)
                if durations.count > limit {
                    try JXLLimits.checkFrameCount(durations.count, orMore: true, options: options, byteCount: byteCount)
                }
            case JXL_DEC_SUCCESS:
                guard !durations.isEmpty else { throw WebImageError(.badImageData, "\(what) has no frame") }
                return durations
            default:
                throw failure(status, during: "the header of frame \(durations.count)")
            }
        }
    }

    private func takeBasicInfo() throws -> JXLImageInfo {
        var basic = JxlBasicInfo()
        guard JxlDecoderGetBasicInfo(decoder, &basic) == JXL_DEC_SUCCESS else {
            throw WebImageError(.badImageData, "\(what): libjxl cannot give its basic info")
        }
        let info = JXLImageInfo(basic)
        self.info = info
        return info
    }

    /// The error for an unexpected status.
    private func failure(_ status: JxlDecoderStatus, during part: String) -> WebImageError {
        switch status {
        case JXL_DEC_NEED_MORE_INPUT:
            WebImageError(.badImageData, "\(what) is truncated (it ends inside \(part))")
        case JXL_DEC_ERROR:
            WebImageError(.badImageData, "\(what) is truncated, corrupt or not JPEG XL (libjxl failed in \(part))")
        default:
            WebImageError(.badImageData, "\(what): libjxl gave the unexpected status \(status.rawValue) in \(part)")
        }
    }
}
