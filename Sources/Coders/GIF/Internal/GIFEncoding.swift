import Foundation
import WebImageCore

/// GIF89a writing: each frame quantized by median cut (256 colors, or 255 and a transparent
/// index when the frame has pixels with alpha < 128), LZW-compressed. Frame 0's palette is the
/// global table; later frames carry local tables. Animations get a NETSCAPE2.0 loop count and
/// per-frame delays in hundredths of a second; when any frame is transparent every frame
/// disposes to background (so transparent pixels never show the frame before).
///
/// Frames are written one at a time as ``PreparedFrames`` makes them: frame `n` is quantized,
/// written and dropped before frame `n + 1` is read, so an animation never sits in memory
/// whole. Within a frame, the palette comes from a pass over the pixels, then each row is mapped
/// to palette indices and compressed straight into the output (``LZWEncoder``): no frame-size
/// buffer of indices or of compressed data is made. Whether any frame is transparent is known
/// only at the end; each frame's disposal byte is written as "keep" and set to "background"
/// afterwards when one was.
enum GIFEncoding {
    static func encode(_ frames: PreparedFrames, loopCount: Int?) throws -> Data {
        var first: ImageFrame? = try frames.frame(at: 0)
        guard let size = first?.bitmap.size, !size.isEmpty else {
            throw WebImageError(.encodingFailed, "GIF cannot hold an empty image")
        }
        let width = size.width, height = size.height
        guard width <= 65535, height <= 65535 else {
            throw WebImageError(.encodingFailed, "GIF cannot hold a \(size) image (65535 per side at most)")
        }
        let animated = frames.isAnimated
        var anyTransparent = false
        var disposalOffsets: [Int] = []

        var output = Data("GIF89a".utf8)
        output.appendLittleEndian(UInt16(width))
        output.appendLittleEndian(UInt16(height))
        for index in 0..<frames.count {
            let frame: ImageFrame
            if index == 0, let held = first {
                frame = held
                first = nil  // dropped with `frame` at the end of this pass
            } else {
                frame = try frames.frame(at: index)
            }
            guard frame.bitmap.size == size else {
                throw WebImageError(.encodingFailed, "GIF frame \(index) is \(frame.bitmap.size), frame 0 is \(size)")
            }
            let transparent = frame.bitmap.hasAlpha && Self.hasTransparentPixels(frame.bitmap)
            anyTransparent = anyTransparent || transparent
            var encoded = Self.palette(for: frame.bitmap, transparent: transparent)
            if index == 0 {
                output.append(0x80 | 0x70 | UInt8(encoded.bits - 1))  // global table, 8-bit color resolution
                output.append(0)  // background index
                output.append(0)  // aspect ratio
                appendPalette(encoded.palette, bits: encoded.bits, to: &output)
                if animated {
                    output.append(contentsOf: [0x21, 0xFF, 11])
                    output.append(contentsOf: Array("NETSCAPE2.0".utf8))
                    output.append(contentsOf: [3, 1])
                    output.appendLittleEndian(UInt16(clamping: max(0, loopCount ?? 0)))
                    output.append(0)
                }
            }
            if animated || encoded.transparentIndex != nil {
                output.append(contentsOf: [0x21, 0xF9, 4])
                disposalOffsets.append(output.count)
                output.append(1 << 2 | (encoded.transparentIndex != nil ? 1 : 0))  // keep; see below
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
            Self.writeIndices(of: frame.bitmap, quantizer: &encoded.quantizer, transparentIndex: encoded.transparentIndex, minimumCodeSize: minimumCodeSize, to: &output)
            output.append(0)
        }
        if anyTransparent {
            // Every frame disposes to background (2) instead of keeping (1).
            for offset in disposalOffsets {
                let index = output.startIndex + offset
                output[index] = output[index] & ~0x1C | 2 << 2
            }
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

    /// The quantizer of `bitmap`, its palette (padded to a power of two), the palette's bit
    /// count and the transparent index (the entry after the colors, when `transparent`).
    static func palette(for bitmap: Bitmap, transparent: Bool) -> (quantizer: MedianCutQuantizer, palette: [(UInt8, UInt8, UInt8)], bits: Int, transparentIndex: Int?) {
        let quantizer = MedianCutQuantizer(bitmaps: [bitmap], maximumColors: transparent ? 255 : 256)
        var palette = quantizer.palette
        let transparentIndex = transparent ? palette.count : nil
        if transparent { palette.append((0, 0, 0)) }
        var bits = 1
        while 1 << bits < palette.count { bits += 1 }
        while palette.count < 1 << bits { palette.append((0, 0, 0)) }
        return (quantizer, palette, bits, transparentIndex)
    }

    /// The image data of `bitmap`: each row mapped to palette indices (alpha below 128 to
    /// `transparentIndex`) and LZW-compressed into `output` as data sub-blocks, one row of
    /// indices held at a time. The block terminator is the caller's.
    static func writeIndices(of bitmap: Bitmap, quantizer: inout MedianCutQuantizer, transparentIndex: Int?, minimumCodeSize: Int, to output: inout Data) {
        var encoder = LZWEncoder(minimumCodeSize: minimumCodeSize)
        var row = [UInt8](repeating: 0, count: bitmap.width)
        bitmap.bytes.withUnsafeBufferPointer { bytes in
            row.withUnsafeMutableBufferPointer { row in
                for y in 0..<bitmap.height {
                    var index = y * bitmap.bytesPerRow
                    for x in 0..<bitmap.width {
                        if let transparentIndex, bytes[index + 3] < 128 {
                            row[x] = UInt8(transparentIndex)
                        } else {
                            row[x] = UInt8(quantizer.index(bytes[index], bytes[index + 1], bytes[index + 2]))
                        }
                        index += 4
                    }
                    encoder.append(UnsafeBufferPointer(row))
                    encoder.drainBlocks(into: &output)
                }
            }
        }
        encoder.finish()
        encoder.drainBlocks(into: &output)
    }

    static func appendPalette(_ palette: [(UInt8, UInt8, UInt8)], bits: Int, to output: inout Data) {
        for entry in palette.prefix(1 << bits) { output.append(contentsOf: [entry.0, entry.1, entry.2]) }
    }
}
