import CZlib
import Foundation
import WebImageCore
import WebImageColor

/// The colour chunks of a PNG file, in the order of precedence the PNG specification (third
/// edition) gives them: `cICP`, then `iCCP`, then `sRGB`, then `gAMA` with `cHRM` (read, not
/// applied: see ``profile(in:)``).
struct PNGColorChunks {
    /// `cICP`: colour primaries, transfer function, matrix (0 for RGB), full range.
    var codePoints: (primaries: UInt8, transfer: UInt8)?
    /// `iCCP`: the range of the compressed profile (after the name and the method byte).
    var compressedProfile: Range<Int>?
    /// `sRGB` was present (its rendering intent does not matter for a conversion to sRGB).
    var sRGB = false
    /// `gAMA`: the file gamma times 100000 (0.45455 for sRGB-like files).
    var gamma: Int?
    /// `cHRM`: white point and primaries x, y (times 100000): wx, wy, rx, ry, gx, gy, bx, by.
    var chromaticities: [Int]?

    /// The ICC profile of `bytes` (the whole file) to convert from, or `nil` when the pixels are
    /// used as they are: untagged, `sRGB`, `cICP` for sRGB or an HDR curve, `gAMA`/`cHRM`
    /// alone, or a profile that cannot be inflated.
    func profile(in bytes: UnsafeRawBufferPointer) -> Data? {
        if let codePoints {
            // cICP wins over everything (an HDR curve it names is not converted).
            return ColorConversion.profile(primaries: Int(codePoints.primaries), transfer: Int(codePoints.transfer))
        }
        if let compressedProfile {
            return Self.inflate(UnsafeRawBufferPointer(rebasing: bytes[compressedProfile]), limit: ColorConversion.maximumProfileBytes)
        }
        // sRGB, or gAMA/cHRM alone: the pixels are used as they are. Decision (issue 31):
        // gAMA and cHRM without a profile are read (``description``) but not applied, as
        // libvips, Pillow, thumbor and imgproxy leave them and as every PngSuite reference
        // decoder reads the samples; a file that means its colours carries iCCP or sRGB.
        return nil
    }

    /// The colour space in words, for `webimage info`: the profile's description, "sRGB",
    /// the cICP code points, the gamma, or "untagged".
    func description(in bytes: UnsafeRawBufferPointer) -> String {
        if let codePoints {
            return "\(ColorConversion.name(primaries: Int(codePoints.primaries), transfer: Int(codePoints.transfer))) (cICP)"
        }
        if let compressedProfile {
            guard let profile = Self.inflate(UnsafeRawBufferPointer(rebasing: bytes[compressedProfile]), limit: ColorConversion.maximumProfileBytes) else {
                return "unreadable ICC profile (used as untagged)"
            }
            return ColorConversion.summary(of: profile)
        }
        if sRGB { return "sRGB" }
        if let gamma {
            let value = Double(gamma) / 100_000
            // 1/2.2 is what sRGB-era tools write beside (or instead of) an sRGB chunk.
            if abs(value - 1 / 2.2) < 0.005 { return "untagged (gAMA \(String(format: "%.5f", value)), as sRGB)" }
            return "untagged, gAMA \(String(format: "%.5f", value)) (not applied)"
        }
        return "untagged"
    }

    /// The zlib stream `compressed` inflated, or `nil` if it is corrupt or inflates to more
    /// than `limit` bytes.
    static func inflate(_ compressed: UnsafeRawBufferPointer, limit: Int) -> Data? {
        guard compressed.count > 2, let base = compressed.baseAddress else { return nil }
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: min(limit, max(4096, compressed.count * 4)))
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = UInt32(compressed.count)
        var produced = 0
        while true {
            if produced == output.count {
                guard output.count < limit else { return nil }
                output += [UInt8](repeating: 0, count: min(limit - output.count, output.count))
            }
            let status = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
                stream.next_out = buffer.baseAddress! + produced
                stream.avail_out = UInt32(buffer.count - produced)
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                produced = buffer.count - Int(stream.avail_out)
                return status
            }
            if status == Z_STREAM_END { return Data(output[0..<produced]) }
            guard status == Z_OK else { return nil }
            if stream.avail_in == 0 && stream.avail_out > 0 { return nil }  // the stream ended early
        }
    }
}
