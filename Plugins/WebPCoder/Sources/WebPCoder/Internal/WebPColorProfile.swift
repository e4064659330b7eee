import CWebP
import Foundation
import WebImageCore

/// The ICC profile of a WebP file: the `ICCP` chunk of the extended format (after `VP8X`,
/// whose flags say a profile is there).
enum WebPColorProfile {
    /// The profile's bytes, or `nil` when the file has none (a simple-format file, no ICC flag,
    /// no `ICCP` chunk, a chunk cut short).
    static func read(_ data: Data) -> Data? {
        data.withUnsafeBytes { raw -> Data? in
            // "RIFF", size, "WEBP", then chunks: a FourCC, a little-endian size, the payload
            // padded to an even length.
            guard raw.count >= 30, raw[12] == UInt8(ascii: "V"), raw[13] == UInt8(ascii: "P"),
                  raw[14] == UInt8(ascii: "8"), raw[15] == UInt8(ascii: "X"), raw[20] & 0x20 != 0 else { return nil }
            var offset = 12
            // The specification puts ICCP right after VP8X; a few chunks more are tolerated.
            for _ in 0..<4 {
                guard offset + 8 <= raw.count else { return nil }
                let size = Int(raw[offset + 4]) | Int(raw[offset + 5]) << 8 | Int(raw[offset + 6]) << 16 | Int(raw[offset + 7]) << 24
                let start = offset + 8
                if raw[offset] == UInt8(ascii: "I"), raw[offset + 1] == UInt8(ascii: "C"), raw[offset + 2] == UInt8(ascii: "C"), raw[offset + 3] == UInt8(ascii: "P") {
                    guard size > 0, start + size <= raw.count else { return nil }
                    return Data(raw[start..<(start + size)])
                }
                guard size >= 0, start + size <= raw.count else { return nil }
                offset = start + size + (size & 1)
            }
            return nil
        }
    }

    /// `data` (a WebP file libwebp wrote) with `profile` in an `ICCP` chunk: libwebpmux turns a
    /// simple-format file into the extended one (`VP8X` with the ICC flag) and puts the chunk
    /// where the specification says.
    /// - Throws: ``/WebImageCore/WebImageError/Code/encodingFailed`` when libwebpmux refuses.
    static func embedding(_ profile: Data, in data: Data) throws -> Data {
        try data.withUnsafeBytes { image in
            try profile.withUnsafeBytes { icc in
                var bitstream = WebPData(bytes: image.bindMemory(to: UInt8.self).baseAddress, size: image.count)
                guard let mux = WebPMuxCreate(&bitstream, 0) else {
                    throw WebImageError(.encodingFailed, "libwebpmux cannot read the \(data.count)-byte WebP it is to add an ICC profile to")
                }
                defer { WebPMuxDelete(mux) }
                var chunk = WebPData(bytes: icc.bindMemory(to: UInt8.self).baseAddress, size: icc.count)
                var output = WebPData()
                defer { WebPDataClear(&output) }
                let set = WebPMuxSetChunk(mux, "ICCP", &chunk, 0)
                let assembled = set == WEBP_MUX_OK ? WebPMuxAssemble(mux, &output) : set
                guard assembled == WEBP_MUX_OK, let bytes = output.bytes else {
                    throw WebImageError(.encodingFailed, "libwebpmux could not add the \(profile.count)-byte ICC profile to a WebP (error \(assembled.rawValue))")
                }
                return Data(bytes: bytes, count: output.size)
            }
        }
    }
}
