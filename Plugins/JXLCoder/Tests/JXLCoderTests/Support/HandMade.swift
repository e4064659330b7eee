import CJXL
import Foundation
import WebImageCore

/// JPEG XL data the coder's own encoder does not write: a bare header claiming a huge image,
/// and a still with an orientation (made with libjxl directly).
enum HandMade {
    /// A codestream signature and SizeHeader claiming `side` x `side` pixels (U32 selector 3,
    /// 30 bits), then ImageMetadata `all_default`: enough for libjxl's basic info, and nothing
    /// after it.
    static func hugeHeader(side: Int, padding: Int = 64) -> Data {
        var bits = BitWriter()
        bits.write(0, count: 1)  // small: no
        bits.write(3, count: 2)  // height: selector 3 = Bits(30) + 1
        bits.write(UInt64(side - 1), count: 30)
        bits.write(1, count: 3)  // ratio 1: width = height
        bits.write(1, count: 1)  // ImageMetadata all_default
        return Data([0xFF, 0x0A] + bits.bytes + [UInt8](repeating: 0, count: padding))
    }

    /// A lossless 8-bit RGB still of `bitmap` whose codestream says `orientation` (1...8).
    static func oriented(_ bitmap: Bitmap, orientation: UInt32) throws -> Data {
        guard let encoder = JxlEncoderCreate(nil) else { throw HandMadeError() }
        defer { JxlEncoderDestroy(encoder) }
        var info = JxlBasicInfo()
        JxlEncoderInitBasicInfo(&info)
        info.xsize = UInt32(bitmap.width)
        info.ysize = UInt32(bitmap.height)
        info.bits_per_sample = 8
        info.uses_original_profile = 1
        info.orientation = JxlOrientation(rawValue: orientation)
        guard JxlEncoderSetBasicInfo(encoder, &info) == JXL_ENC_SUCCESS else { throw HandMadeError() }
        var color = JxlColorEncoding()
        JxlColorEncodingSetToSRGB(&color, 0)
        _ = JxlEncoderSetColorEncoding(encoder, &color)
        let settings = JxlEncoderFrameSettingsCreate(encoder, nil)
        _ = JxlEncoderSetFrameLossless(settings, 1)
        var format = JxlPixelFormat(num_channels: 3, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        let rgb = (0..<bitmap.width * bitmap.height).flatMap { i in bitmap.bytes[i * 4..<i * 4 + 3] }
        guard rgb.withUnsafeBytes({ JxlEncoderAddImageFrame(settings, &format, $0.baseAddress, $0.count) }) == JXL_ENC_SUCCESS else { throw HandMadeError() }
        JxlEncoderCloseInput(encoder)
        var output = [UInt8](repeating: 0, count: 1 << 20)
        let written = output.withUnsafeMutableBufferPointer { buffer -> Int in
            var next = buffer.baseAddress
            var available = buffer.count
            guard JxlEncoderProcessOutput(encoder, &next, &available) == JXL_ENC_SUCCESS else { return -1 }
            return buffer.count - available
        }
        guard written > 0 else { throw HandMadeError() }
        return Data(output[0..<written])
    }

    struct HandMadeError: Error {}
}

/// Bits packed least significant first, as JPEG XL reads them.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var used = 0

    mutating func write(_ value: UInt64, count: Int) {
        for bit in 0..<count {
            if used % 8 == 0 { bytes.append(0) }
            if value >> UInt64(bit) & 1 == 1 { bytes[bytes.count - 1] |= UInt8(1) << UInt8(used % 8) }
            used += 1
        }
    }
}
