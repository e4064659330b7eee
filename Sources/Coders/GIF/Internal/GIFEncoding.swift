import Foundation
import WebImageCore

/// GIF89a writing: each frame quantized by median cut (256 colors, or 255 and a transparent
/// index when the frame has pixels with alpha < 128), LZW-compressed. Frame 0's palette is the
/// global table; later frames carry local tables. Animations get a NETSCAPE2.0 loop count and
/// per-frame delays in hundredths of a second; when any frame is transparent every frame
/// disposes to background (so transparent pixels never show the frame before).
enum GIFEncoding {
    static func encode(_ frames: [ImageFrame], loopCount: Int?) throws -> Data {
        guard let first = frames.first, !first.bitmap.size.isEmpty else {
            throw WebImageError(.encodingFailed, "GIF cannot hold an empty image")
        }
        let width = first.bitmap.width, height = first.bitmap.height
        guard width <= 65535, height <= 65535 else {
            throw WebImageError(.encodingFailed, "GIF cannot hold a \(first.bitmap.size) image (65535 per side at most)")
        }
        let animated = frames.count > 1
        let transparent = frames.map { $0.bitmap.hasAlpha && Self.hasTransparentPixels($0.bitmap) }
        let anyTransparent = transparent.contains(true)

        var output = Data("GIF89a".utf8)
        output.appendLittleEndian(UInt16(width))
        output.appendLittleEndian(UInt16(height))
        var encodedFrames: [(palette: [(UInt8, UInt8, UInt8)], bits: Int, transparentIndex: Int?, data: [UInt8])] = []
        for (index, frame) in frames.enumerated() {
            encodedFrames.append(Self.quantize(frame.bitmap, transparent: transparent[index]))
        }
        let global = encodedFrames[0]
        output.append(0x80 | 0x70 | UInt8(global.bits - 1))  // global table, 8-bit color resolution
        output.append(0)  // background index
        output.append(0)  // aspect ratio
        appendPalette(global.palette, bits: global.bits, to: &output)
        if animated {
            output.append(contentsOf: [0x21, 0xFF, 11])
            output.append(contentsOf: Array("NETSCAPE2.0".utf8))
            output.append(contentsOf: [3, 1])
            output.appendLittleEndian(UInt16(clamping: max(0, loopCount ?? 0)))
            output.append(0)
        }
        for (index, frame) in frames.enumerated() {
            let encoded = encodedFrames[index]
            if animated || encoded.transparentIndex != nil {
                let disposal: UInt8 = anyTransparent ? 2 : 1
                output.append(contentsOf: [0x21, 0xF9, 4, disposal << 2 | (encoded.transparentIndex != nil ? 1 : 0)])
                output.appendLittleEndian(UInt16(clamping: Int((frame.statedDuration * 100).rounded())))
                output.append(UInt8(encoded.transparentIndex ?? 0))
                output.append(0)
            }
            output.append(0x2C)
            output.appendLittleEndian(UInt16(0))
            output.appendLittleEndian(UInt16(0))
            output.appendLittleEndian(UInt16(width))
            output.appendLittleEndian(UInt16(height))
            if index == 0 {
                output.append(0)
            } else {
                output.append(0x80 | UInt8(encoded.bits - 1))
                appendPalette(encoded.palette, bits: encoded.bits, to: &output)
            }
            let minimumCodeSize = max(2, encoded.bits)
            output.append(UInt8(minimumCodeSize))
            var offset = 0
            while offset < encoded.data.count {
                let size = min(255, encoded.data.count - offset)
                output.append(UInt8(size))
                output.append(contentsOf: encoded.data[offset..<offset + size])
                offset += size
            }
            output.append(0)
        }
        output.append(0x3B)
        return output
    }

    static func hasTransparentPixels(_ bitmap: Bitmap) -> Bool {
        bitmap.bytes.withUnsafeBufferPointer { bytes in
            for y in 0..<bitmap.height {
                var index = y * bitmap.bytesPerRow + 3
                let end = y * bitmap.bytesPerRow + bitmap.width * 4
                while index < end {
                    if bytes[index] < 128 { return true }
                    index += 4
                }
            }
            return false
        }
    }

    /// The palette (padded to a power of two), its bit count, the transparent index and the LZW data.
    static func quantize(_ bitmap: Bitmap, transparent: Bool) -> (palette: [(UInt8, UInt8, UInt8)], bits: Int, transparentIndex: Int?, data: [UInt8]) {
        var quantizer = MedianCutQuantizer(bitmaps: [bitmap], maximumColors: transparent ? 255 : 256)
        var palette = quantizer.palette
        let transparentIndex = transparent ? palette.count : nil
        if transparent { palette.append((0, 0, 0)) }
        var bits = 1
        while 1 << bits < palette.count { bits += 1 }
        while palette.count < 1 << bits { palette.append((0, 0, 0)) }
        var indices = [UInt8](repeating: 0, count: bitmap.width * bitmap.height)
        bitmap.bytes.withUnsafeBufferPointer { bytes in
            var pixel = 0
            for y in 0..<bitmap.height {
                var index = y * bitmap.bytesPerRow
                for _ in 0..<bitmap.width {
                    if let transparentIndex, bytes[index + 3] < 128 {
                        indices[pixel] = UInt8(transparentIndex)
                    } else {
                        indices[pixel] = UInt8(quantizer.index(bytes[index], bytes[index + 1], bytes[index + 2]))
                    }
                    pixel += 1
                    index += 4
                }
            }
        }
        return (palette, bits, transparentIndex, LZWEncoder.encode(indices, minimumCodeSize: max(2, bits)))
    }

    static func appendPalette(_ palette: [(UInt8, UInt8, UInt8)], bits: Int, to output: inout Data) {
        for entry in palette.prefix(1 << bits) { output.append(contentsOf: [entry.0, entry.1, entry.2]) }
    }
}
