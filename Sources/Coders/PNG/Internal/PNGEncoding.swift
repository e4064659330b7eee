import CZlib
import Foundation
import WebImageCore

/// PNG and APNG writing in Swift over zlib.
///
/// The color type is the smallest that holds the pixels exactly: gray (0) when every pixel of
/// every frame is opaque gray, RGB (2) when opaque, else RGBA (6); always 8 bits. Frames are
/// made, written and dropped one at a time (``PreparedFrames``); a frame that needs a wider
/// color type than the ones before it starts the writing over in that type. Each row gets
/// the filter with the smallest sum of absolute values (the heuristic of libpng and Pillow).
/// An animation is written as APNG: every frame covers the canvas, dispose none, blend source.
/// An image that carries a colour profile (``/WebImageCore/WebImage/colorProfile``) gets an
/// `iCCP` chunk after `IHDR`, and is never written gray (the profile is RGB).
///
/// zlib strategy: the level is the caller's, the strategy is chosen per frame by compressing a
/// sample of filtered rows (about 64 KiB, spread over the image) three ways: `Z_RLE` (matches
/// at distance 1 only), `Z_FILTERED` (short matches left to the Huffman coder; Pillow's, so
/// thumbor's, strategy for PNG) and `Z_DEFAULT_STRATEGY`. The smallest sample wins, except that
/// `Z_RLE`, three to four times faster than the others on a photo, wins when its sample is at
/// most 0.5% larger than the best: photographs often compress as small or smaller with it,
/// graphics with repeated patterns need the others. (It used to win within 2% of the default
/// strategy alone: real photos came out up to 3% larger than Pillow's at the same level.)
enum PNGEncoding {
    enum ColorType: UInt8 {
        case gray = 0, rgb = 2, rgba = 6

        var channels: Int {
            switch self {
            case .gray: 1
            case .rgb: 3
            case .rgba: 4
            }
        }

        /// The narrower of the two types that holds what both hold (gray < RGB < RGBA).
        func widened(to other: ColorType) -> ColorType {
            channels >= other.channels ? self : other
        }
    }

    /// IDAT / fdAT payloads are cut at this size, friendly to streaming readers.
    static let maxChunkPayload = 1 << 20

    static func encode(_ frames: PreparedFrames, loopCount: Int?, level: Int, iccProfile: Data? = nil) throws -> Data {
        var colorType = iccProfile == nil ? ColorType.gray : .rgb
        let profileChunk = try iccProfile.map(profileChunkPayload)
        while true {
            if let output = try encode(frames, loopCount: loopCount, level: level, profileChunk: profileChunk, colorType: &colorType) {
                return output
            }
        }
    }

    /// One pass over the frames, written as they are made and dropped, in `colorType` or a wider
    /// one that frame 0 needs. Returns `nil`, with `colorType` widened, when a later frame needs a
    /// wider color type than the pass started with: the caller starts again. The result is the
    /// same as choosing over all frames first (the type is the widest any frame needs), without
    /// holding every frame; most animations need one pass, and at most three are made.
    private static func encode(_ frames: PreparedFrames, loopCount: Int?, level: Int, profileChunk: Data?, colorType: inout ColorType) throws -> Data? {
        let first = try frames.frame(at: 0)
        let size = first.bitmap.size
        guard !size.isEmpty else {
            throw WebImageError(.encodingFailed, "PNG cannot hold an empty image")
        }
        let width = size.width, height = size.height
        guard width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw WebImageError(.encodingFailed, "PNG cannot hold a \(size) image")
        }
        colorType = colorType.widened(to: colorTypeNeeded(by: first.bitmap))
        var output = Data()
        output.append(contentsOf: PNGFile.signature)
        var header = Data()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [8, colorType.rawValue, 0, 0, 0])
        appendChunk("IHDR", header, to: &output)
        if let profileChunk { appendChunk("iCCP", profileChunk, to: &output) }
        let animated = frames.isAnimated
        var sequence: UInt32 = 0
        if animated {
            var control = Data()
            control.appendBigEndian(UInt32(frames.count))
            control.appendBigEndian(UInt32(max(0, loopCount ?? 0)))
            appendChunk("acTL", control, to: &output)
        }
        var held: ImageFrame? = first
        for index in 0..<frames.count {
            let frame: ImageFrame
            if index == 0, let kept = held {
                frame = kept
                held = nil
            } else {
                frame = try frames.frame(at: index)
                guard frame.bitmap.size == size else {
                    throw WebImageError(.encodingFailed, "PNG frame \(index) is \(frame.bitmap.size), frame 0 is \(size)")
                }
                let needed = colorTypeNeeded(by: frame.bitmap)
                if colorType.widened(to: needed) != colorType {
                    colorType = colorType.widened(to: needed)
                    return nil
                }
            }
            if animated {
                var control = Data()
                control.appendBigEndian(sequence)
                sequence += 1
                control.appendBigEndian(UInt32(width))
                control.appendBigEndian(UInt32(height))
                control.appendBigEndian(UInt32(0))
                control.appendBigEndian(UInt32(0))
                let (numerator, denominator) = delayFraction(frame.statedDuration)
                control.appendBigEndian(numerator)
                control.appendBigEndian(denominator)
                control.append(contentsOf: [0, 0])  // dispose none, blend source
                appendChunk("fcTL", control, to: &output)
            }
            let compressed = try compress(frame.bitmap, colorType: colorType, level: level)
            var offset = 0
            repeat {
                let piece = compressed[offset..<min(compressed.count, offset + maxChunkPayload)]
                if index == 0 {
                    appendChunk("IDAT", Data(piece), to: &output)
                } else {
                    var payload = Data()
                    payload.appendBigEndian(sequence)
                    sequence += 1
                    payload.append(piece)
                    appendChunk("fdAT", payload, to: &output)
                }
                offset += maxChunkPayload
            } while offset < compressed.count
        }
        appendChunk("IEND", Data(), to: &output)
        return output
    }

    /// A frame delay as an APNG fraction: milliseconds when they fit 16 bits, else centiseconds.
    /// The payload of an `iCCP` chunk for `profile`: the name "ICC Profile", a 0, compression
    /// method 0 and the profile compressed with zlib.
    static func profileChunkPayload(_ profile: Data) throws -> Data {
        var bound = compressBound(uLong(profile.count))
        var compressed = [UInt8](repeating: 0, count: Int(bound))
        let status = profile.withUnsafeBytes { raw in
            compress2(&compressed, &bound, raw.bindMemory(to: UInt8.self).baseAddress, uLong(raw.count), Z_BEST_COMPRESSION)
        }
        guard status == Z_OK else {
            throw WebImageError(.encodingFailed, "zlib could not compress the \(profile.count)-byte ICC profile (status \(status))")
        }
        var payload = Data("ICC Profile".utf8)
        payload.append(contentsOf: [0, 0])
        payload.append(contentsOf: compressed[0..<Int(bound)])
        return payload
    }

    static func delayFraction(_ seconds: Double) -> (UInt16, UInt16) {
        let milliseconds = (max(0, seconds) * 1000).rounded()
        if milliseconds <= 65535 { return (UInt16(milliseconds), 1000) }
        return (UInt16(min(65535, (max(0, seconds) * 100).rounded())), 100)
    }

    /// The narrowest color type that holds `bitmap` exactly: RGBA when it has alpha and a pixel
    /// is not opaque, else gray when every pixel is gray, else RGB.
    static func colorTypeNeeded(by bitmap: Bitmap) -> ColorType {
        if bitmap.hasAlpha && !bitmap.isOpaque { return .rgba }
        let gray = bitmap.bytes.withUnsafeBufferPointer { buffer in
            for y in 0..<bitmap.height {
                var index = y * bitmap.bytesPerRow
                let end = index + bitmap.width * 4
                while index < end {
                    if buffer[index] != buffer[index + 1] || buffer[index] != buffer[index + 2] { return false }
                    index += 4
                }
            }
            return true
        }
        return gray ? .gray : .rgb
    }

    static func appendChunk(_ type: StaticString, _ payload: Data, to output: inout Data) {
        output.appendBigEndian(UInt32(payload.count))
        var body = Data()
        type.withUTF8Buffer { body.append(contentsOf: $0) }
        body.append(payload)
        let crc = body.withUnsafeBytes { raw in
            crc32(0, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(raw.count))
        }
        output.append(body)
        output.appendBigEndian(UInt32(truncatingIfNeeded: crc))
    }

    /// Filters and deflates the rows of `bitmap` as a zlib stream.
    static func compress(_ bitmap: Bitmap, colorType: ColorType, level: Int) throws -> Data {
        let clamped = Int32(max(0, min(9, level)))
        let strategy = clamped == 0 ? Z_DEFAULT_STRATEGY : try chooseStrategy(bitmap, colorType: colorType, level: clamped)
        return try compress(bitmap, colorType: colorType, level: clamped, strategy: strategy, rows: 0..<bitmap.height)
    }

    /// The strategy whose output is the smallest on a sample of the rows (`Z_RLE` when within
    /// 0.5% of the smallest).
    static func chooseStrategy(_ bitmap: Bitmap, colorType: ColorType, level: Int32) throws -> Int32 {
        let strategies: [Int32] = [Z_RLE, Z_FILTERED, Z_DEFAULT_STRATEGY]
        var sizes = [Int](repeating: 0, count: strategies.count)
        let rowBytes = bitmap.width * colorType.channels + 1
        let sampleRows = max(1, min(bitmap.height, (64 << 10) / max(1, rowBytes)))
        if sampleRows >= bitmap.height {
            // Small image: try each for real.
            for (index, strategy) in strategies.enumerated() {
                sizes[index] = try compress(bitmap, colorType: colorType, level: level, strategy: strategy, rows: 0..<bitmap.height).count
            }
        } else {
            // Bands of 8 rows spread over the image.
            let bands = max(1, sampleRows / 8)
            for band in 0..<bands {
                let start = bands == 1 ? 0 : (bitmap.height - 8) * band / (bands - 1)
                let rows = start..<min(bitmap.height, start + 8)
                for (index, strategy) in strategies.enumerated() {
                    sizes[index] += try compress(bitmap, colorType: colorType, level: level, strategy: strategy, rows: rows).count
                }
            }
        }
        let best = sizes.indices.min { sizes[$0] < sizes[$1] }!
        return sizes[0] <= sizes[best] + sizes[best] / 200 ? Z_RLE : strategies[best]
    }

    /// Filters and deflates `rows` of `bitmap` as one zlib stream (the first row filtered against
    /// the row above it, as in the whole image).
    static func compress(_ bitmap: Bitmap, colorType: ColorType, level: Int32, strategy: Int32, rows: Range<Int>) throws -> Data {
        let zlib = try ZlibStream(.deflate(level: level, strategy: strategy))
        let stream = zlib.stream
        let channels = colorType.channels
        let rowBytes = bitmap.width * channels
        // Raw rows with `pad` zero bytes before them (the filters' "left of the first pixel")
        // and the filtered row with its type byte (PNGFilterChooser).
        let pad = 8
        var previous = [UInt8](repeating: 0, count: pad + rowBytes)
        var current = [UInt8](repeating: 0, count: pad + rowBytes)
        var filtered = [UInt8](repeating: 0, count: rowBytes + 1)
        var result = Data()
        var outBuffer = [UInt8](repeating: 0, count: 1 << 18)

        func pump(_ input: UnsafeBufferPointer<UInt8>, flush: Int32) throws {
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = UInt32(input.count)
            try outBuffer.withUnsafeMutableBufferPointer { out in
                repeat {
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = UInt32(out.count)
                    let status = deflate(stream, flush)
                    guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                        throw WebImageError(.encodingFailed, "zlib failed to compress PNG data: \(zlib.message(or: "status \(status)"))")
                    }
                    let produced = out.count - Int(stream.pointee.avail_out)
                    if produced > 0 { result.append(out.baseAddress!, count: produced) }
                    if flush == Z_FINISH && status == Z_STREAM_END { return }
                } while stream.pointee.avail_out == 0 || (flush == Z_FINISH)
            }
        }

        try bitmap.bytes.withUnsafeBufferPointer { pixels in
            if rows.lowerBound > 0 {
                let above = pixels.baseAddress! + (rows.lowerBound - 1) * bitmap.bytesPerRow
                previous.withUnsafeMutableBufferPointer { line in
                    pack(above, width: bitmap.width, colorType: colorType, into: line.baseAddress! + pad)
                }
            }
            for y in rows {
                let row = pixels.baseAddress! + y * bitmap.bytesPerRow
                current.withUnsafeMutableBufferPointer { line in
                    pack(row, width: bitmap.width, colorType: colorType, into: line.baseAddress! + pad)
                }
                current.withUnsafeBufferPointer { line in
                    previous.withUnsafeBufferPointer { above in
                        filtered.withUnsafeMutableBufferPointer { out in
                            let r = line.baseAddress! + pad, u = above.baseAddress! + pad
                            let best = PNGFilterChooser.choose(row: r, previous: u, count: rowBytes, stride: channels)
                            out[0] = UInt8(best)
                            PNGFilterChooser.apply(best, row: r, previous: u, count: rowBytes, stride: channels, into: out.baseAddress! + 1)
                        }
                    }
                }
                try filtered.withUnsafeBufferPointer { try pump($0, flush: Z_NO_FLUSH) }
                swap(&current, &previous)
            }
            try pump(UnsafeBufferPointer(start: nil, count: 0), flush: Z_FINISH)
        }
        return result
    }

    /// Converts one RGBA row to the color type's samples.
    static func pack(_ row: UnsafePointer<UInt8>, width: Int, colorType: ColorType, into target: UnsafeMutablePointer<UInt8>) {
        switch colorType {
        case .rgba:
            target.update(from: row, count: width * 4)
        case .rgb:
            for x in 0..<width {
                target[x * 3] = row[x * 4]
                target[x * 3 + 1] = row[x * 4 + 1]
                target[x * 3 + 2] = row[x * 4 + 2]
            }
        case .gray:
            for x in 0..<width { target[x] = row[x * 4] }
        }
    }

    /// Fills `candidates[f]` with the row under filter `f` (type byte first) and returns the
    /// filter whose bytes, read as signed, have the smallest sum of absolute values (the choice
    /// of ``PNGFilterChooser``, which the encoder uses without filling every candidate).
    static func chooseFilter(_ row: [UInt8], _ previous: [UInt8], stride: Int, into candidates: inout [[UInt8]]) -> Int {
        let count = row.count
        let padded = { (bytes: [UInt8]) in [UInt8](repeating: 0, count: stride) + bytes }
        let paddedRow = padded(row), paddedPrevious = padded(previous)
        var best = 0
        paddedRow.withUnsafeBufferPointer { rowBuffer in
            paddedPrevious.withUnsafeBufferPointer { upBuffer in
                let r = rowBuffer.baseAddress! + stride, u = upBuffer.baseAddress! + stride
                best = PNGFilterChooser.choose(row: r, previous: u, count: count, stride: stride)
                for filter in 0..<5 {
                    candidates[filter].withUnsafeMutableBufferPointer { out in
                        out[0] = UInt8(filter)
                        PNGFilterChooser.apply(filter, row: r, previous: u, count: count, stride: stride, into: out.baseAddress! + 1)
                    }
                }
            }
        }
        return best
    }
}
