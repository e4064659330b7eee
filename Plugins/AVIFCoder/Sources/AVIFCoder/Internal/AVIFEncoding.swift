import CAVIF
import Foundation
import WebImageCore

/// Encoding with libavif (its AV1 encoder: libaom on Debian): stills through
/// `avifEncoderWrite`, image sequences through `avifEncoderAddImage` and `avifEncoderFinish`.
enum AVIFEncoding {
    /// How to encode.
    struct Settings: Sendable {
        /// 0...1. 1 is lossless (4:4:4, identity matrix, quantizer 0: every pixel comes back
        /// as given); below 1, 4:2:0 with the quantizer `(1 - quality) * 63` for color and alpha.
        var quality: Double
        /// libavif's speed, 0 (slowest, smallest files) ... 10 (fastest).
        var speed: Int
        /// The most threads the AV1 encoder may use.
        var threads: Int
        /// An ICC profile to write in a `colr` box (a kept ``/WebImageCore/WebImage/colorProfile``).
        var iccProfile: Data?

        var isLossless: Bool { quality >= 1 }

        /// The AV1 quantizer, 0 (best) ... 63 (worst).
        var quantizer: Int32 {
            Int32((Double(AVIF_QUANTIZER_WORST_QUALITY) * (1 - min(1, max(0, quality)))).rounded())
        }
    }

    /// Encodes one bitmap as a still AVIF.
    /// - Throws: ``WebImageError/Code/encodingFailed``.
    static func encodeStill(_ bitmap: Bitmap, settings: Settings) throws -> Data {
        let encoder = try makeEncoder(settings)
        defer { avifEncoderDestroy(encoder) }
        let image = try makeImage(bitmap, settings: settings, keepAlpha: bitmap.hasAlpha)
        defer { avifImageDestroy(image) }
        var output = avifRWData(data: nil, size: 0)
        defer { avifRWDataFree(&output) }
        let result = avifEncoderWrite(encoder, image, &output)
        guard result == AVIF_RESULT_OK, let bytes = output.data else {
            throw WebImageError(.encodingFailed, "libavif failed to encode a \(bitmap.size) image: \(AVIFStatus.describe(result, encoder.pointee.diag))")
        }
        return Data(bytes: bytes, count: output.size)
    }

    /// Encodes frames as an AVIF image sequence, durations in milliseconds (at least 1 ms).
    /// libavif 0.11 writes no repetition count: players loop such a sequence forever.
    /// - Throws: ``WebImageError/Code/encodingFailed``.
    static func encodeSequence(_ frames: [ImageFrame], settings: Settings) throws -> Data {
        guard let first = frames.first else {
            throw WebImageError(.encodingFailed, "an AVIF image sequence needs at least one frame")
        }
        let encoder = try makeEncoder(settings)
        defer { avifEncoderDestroy(encoder) }
        encoder.pointee.timescale = 1000
        // Alpha is kept for every frame or for none: libavif takes the first frame's alpha as
        // the whole sequence's.
        let keepAlpha = frames.contains { $0.bitmap.hasAlpha }
        for (index, frame) in frames.enumerated() {
            guard frame.bitmap.size == first.bitmap.size else {
                throw WebImageError(.encodingFailed, "frame \(index) of \(frames.count) is \(frame.bitmap.size), not \(first.bitmap.size) as frame 0")
            }
            let image = try makeImage(frame.bitmap, settings: settings, keepAlpha: keepAlpha)
            defer { avifImageDestroy(image) }
            // Lossless sequences are all keyframes: with libavif 0.11 and libaom 3.6, lossless
            // inter frames do not come back exact (measured: off by up to 60 levels).
            let flags = index == 0 || settings.isLossless ? AVIF_ADD_IMAGE_FLAG_FORCE_KEYFRAME.rawValue : AVIF_ADD_IMAGE_FLAG_NONE.rawValue
            let result = avifEncoderAddImage(encoder, image, UInt64(milliseconds(frame.duration)), flags)
            guard result == AVIF_RESULT_OK else {
                throw WebImageError(.encodingFailed, "libavif failed to add frame \(index) of \(frames.count) to a sequence: \(AVIFStatus.describe(result, encoder.pointee.diag))")
            }
        }
        var output = avifRWData(data: nil, size: 0)
        defer { avifRWDataFree(&output) }
        let result = avifEncoderFinish(encoder, &output)
        guard result == AVIF_RESULT_OK, let bytes = output.data else {
            throw WebImageError(.encodingFailed, "libavif failed to finish a sequence of \(frames.count) frames: \(AVIFStatus.describe(result, encoder.pointee.diag))")
        }
        return Data(bytes: bytes, count: output.size)
    }

    /// A frame duration in whole milliseconds, at least 1.
    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 1 }
        return min(Int(UInt32.max), max(1, Int((seconds * 1000).rounded())))
    }

    private static func makeEncoder(_ settings: Settings) throws -> UnsafeMutablePointer<avifEncoder> {
        guard avifCodecName(AVIF_CODEC_CHOICE_AUTO, AVIF_CODEC_FLAG_CAN_ENCODE.rawValue) != nil else {
            throw WebImageError(.encodingFailed, "this libavif has no AV1 encoder (build it with libaom, rav1e or SVT-AV1)")
        }
        guard let encoder = avifEncoderCreate() else {
            throw WebImageError(.encodingFailed, "libavif cannot make an encoder (out of memory)")
        }
        let quantizer = settings.isLossless ? Int32(AVIF_QUANTIZER_LOSSLESS) : settings.quantizer
        encoder.pointee.minQuantizer = quantizer
        encoder.pointee.maxQuantizer = quantizer
        encoder.pointee.minQuantizerAlpha = quantizer
        encoder.pointee.maxQuantizerAlpha = quantizer
        encoder.pointee.speed = Int32(min(Int(AVIF_SPEED_FASTEST), max(Int(AVIF_SPEED_SLOWEST), settings.speed)))
        encoder.pointee.maxThreads = Int32(clamping: max(1, settings.threads))
        return encoder
    }

    /// `bitmap` as a YUV avifImage (8-bit, full range, sRGB): 4:4:4 with the identity matrix
    /// when lossless, else 4:2:0 with BT.601 coefficients (libavif's default).
    private static func makeImage(_ bitmap: Bitmap, settings: Settings, keepAlpha: Bool) throws -> UnsafeMutablePointer<avifImage> {
        guard bitmap.width >= 1, bitmap.height >= 1, let width = UInt32(exactly: bitmap.width), let height = UInt32(exactly: bitmap.height) else {
            throw WebImageError(.encodingFailed, "AVIF cannot hold a \(bitmap.size) image")
        }
        let format = settings.isLossless ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420
        guard let image = avifImageCreate(width, height, 8, format) else {
            throw WebImageError(.encodingFailed, "libavif cannot make a \(bitmap.size) image (out of memory)")
        }
        image.pointee.yuvRange = AVIF_RANGE_FULL
        if let profile = settings.iccProfile, !profile.isEmpty {
            profile.withUnsafeBytes { icc in avifImageSetProfileICC(image, icc.bindMemory(to: UInt8.self).baseAddress, icc.count) }
        }
        if settings.isLossless {
            image.pointee.matrixCoefficients = UInt16(AVIF_MATRIX_COEFFICIENTS_IDENTITY)
        }
        let result = bitmap.bytes.withUnsafeBufferPointer { pixels in
            var rgb = avifRGBImage()
            avifRGBImageSetDefaults(&rgb, image)
            rgb.depth = 8
            rgb.format = AVIF_RGB_FORMAT_RGBA
            rgb.ignoreAlpha = keepAlpha ? AVIF_FALSE : AVIF_TRUE
            rgb.pixels = UnsafeMutablePointer(mutating: pixels.baseAddress)
            rgb.rowBytes = UInt32(bitmap.bytesPerRow)
            return avifImageRGBToYUV(image, &rgb)
        }
        guard result == AVIF_RESULT_OK else {
            avifImageDestroy(image)
            throw WebImageError(.encodingFailed, "libavif cannot convert a \(bitmap.size) image to YUV: \(AVIFStatus.describe(result))")
        }
        return image
    }
}
