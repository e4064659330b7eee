import CJXL
import Foundation
import WebImageCore

/// Encoding with libjxl's `JxlEncoder`: a still or an animation of RGBA8 (or RGB8 for opaque
/// images) frames in sRGB (or in the ICC profile the image keeps), lossless (modular, exact) or
/// lossy (VarDCT at a Butteraugli distance).
enum JXLEncoding {
    /// How to encode.
    struct Settings: Sendable {
        /// Lossless (exact pixels) or lossy.
        var lossless: Bool
        /// The Butteraugli distance of lossy encoding (0.1 ... 25; 1 is visually lossless).
        var distance: Float
        /// libjxl's effort, 1 (fastest) ... 9 (slowest).
        var effort: Int
        /// Worker threads of libjxl's thread runner (1: none).
        var threads: Int
        /// The ICC profile the pixels are in (a kept ``/WebImageCore/WebImage/colorProfile``),
        /// written as the image's colour encoding; `nil`: sRGB.
        var iccProfile: Data?
    }

    /// The distance for a quality 0...100, as cjxl maps its `--quality`: 100 gives 0.1,
    /// 90 gives 1 (visually lossless), 30 gives 6.4, lower qualities grow faster, up to 25.
    static func distance(quality: Double) -> Float {
        let q = min(100, max(0, quality))
        let distance = q >= 30 ? 0.1 + (100 - q) * 0.09 : 6.4 + pow(2.5, (30 - q) / 5) / 6.25
        return Float(min(25, max(0.1, distance)))
    }

    /// Encodes `frames` (one: a still; more: an animation with millisecond ticks).
    /// - Parameter loopCount: For an animation: 0 = forever.
    /// - Throws: ``WebImageError/Code/encodingFailed``.
    static func encode(_ frames: [ImageFrame], loopCount: Int, settings: Settings) throws -> Data {
        guard let first = frames.first?.bitmap else {
            throw WebImageError(.encodingFailed, "a JPEG XL image needs at least one frame")
        }
        let size = first.size
        guard !size.isEmpty, size.width <= Int(UInt32.max), size.height <= Int(UInt32.max) else {
            throw WebImageError(.encodingFailed, "JPEG XL cannot hold a \(size) image")
        }
        for (index, frame) in frames.enumerated() where frame.bitmap.size != size {
            throw WebImageError(.encodingFailed, "frame \(index) is \(frame.bitmap.size), not \(size) as frame 0")
        }
        let animated = frames.count > 1
        let alpha = frames.contains { $0.bitmap.hasAlpha && !$0.bitmap.isOpaque }
        let what = "a \(size) image\(animated ? " of \(frames.count) frames" : "")"
        guard let encoder = JxlEncoderCreate(nil) else {
            throw WebImageError(.encodingFailed, "libjxl cannot make an encoder for \(what)")
        }
        defer { JxlEncoderDestroy(encoder) }
        let runner = settings.threads > 1 ? JxlThreadParallelRunnerCreate(nil, settings.threads) : nil
        defer { if let runner { JxlThreadParallelRunnerDestroy(runner) } }
        if let runner {
            try check(JxlEncoderSetParallelRunner(encoder, JxlThreadParallelRunner, runner), encoder, "set the thread runner for \(what)")
        }

        var info = JxlBasicInfo()
        JxlEncoderInitBasicInfo(&info)
        info.xsize = UInt32(size.width)
        info.ysize = UInt32(size.height)
        info.bits_per_sample = 8
        info.exponent_bits_per_sample = 0
        info.num_color_channels = 3
        info.alpha_bits = alpha ? 8 : 0
        info.num_extra_channels = alpha ? 1 : 0
        info.uses_original_profile = settings.lossless ? 1 : 0
        if animated {
            info.have_animation = 1
            info.animation.tps_numerator = 1000
            info.animation.tps_denominator = 1
            info.animation.num_loops = UInt32(min(Int(UInt32.max), max(0, loopCount)))
        }
        try check(JxlEncoderSetBasicInfo(encoder, &info), encoder, "set the basic info of \(what)")
        if alpha {
            var channel = JxlExtraChannelInfo()
            JxlEncoderInitExtraChannelInfo(JXL_CHANNEL_ALPHA, &channel)
            channel.bits_per_sample = 8
            try check(JxlEncoderSetExtraChannelInfo(encoder, 0, &channel), encoder, "describe the alpha channel of \(what)")
        }
        if let profile = settings.iccProfile, !profile.isEmpty {
            try profile.withUnsafeBytes { icc in
                try check(JxlEncoderSetICCProfile(encoder, icc.bindMemory(to: UInt8.self).baseAddress, icc.count), encoder, "set the \(profile.count)-byte ICC profile of \(what)")
            }
        } else {
            var color = JxlColorEncoding()
            JxlColorEncodingSetToSRGB(&color, 0)
            try check(JxlEncoderSetColorEncoding(encoder, &color), encoder, "set the sRGB color encoding of \(what)")
        }

        guard let frameSettings = JxlEncoderFrameSettingsCreate(encoder, nil) else {
            throw WebImageError(.encodingFailed, "libjxl cannot make the frame settings of \(what)")
        }
        if settings.lossless {
            try check(JxlEncoderSetFrameLossless(frameSettings, 1), encoder, "ask for lossless encoding of \(what)")
        } else {
            try check(JxlEncoderSetFrameDistance(frameSettings, settings.distance), encoder, "set the distance \(settings.distance) for \(what)")
        }
        try check(
            JxlEncoderFrameSettingsSetOption(frameSettings, JXL_ENC_FRAME_SETTING_EFFORT, Int64(min(9, max(1, settings.effort)))),
            encoder, "set the effort \(settings.effort) for \(what)"
        )

        var format = JxlPixelFormat(num_channels: alpha ? 4 : 3, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        for (index, frame) in frames.enumerated() {
            if animated {
                var header = JxlFrameHeader()
                JxlEncoderInitFrameHeader(&header)
                header.duration = UInt32(milliseconds(frame.duration))
                try check(JxlEncoderSetFrameHeader(frameSettings, &header), encoder, "set the header of frame \(index) of \(what)")
            }
            let pixels = alpha ? packed(frame.bitmap) : rgb(frame.bitmap)
            let status = pixels.withUnsafeBytes { raw in
                JxlEncoderAddImageFrame(frameSettings, &format, raw.baseAddress, raw.count)
            }
            try check(status, encoder, "add frame \(index) of \(what)")
        }
        JxlEncoderCloseInput(encoder)
        return try output(encoder, what: what)
    }

    /// Runs the encoder, growing the output until it is done.
    private static func output(_ encoder: OpaquePointer, what: String) throws -> Data {
        var output = [UInt8](repeating: 0, count: 64 * 1024)
        var written = 0
        while true {
            let (status, used) = output.withUnsafeMutableBufferPointer { buffer -> (JxlEncoderStatus, Int) in
                guard let base = buffer.baseAddress else { return (JXL_ENC_ERROR, 0) }
                var next: UnsafeMutablePointer<UInt8>? = base + written
                var available = buffer.count - written
                let status = JxlEncoderProcessOutput(encoder, &next, &available)
                return (status, buffer.count - written - available)
            }
            written += used
            switch status {
            case JXL_ENC_SUCCESS:
                return Data(output[0..<written])
            case JXL_ENC_NEED_MORE_OUTPUT:
                output.append(contentsOf: repeatElement(0, count: output.count))
            default:
                throw WebImageError(.encodingFailed, "libjxl failed to encode \(what) (error \(JxlEncoderGetError(encoder).rawValue))")
            }
        }
    }

    private static func check(_ status: JxlEncoderStatus, _ encoder: OpaquePointer, _ step: String) throws {
        guard status == JXL_ENC_SUCCESS else {
            throw WebImageError(.encodingFailed, "libjxl failed to \(step) (error \(JxlEncoderGetError(encoder).rawValue))")
        }
    }

    /// A frame duration in whole milliseconds (ticks of the 1000/s animation), at least 1.
    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 1 }
        return min(Int(UInt32.max), max(1, Int((seconds * 1000).rounded())))
    }

    /// The RGBA bytes without row padding.
    private static func packed(_ bitmap: Bitmap) -> [UInt8] {
        let rowBytes = bitmap.width * 4
        if bitmap.bytesPerRow == rowBytes { return bitmap.bytes }
        var out = [UInt8]()
        out.reserveCapacity(rowBytes * bitmap.height)
        for y in 0..<bitmap.height {
            out.append(contentsOf: bitmap.bytes[y * bitmap.bytesPerRow..<y * bitmap.bytesPerRow + rowBytes])
        }
        return out
    }

    /// The RGB bytes (alpha dropped) without row padding.
    private static func rgb(_ bitmap: Bitmap) -> [UInt8] {
        let width = bitmap.width, height = bitmap.height, stride = bitmap.bytesPerRow
        return [UInt8](unsafeUninitializedCapacity: width * height * 3) { buffer, initialized in
            bitmap.bytes.withUnsafeBufferPointer { source in
                var out = 0
                for y in 0..<height {
                    var index = y * stride
                    for _ in 0..<width {
                        buffer[out] = source[index]
                        buffer[out + 1] = source[index + 1]
                        buffer[out + 2] = source[index + 2]
                        out += 3
                        index += 4
                    }
                }
            }
            initialized = width * height * 3
        }
    }
}
