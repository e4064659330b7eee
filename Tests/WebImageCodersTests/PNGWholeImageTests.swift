import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCoders
import WebImageCore

/// The whole-image PNG fast path (libdeflate in one call, vectorised unfilter) against the
/// streaming zlib decoder, and the vectorised filter code against the PNG specification's
/// arithmetic written out byte by byte.
@Suite(.onOwnThreads) struct PNGWholeImageTests {
    /// (color type, bit depth, tRNS payload) of every format the fast path takes.
    static let formats: [(Int, Int, [UInt8]?)] = [
        (0, 1, nil), (0, 2, nil), (0, 4, nil), (0, 8, nil), (0, 8, [0, 77]), (0, 16, nil), (0, 16, [1, 2]),
        (2, 8, nil), (2, 8, [0, 10, 0, 20, 0, 30]),
        (3, 1, nil), (3, 2, nil), (3, 4, nil), (3, 8, nil), (3, 8, [0, 128, 255]),
        (4, 8, nil), (4, 16, nil), (6, 8, nil),
    ]

    /// Random filtered rows (every filter type in turn, random bytes: any bytes are valid
    /// filtered data) of a `width` x `height` image, type byte first.
    static func filteredRows(width: Int, height: Int, bitsPerPixel: Int, seed: UInt64, rows: Int? = nil) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        let rowBytes = (width * bitsPerPixel + 7) / 8
        var raw: [UInt8] = []
        for y in 0..<(rows ?? height) {
            raw.append(UInt8(y % 5))
            for _ in 0..<rowBytes { raw.append(UInt8(truncatingIfNeeded: generator.next())) }
        }
        return raw
    }

    static func file(width: Int, height: Int, colorType: Int, bitDepth: Int, transparency: [UInt8]?, raw: [UInt8], chunks: Int = 1) -> Data {
        var png = PNGBuilder()
        png.header(width: width, height: height, bitDepth: bitDepth, colorType: colorType)
        if colorType == 3 { png.chunk("PLTE", (0..<(1 << bitDepth) * 3).map { UInt8(truncatingIfNeeded: $0 * 37) }) }
        if let transparency { png.chunk("tRNS", transparency) }
        png.imageData(raw, chunks: chunks)
        png.end()
        return png.data
    }

    /// The fast path's pixels, and the streaming decoder's.
    static func bothPaths(_ data: Data) throws -> (fast: [UInt8]?, streaming: [UInt8], complete: Bool) {
        try data.withUnsafeBytes { raw in
            let file = try PNGFile.parse(raw)
            let (width, height) = (file.header.width, file.header.height)
            let fast = try PNGWholeImageDecoder.decode(raw, ranges: file.imageData, width: width, height: height, format: file.format)
            var complete = false
            let streaming = try PixelBuffer.make(count: width * height * 4) { buffer in
                complete = try PNGRaster.decode(raw, ranges: file.imageData, width: width, height: height, format: file.format, into: buffer.baseAddress!)
            }
            return (fast, streaming, complete)
        }
    }

    @Test("the fast path gives the streaming decoder's pixels for every format it takes", arguments: formats.indices)
    func fastPathMatchesStreaming(_ index: Int) throws {
        let (colorType, bitDepth, transparency) = Self.formats[index]
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]!
        for (width, height, chunks) in [(37, 11, 1), (1, 3, 1), (64, 5, 4)] {
            let raw = Self.filteredRows(width: width, height: height, bitsPerPixel: channels * bitDepth, seed: UInt64(index * 100 + width))
            let data = Self.file(width: width, height: height, colorType: colorType, bitDepth: bitDepth, transparency: transparency, raw: raw, chunks: chunks)
            let (fast, streaming, complete) = try Self.bothPaths(data)
            #expect(complete)
            #expect(try #require(fast, "type \(colorType) depth \(bitDepth) \(width)x\(height)") == streaming, "type \(colorType) depth \(bitDepth) \(width)x\(height)")
        }
    }

    @Test("interlaced and 48/64-bit images take the streaming decoder", arguments: [(2, 16, false), (6, 16, false), (6, 8, true), (0, 8, true)])
    func otherFormatsAreNotTaken(_ format: (Int, Int, Bool)) throws {
        let pixelFormat = PNGFile.PixelFormat(bitDepth: format.1, colorType: format.0, interlaced: format.2, palette: [], colorKey: nil)
        #expect(!PNGWholeImageDecoder.accepts(pixelFormat))
    }

    @Test("image data that inflates past the rows is left to the streaming decoder, which reads only the rows")
    func dataBeyondTheRowsFallsBack() throws {
        let (width, height) = (19, 6)
        let exact = Self.filteredRows(width: width, height: height, bitsPerPixel: 32, seed: 9)
        let longer = Self.filteredRows(width: width, height: height, bitsPerPixel: 32, seed: 9, rows: height + 40)
        #expect(Array(longer.prefix(exact.count)) == exact)
        let data = Self.file(width: width, height: height, colorType: 6, bitDepth: 8, transparency: nil, raw: longer)
        let (fast, streaming, complete) = try Self.bothPaths(data)
        #expect(fast == nil)
        #expect(complete)
        let reference = Self.file(width: width, height: height, colorType: 6, bitDepth: 8, transparency: nil, raw: exact)
        #expect(try Self.bothPaths(reference).fast == streaming)
        #expect(try PNGCoder().decode(data).bitmap.bytes == streaming)
    }

    @Test("image data that ends before the last row is left to the streaming decoder: the rows that arrived")
    func dataShortOfTheRowsFallsBack() throws {
        let (width, height) = (8, 6)
        let short = Self.filteredRows(width: width, height: height, bitsPerPixel: 24, seed: 4, rows: 4)
        let data = Self.file(width: width, height: height, colorType: 2, bitDepth: 8, transparency: nil, raw: short)
        let (fast, _, complete) = try Self.bothPaths(data)
        #expect(fast == nil)
        #expect(!complete)
        let image = try PNGCoder().decode(data)
        #expect(image.metadata.contains(.incremental))
        #expect(image.bitmap[7, 3].alpha == 255)
        #expect(image.bitmap[0, 4].alpha == 0)
    }

    @Test("a bad zlib header is left to the streaming decoder, which names it")
    func badZlibHeaderFallsBack() throws {
        var raw = Self.filteredRows(width: 4, height: 2, bitsPerPixel: 8, seed: 1)
        raw[0] = 0
        var png = PNGBuilder()
        png.header(width: 4, height: 2, bitDepth: 8, colorType: 0)
        var stream = PNGBuilder.zlibStored(raw)
        stream[0] = 0x77
        png.chunk("IDAT", stream)
        png.end()
        let error = try #require(throws: WebImageError.self) { try PNGCoder().decode(png.data) }
        #expect(error.message.contains("zlib header"))
    }

    // MARK: unfilter

    /// The specification's reconstruction, a byte at a time.
    static func referenceUnfilter(type: UInt8, row: [UInt8], previous: [UInt8], stride: Int) -> [UInt8] {
        var out = row
        for i in row.indices {
            let a = i >= stride ? Int(out[i - stride]) : 0, b = Int(previous[i]), c = i >= stride ? Int(previous[i - stride]) : 0
            let predictor: Int
            switch type {
            case 0: predictor = 0
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            default:
                let p = a + b - c
                let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            }
            out[i] = UInt8(truncatingIfNeeded: Int(row[i]) + predictor)
        }
        return out
    }

    @Test("vectorised and scalar unfiltering match the specification for every filter and pixel size",
          arguments: [1, 2, 3, 4, 6, 8], [true, false])
    func unfilterMatchesTheSpecification(_ stride: Int, vectorised: Bool) throws {
        var generator = SplitMix64(seed: UInt64(stride))
        for count in [stride, stride * 5, stride * 33] {
            let row = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let previous = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            for type in UInt8(0)...4 {
                let expected = Self.referenceUnfilter(type: type, row: row, previous: previous, stride: stride)
                var separate = [UInt8](repeating: 0, count: count)
                try row.withUnsafeBufferPointer { source in
                    try previous.withUnsafeBufferPointer { above in
                        try separate.withUnsafeMutableBufferPointer { target in
                            try PNGUnfilter.row(type: type, source: source.baseAddress!, previous: above.baseAddress!, target: target.baseAddress!,
                                               count: count, stride: stride, vectorised: vectorised)
                        }
                    }
                }
                #expect(separate == expected, "type \(type), stride \(stride), \(count) bytes")
                // In place, the target a few bytes before the source (as the RGBA fast path does).
                for shift in [0, 1, 5] {
                    var buffer = [UInt8](repeating: 0, count: shift) + row
                    try previous.withUnsafeBufferPointer { above in
                        try buffer.withUnsafeMutableBufferPointer { buffer in
                            let base = buffer.baseAddress!
                            try PNGUnfilter.row(type: type, source: base + shift, previous: above.baseAddress!, target: base, count: count, stride: stride, vectorised: vectorised)
                        }
                    }
                    #expect(Array(buffer.prefix(count)) == expected, "type \(type), stride \(stride), \(count) bytes, shifted \(shift)")
                }
            }
        }
    }

    @Test("an unknown filter type is bad image data")
    func unknownFilterType() throws {
        let row: [UInt8] = [1, 2]
        var target: [UInt8] = [0, 0]
        let error = try #require(throws: WebImageError.self) {
            try row.withUnsafeBufferPointer { source in
                try target.withUnsafeMutableBufferPointer { out in
                    try PNGUnfilter.row(type: 5, source: source.baseAddress!, previous: source.baseAddress!, target: out.baseAddress!, count: 2, stride: 1)
                }
            }
        }
        #expect(error.code == .badImageData)
    }

    // MARK: filter choice (encoding)

    @Test("vectorised and scalar filter costs and filtered rows match the specification", arguments: [1, 3, 4], [true, false])
    func filterChoiceMatchesTheSpecification(_ stride: Int, vectorised: Bool) {
        var generator = SplitMix64(seed: 40 + UInt64(stride))
        for count in [stride * 3, stride * 16 + stride, stride * 700] {
            // Smooth rows (small differences) with noise, so that the filters' costs differ.
            let previous = (0..<count).map { i in UInt8(truncatingIfNeeded: i / stride * 3 + Int(generator.next() % 9)) }
            let row = previous.map { $0 &+ UInt8(truncatingIfNeeded: generator.next() % 7) }
            let pad = [UInt8](repeating: 0, count: stride)
            let paddedRow = pad + row, paddedPrevious = pad + previous
            var costs: [Int] = []
            paddedRow.withUnsafeBufferPointer { r in
                paddedPrevious.withUnsafeBufferPointer { u in
                    let c = PNGFilterChooser.costs(row: r.baseAddress! + stride, previous: u.baseAddress! + stride, count: count, stride: stride, vectorised: vectorised)
                    costs = [c.0, c.1, c.2, c.3, c.4]
                    for type in 0..<5 {
                        var filtered = [UInt8](repeating: 0, count: count)
                        filtered.withUnsafeMutableBufferPointer { out in
                            PNGFilterChooser.apply(type, row: r.baseAddress! + stride, previous: u.baseAddress! + stride, count: count, stride: stride,
                                                   into: out.baseAddress!, vectorised: vectorised)
                        }
                        // Filtering then unfiltering gives the row back, and the cost is the filtered bytes' cost.
                        #expect(Self.referenceUnfilter(type: UInt8(type), row: filtered, previous: previous, stride: stride) == row, "type \(type)")
                        #expect(costs[type] == filtered.reduce(0) { $0 + ($1 < 128 ? Int($1) : 256 - Int($1)) }, "type \(type)")
                    }
                }
            }
            var candidates = [[UInt8]](repeating: [UInt8](repeating: 0, count: count + 1), count: 5)
            let chosen = PNGEncoding.chooseFilter(row, previous, stride: stride, into: &candidates)
            #expect(chosen == costs.indices.min { costs[$0] < costs[$1] || (costs[$0] == costs[$1] && $0 < $1) })
        }
    }
}
