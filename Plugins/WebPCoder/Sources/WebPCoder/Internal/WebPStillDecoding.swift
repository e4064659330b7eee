import CWebP
import Foundation
import WebImageCore

/// Decoding of a still (non-animated) WebP: lossy, lossless, with or without alpha, at full
/// size or scaled by libwebp's own rescaler (`use_scaling`), which hits any exact size and
/// averages every source pixel (premultiplied by alpha, so transparent pixels do not bleed).
enum WebPStillDecoding {
    /// Decodes `data` (whose header is `header`) at `size`.
    /// - Throws: ``WebImageError/Code/badImageData`` for truncated or corrupt data.
    static func decode(_ data: Data, header: WebPHeader, size: PixelSize) throws -> Bitmap {
        let bytesPerRow = size.width * 4
        let count = bytesPerRow * size.height
        let pixels = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            try data.withUnsafeBytes { raw in
                try decode(raw, into: buffer, size: size, scaling: true, what: "WebP data of \(data.count) bytes")
            }
            initialized = count
        }
        return try Bitmap(width: size.width, height: size.height, bytes: pixels, hasAlpha: header.hasAlpha)
    }

    /// Decodes the image in `raw` (a whole file, or one frame's ALPH + VP8/VP8L chunks) into
    /// `buffer`, RGBA8 with straight alpha, `size.width * 4` bytes per row.
    /// - Parameters:
    ///   - size: The output size.
    ///   - scaling: When the bitstream's size differs from `size`: rescale with libwebp (`true`)
    ///     or throw (`false`, for animation frames, whose size the container states).
    ///   - what: What is decoded, for error messages.
    static func decode(_ raw: UnsafeRawBufferPointer, into buffer: UnsafeMutableBufferPointer<UInt8>, size: PixelSize, scaling: Bool, what: String) throws {
        guard let input = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count > 0 else {
            throw WebImageError(.badImageData, "\(what) is empty")
        }
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw WebImageError(.badImageData, "\(what): this libwebp does not match the headers the coder was built with")
        }
        let status = WebPGetFeatures(input, raw.count, &config.input)
        guard status == VP8_STATUS_OK else { throw WebPStatus.decodingError(status, what) }
        guard config.input.has_animation == 0 else {
            throw WebImageError(.badImageData, "\(what) is animated where a still image was expected")
        }
        if Int(config.input.width) != size.width || Int(config.input.height) != size.height {
            guard scaling else {
                throw WebImageError(.badImageData, "\(what) is \(config.input.width)x\(config.input.height), not the \(size) its container states")
            }
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(size.width)
            config.options.scaled_height = Int32(size.height)
        }
        configureOutput(&config.output, buffer: buffer, width: size.width, height: size.height)
        let decoded = WebPDecode(input, raw.count, &config)
        WebPFreeDecBuffer(&config.output)  // frees nothing with external memory; kept for symmetry
        guard decoded == VP8_STATUS_OK else { throw WebPStatus.decodingError(decoded, what) }
    }

    /// Points `output` at caller-owned RGBA memory (libwebp allocates nothing and checks the
    /// buffer is large enough for what it writes).
    static func configureOutput(_ output: inout WebPDecBuffer, buffer: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int) {
        output.colorspace = MODE_RGBA
        output.is_external_memory = 1
        output.width = Int32(width)
        output.height = Int32(height)
        output.u.RGBA.rgba = buffer.baseAddress
        output.u.RGBA.stride = Int32(width * 4)
        output.u.RGBA.size = buffer.count
    }
}
