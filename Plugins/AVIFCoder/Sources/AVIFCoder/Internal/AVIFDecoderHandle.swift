import CAVIF
import Foundation
import WebImageCore
import WebImageColor

/// One parsed AVIF: a libavif decoder over a private copy of the file (libavif reads the file
/// in place for as long as the decoder lives), with the limits of ``ImageDecodeOptions``
/// checked from the container before any frame is decoded.
///
/// `@unchecked Sendable`: the C decoder is used by one thread at a time (a still decode owns its
/// handle; ``AVIFSequenceProvider`` keeps its handle in a `Locked`); it is freed in `deinit`.
final class AVIFDecoderHandle: @unchecked Sendable {
    /// The size of the coded frames (before `irot`).
    let codedSize: PixelSize
    /// The size the image shows at (after `irot`): the size of every decoded frame.
    let displayedSize: PixelSize
    /// The `irot`/`imir` properties the coder applies to the pixels.
    let orientation: AVIFOrientation
    /// The frames used: the file's, or 1 with `firstFrameOnly`.
    let frameCount: Int
    /// Whether the file has an alpha plane.
    let hasAlpha: Bool
    /// The bit depth of the coded frames (8, 10 or 12).
    let depth: Int
    /// Each frame's duration as the file states it, in seconds (0 for a single image).
    let statedDurations: [Double]
    /// For error messages: `"AVIF data of 1234 bytes"`.
    let what: String
    /// The frames' colour, from the `colr` ICC profile or the one the `nclx` code points name:
    /// converted to sRGB, or the profile kept; neither for sRGB (or unspecified) and what is not
    /// converted (PQ, HLG).
    let color: ColorPlan

    /// `AVIF_DEFAULT_IMAGE_COUNT_LIMIT` (12 hours at 60 fps; a macro Swift does not import).
    private static let libavifDefaultImageCountLimit: UInt32 = 12 * 3600 * 60

    private let decoder: UnsafeMutablePointer<avifDecoder>
    private let bytes: UnsafeMutableRawBufferPointer

    /// Parses `data` under the limits of `options`.
    /// - Parameter threads: The most threads libavif's AV1 decoder may use.
    /// - Throws: ``WebImageError/Code/badImageData`` for data that is not AVIF, truncated or
    ///   corrupt headers; ``WebImageError/Code/imageTooLarge`` for a frame over
    ///   `maxPixelCount`, more frames than `maxFrameCount` (unless `firstFrameOnly`), or frames
    ///   whose source pixels together are over `maxTotalPixelCount` (every frame is decoded at
    ///   full size, even for a thumbnail, as Core's rule says).
    init(data: Data, options: ImageDecodeOptions, threads: Int) throws {
        let what = "AVIF data of \(data.count) bytes"
        guard !data.isEmpty else { throw WebImageError(.badImageData, "\(what) is empty") }
        guard let decoder = avifDecoderCreate() else {
            throw WebImageError(.badImageData, "libavif cannot make a decoder for \(what) (out of memory)")
        }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
        _ = data.copyBytes(to: bytes)
        var parsed = false
        defer {
            if !parsed {
                avifDecoderDestroy(decoder)
                bytes.deallocate()
            }
        }
        // The limits libavif checks itself, while it parses, before it or the AV1 decoder
        // (dav1d's frame size limit) allocates anything: the per-frame pixel count and the
        // number of samples of a sequence.
        decoder.pointee.imageSizeLimit = UInt32(clamping: max(1, options.maxPixelCount))
        decoder.pointee.imageCountLimit = options.firstFrameOnly
            ? Self.libavifDefaultImageCountLimit
            : UInt32(clamping: max(1, options.maxFrameCount))
        decoder.pointee.maxThreads = Int32(clamping: max(1, threads))
        // Files from older encoders (no `pixi`, no alpha `ispe`) decode, as in browsers.
        decoder.pointee.strictFlags = AVIF_STRICT_DISABLED.rawValue
        decoder.pointee.ignoreExif = AVIF_TRUE
        decoder.pointee.ignoreXMP = AVIF_TRUE

        var result = avifDecoderSetIOMemory(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        if result == AVIF_RESULT_OK { result = avifDecoderParse(decoder) }
        guard result == AVIF_RESULT_OK, let image = decoder.pointee.image else {
            throw Self.parseError(result, decoder.pointee.diag, what: what, options: options)
        }
        let coded = PixelSize(width: Int(image.pointee.width), height: Int(image.pointee.height))
        guard !coded.isEmpty else {
            throw WebImageError(.badImageData, "\(what) claims an empty image (\(coded))")
        }
        guard let pixels = coded.pixelCount, pixels <= options.maxPixelCount else {
            throw WebImageError(.imageTooLarge, "AVIF image of \(coded) (\(data.count) bytes of data) is over the limit of \(options.maxPixelCount) pixels")
        }
        let fileFrames = Int(decoder.pointee.imageCount)
        guard fileFrames >= 1 else { throw WebImageError(.badImageData, "\(what) has no image") }
        if !options.firstFrameOnly, fileFrames > options.maxFrameCount {
            throw WebImageError(.imageTooLarge, "AVIF animation of \(fileFrames) frames (\(data.count) bytes of data) is over the limit of \(options.maxFrameCount) frames")
        }
        // libavif 0.11 would make planes of the claimed size for a smaller AV1 frame.
        if fileFrames == 1, let sequence = AV1SequenceHeader.ofPrimaryItem(in: data),
           coded.width > sequence.maxWidth || coded.height > sequence.maxHeight {
            throw WebImageError(
                .badImageData,
                "\(what) is corrupt: its container claims \(coded) but its AV1 bitstream holds at most \(sequence.maxWidth)x\(sequence.maxHeight)"
            )
        }
        let frameCount = options.firstFrameOnly ? 1 : fileFrames
        let orientation = AVIFOrientation(image.pointee)
        let displayed = orientation.displayedSize(of: coded)
        let (total, overflow) = (displayed.pixelCount ?? Int.max).multipliedReportingOverflow(by: frameCount)
        guard !overflow, total <= options.maxTotalPixelCount else {
            throw WebImageError(
                .imageTooLarge,
                "AVIF image of \(frameCount) frame\(frameCount == 1 ? "" : "s") of \(displayed) (\(overflow ? "over \(Int.max)" : "\(total)") pixels in all, \(data.count) bytes of data) is over the limit of \(options.maxTotalPixelCount) pixels per image"
            )
        }
        var durations: [Double] = []
        durations.reserveCapacity(frameCount)
        for index in 0..<frameCount {
            var timing = avifImageTiming()
            let stated = avifDecoderNthImageTiming(decoder, UInt32(index), &timing) == AVIF_RESULT_OK ? timing.duration : 0
            durations.append(stated.isFinite && stated > 0 ? stated : 0)
        }
        self.decoder = decoder
        self.bytes = bytes
        self.what = what
        self.codedSize = coded
        self.displayedSize = displayed
        self.orientation = orientation
        self.frameCount = frameCount
        self.hasAlpha = decoder.pointee.alphaPresent != 0
        self.depth = Int(image.pointee.depth)
        self.statedDurations = durations
        self.color = ColorConversion.plan(for: Self.colorProfile(of: image.pointee), options: options)
        parsed = true
    }

    deinit {
        avifDecoderDestroy(decoder)
        bytes.deallocate()
    }

    /// Decodes frame `index` to RGBA8 with straight alpha, at ``displayedSize`` (`irot` and
    /// `imir` applied).
    /// - Throws: ``WebImageError/Code/badImageData`` for truncated or corrupt frame data, or a
    ///   frame whose AV1 size differs from the container's.
    func decodeFrame(_ index: Int) throws -> Bitmap {
        let what = frameCount > 1 ? "frame \(index) of \(frameCount) of \(self.what)" : self.what
        let result = avifDecoderNthImage(decoder, UInt32(index))
        guard result == AVIF_RESULT_OK, let image = decoder.pointee.image else {
            throw AVIFStatus.decodingError(result, decoder.pointee.diag, what)
        }
        let size = PixelSize(width: Int(image.pointee.width), height: Int(image.pointee.height))
        guard size == codedSize else {
            throw WebImageError(.badImageData, "\(what) is corrupt: its AV1 frame is \(size), not the \(codedSize) the container states")
        }
        let count = size.width * size.height * 4
        var failure: avifResult = AVIF_RESULT_OK
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var rgb = avifRGBImage()
            avifRGBImageSetDefaults(&rgb, image)
            rgb.depth = 8
            rgb.format = AVIF_RGB_FORMAT_RGBA
            rgb.pixels = buffer.baseAddress
            rgb.rowBytes = UInt32(size.width * 4)
            failure = avifImageYUVToRGB(image, &rgb)
            initialized = failure == AVIF_RESULT_OK ? count : 0
        }
        guard failure == AVIF_RESULT_OK else {
            throw WebImageError(.badImageData, "\(what) cannot be converted to RGBA (libavif: \(AVIFStatus.describe(failure)))")
        }
        let oriented = orientation.apply(to: pixels, size: size)
        var bitmap = try Bitmap(width: displayedSize.width, height: displayedSize.height, bytes: oriented, hasAlpha: hasAlpha)
        color.apply(to: &bitmap)
        return bitmap
    }

    /// The image's colour profile (see ``color``): an ICC profile wins over the code points, as
    /// in browsers; an sRGB or unusable profile gives no converter, so it costs nothing per frame.
    private static func colorProfile(of image: avifImage) -> Data? {
        if image.icc.size > 0, let bytes = image.icc.data {
            return Data(bytes: bytes, count: image.icc.size)
        }
        return ColorConversion.profile(primaries: Int(image.colorPrimaries), transfer: Int(image.transferCharacteristics))
    }

    /// The error for a failed parse: libavif refuses files over the limits set on the decoder
    /// with a parse error whose detail says so (libavif 0.11: "... dimensions are too large
    /// ...", "Exceeded avifDecoder's imageCountLimit"), reported as
    /// ``WebImageError/Code/imageTooLarge``; the rest is bad data.
    private static func parseError(_ result: avifResult, _ diag: avifDiagnostics, what: String, options: ImageDecodeOptions) -> WebImageError {
        let detail = AVIFStatus.detail(diag)
        if detail.contains("too large") {
            return WebImageError(.imageTooLarge, "AVIF image in \(what) is over the limit of \(options.maxPixelCount) pixels (libavif: \(detail))")
        }
        if detail.contains("imageCountLimit") {
            return WebImageError(.imageTooLarge, "AVIF animation in \(what) has more frames than the limit of \(options.maxFrameCount) (libavif: \(detail))")
        }
        if result == AVIF_RESULT_INVALID_FTYP {
            return WebImageError(.badImageData, "\(what) is not AVIF (libavif: \(AVIFStatus.describe(result, diag)))")
        }
        return AVIFStatus.decodingError(result, diag, "the container of \(what)")
    }
}
