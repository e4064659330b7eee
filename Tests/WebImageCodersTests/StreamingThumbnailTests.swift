import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCoders
import WebImageCore

/// Still thumbnails of PNG (interlaced or not, every color type), BMP and GIF are made from the
/// rows as they are decoded (``BlockReducer``; GIF through ``FrameDownsampler``), never from a
/// full-size bitmap, and look like what a full decode resized gives.
///
/// For PNG and BMP the streamed thumbnail is bit-identical to a full decode reduced with
/// ``BoxReduction/thumbnail(_:to:)`` (integer box means, then Lanczos-3), and within a few
/// levels of the full decode resampled directly with Lanczos-3 (``Thumbnail/resize(_:to:)``,
/// what PNG thumbnails were before). Colors are compared premultiplied, as they show.
@Suite(.onOwnThreads) struct StreamingThumbnailTests {
    static let width = 203, height = 157
    static let fit = PixelSize(width: 40, height: 30)

    static func options(_ fit: PixelSize = fit) -> ImageDecodeOptions {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = fit
        return options
    }

    /// A smooth, photo-like pattern (gradients and soft waves) with values in 0...maximum.
    static func level(_ x: Int, _ y: Int, _ channel: Int, maximum: Int) -> Int {
        let u = Double(x) / Double(width), v = Double(y) / Double(height)
        let wave = sin(Double(x + channel * 17) / 9) * cos(Double(y - channel * 5) / 11)
        let value = 0.12 + u * 0.4 + v * 0.3 + Double(channel) * 0.05 + wave * 0.1
        return Int((min(1, max(0, value)) * Double(maximum)).rounded())
    }

    /// A smooth alpha with fully transparent, partly transparent and opaque areas.
    static func alpha(_ x: Int, _ y: Int, maximum: Int) -> Int {
        let ramp = 1.3 - Double(x) / Double(width) * 1.6 + sin(Double(y) / 13) * 0.2
        return Int((min(1, max(0, ramp)) * Double(maximum)).rounded())
    }

    /// The largest difference between two bitmaps of the same size, colors premultiplied by alpha.
    static func premultipliedMaxDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        precondition(a.size == b.size, "sizes differ: \(a.size) vs \(b.size)")
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                let pa = Int(p.alpha), qa = Int(q.alpha)
                worst = max(worst, abs(pa - qa))
                for (c, d) in [(p.red, q.red), (p.green, q.green), (p.blue, q.blue)] {
                    worst = max(worst, abs(Int(c) * pa / 255 - Int(d) * qa / 255))
                }
            }
        }
        return worst
    }

    /// The mean difference per channel between two bitmaps of the same size, colors
    /// premultiplied by alpha.
    static func premultipliedMeanDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                let pa = Int(p.alpha), qa = Int(q.alpha)
                total += abs(pa - qa)
                for (c, d) in [(p.red, q.red), (p.green, q.green), (p.blue, q.blue)] {
                    total += abs(Int(c) * pa / 255 - Int(d) * qa / 255)
                }
            }
        }
        return Double(total) / Double(a.width * a.height * 4)
    }

    /// Checks `data`'s thumbnail (made by `coder`) against its full decode, reduced and resampled.
    static func expectMatchesFullDecode(_ data: Data, coder: any ImageCoder, tolerance: Int = 6, meanTolerance: Double = 1,
                                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        let full = try coder.decode(data, options: ImageDecodeOptions())
        let thumbnail = try coder.decode(data, options: options())
        let target = options().targetPixelSize(for: full.pixelSize)
        #expect(thumbnail.pixelSize == target, sourceLocation: sourceLocation)
        #expect(thumbnail.metadata.contains(.thumbnail), sourceLocation: sourceLocation)
        #expect(thumbnail.hasAlpha == full.hasAlpha, sourceLocation: sourceLocation)
        #expect(BoxReduction.factors(from: full.pixelSize, to: target) != (1, 1), "the thumbnail streams", sourceLocation: sourceLocation)
        let reduced = try BoxReduction.thumbnail(full.bitmap, to: target)
        #expect(thumbnail.bitmap == reduced, "identical to a full decode reduced, then resampled", sourceLocation: sourceLocation)
        let direct = try Thumbnail.resize(full.bitmap, to: target)
        let difference = premultipliedMaxDifference(thumbnail.bitmap, direct)
        #expect(difference <= tolerance, "largest difference from a direct Lanczos-3 resample: \(difference)", sourceLocation: sourceLocation)
        let mean = premultipliedMeanDifference(thumbnail.bitmap, direct)
        #expect(mean <= meanTolerance, "mean difference from a direct Lanczos-3 resample: \(mean)", sourceLocation: sourceLocation)
        print("StreamingThumbnailTests: \(full.pixelSize) -> \(target): max difference \(difference), mean \(mean)")
    }

    // MARK: PNG

    /// One PNG case: color type, bit depth, and what the test adds (palette, tRNS).
    struct PNGCase: CustomTestStringConvertible, Sendable {
        let name: String
        let colorType: Int
        let bitDepth: Int
        var testDescription: String { name }
    }

    static let pngCases = [
        PNGCase(name: "RGB 8", colorType: 2, bitDepth: 8),
        PNGCase(name: "RGBA 8", colorType: 6, bitDepth: 8),
        PNGCase(name: "RGB 16", colorType: 2, bitDepth: 16),
        PNGCase(name: "RGBA 16", colorType: 6, bitDepth: 16),
        PNGCase(name: "gray + alpha 8", colorType: 4, bitDepth: 8),
        PNGCase(name: "gray + alpha 16", colorType: 4, bitDepth: 16),
        PNGCase(name: "gray 16 with a tRNS key", colorType: 0, bitDepth: 16),
        PNGCase(name: "gray 1", colorType: 0, bitDepth: 1),
        PNGCase(name: "RGB 8 with a tRNS key", colorType: 2, bitDepth: 8),
        PNGCase(name: "palette 8 with tRNS", colorType: 3, bitDepth: 8),
        PNGCase(name: "palette 4 with tRNS", colorType: 3, bitDepth: 4),
    ]

    /// The samples of pixel (x, y) for `pngCase`.
    static func samples(_ pngCase: PNGCase, _ x: Int, _ y: Int) -> [Int] {
        let maximum = (1 << pngCase.bitDepth) - 1
        switch pngCase.colorType {
        case 0:
            if pngCase.bitDepth == 1 { return [(x / 3 + y / 2) % 2] }
            return [level(x, y, 0, maximum: maximum)]
        case 2: return (0..<3).map { level(x, y, $0, maximum: maximum) }
        case 3: return [level(x, y, 0, maximum: maximum)]
        case 4: return [level(x, y, 0, maximum: maximum), alpha(x, y, maximum: maximum)]
        default: return (0..<3).map { level(x, y, $0, maximum: maximum) } + [alpha(x, y, maximum: maximum)]
        }
    }

    /// The chunks between IHDR and IDAT for `pngCase`: PLTE and tRNS.
    static func ancillary(_ pngCase: PNGCase, _ builder: inout PNGBuilder) {
        switch (pngCase.colorType, pngCase.name.contains("tRNS")) {
        case (3, _):
            let entries = 1 << pngCase.bitDepth
            var palette: [UInt8] = [], alphas: [UInt8] = []
            for i in 0..<entries {
                let step: Int = i * 255 / (entries - 1)
                palette += [UInt8(step), UInt8(255 - step), UInt8(step / 2 + 60)]
                alphas.append(i == 0 ? 0 : UInt8(255 - step / 3))
            }
            builder.chunk("PLTE", palette)
            builder.chunk("tRNS", alphas)
        case (0, true):
            builder.chunk("tRNS", PNGBuilder.be16(samples(pngCase, 0, 0)[0]))
        case (2, true):
            builder.chunk("tRNS", samples(pngCase, 5, 5).flatMap { PNGBuilder.be16($0) })
        default:
            break
        }
    }

    /// A PNG of `pngCase`'s pixels, interlaced (Adam7) or not.
    static func png(_ pngCase: PNGCase, interlaced: Bool, width: Int = width, height: Int = height) -> Data {
        var raw: [UInt8] = []
        let passes = interlaced ? PNGRaster.adam7 : [(0, 0, 1, 1)]
        for (x0, y0, dx, dy) in passes {
            let columns = Array(stride(from: x0, to: width, by: dx)), rows = Array(stride(from: y0, to: height, by: dy))
            guard !columns.isEmpty, !rows.isEmpty else { continue }
            raw += PNGBuilder.rawRows(rows.map { y in columns.flatMap { samples(pngCase, $0, y) } }, bitDepth: pngCase.bitDepth)
        }
        var builder = PNGBuilder()
        builder.header(width: width, height: height, bitDepth: pngCase.bitDepth, colorType: pngCase.colorType, interlaced: interlaced)
        ancillary(pngCase, &builder)
        builder.imageData(raw, chunks: 3)
        builder.end()
        return builder.data
    }

    @Test("a PNG thumbnail matches a full decode resized", arguments: pngCases, [false, true])
    func pngThumbnailMatchesFullDecode(_ pngCase: PNGCase, interlaced: Bool) throws {
        // 1-bit gray is a fine checkerboard: the box mean and a direct Lanczos differ most there.
        try Self.expectMatchesFullDecode(Self.png(pngCase, interlaced: interlaced), coder: PNGCoder(),
                                         tolerance: pngCase.bitDepth == 1 ? 12 : 6)
    }

    /// The server's shrink-on-load asks for the box reduction alone (`thumbnailBoxFactor`, with
    /// the reduced size as the thumbnail size): it is exactly the full decode's block means, no
    /// resample after; a size that is not that factor's reduction is an ordinary thumbnail.
    @Test("a box-factor thumbnail is the full decode's block means, nothing more", arguments: pngCases, [false, true])
    func boxFactorThumbnail(_ pngCase: PNGCase, interlaced: Bool) throws {
        let data = Self.png(pngCase, interlaced: interlaced)
        let full = try PNGCoder().decode(data, options: ImageDecodeOptions()).bitmap
        for factor in [2, 4] {
            var options = Self.options(PixelSize(width: (Self.width + factor - 1) / factor, height: (Self.height + factor - 1) / factor))
            options.preserveAspectRatio = false
            options.thumbnailBoxFactor = factor
            let image = try PNGCoder().decode(data, options: options)
            let expected = try BoxReduction.reduce(full, fx: factor, fy: factor)
            #expect(image.pixelSize == expected.size, "\(pngCase) factor \(factor)")
            #expect(image.bitmap.bytes == expected.bytes, "\(pngCase) interlaced \(interlaced) factor \(factor)")
            #expect(image.metadata.contains(.thumbnail))
        }
        var mismatched = Self.options(PixelSize(width: 60, height: 40))
        mismatched.preserveAspectRatio = false
        mismatched.thumbnailBoxFactor = 2
        #expect(try PNGCoder().decode(data, options: mismatched).bitmap == PNGCoder().decode(data, options: { var o = mismatched; o.thumbnailBoxFactor = nil; return o }()).bitmap)
    }

    @Test("interlaced and plain PNGs of the same pixels give the same thumbnail", arguments: pngCases)
    func interlacedAndPlainThumbnailsAgree(_ pngCase: PNGCase) throws {
        let plain = try PNGCoder().decode(Self.png(pngCase, interlaced: false), options: Self.options())
        let interlaced = try PNGCoder().decode(Self.png(pngCase, interlaced: true), options: Self.options())
        #expect(plain.bitmap == interlaced.bitmap)
    }

    /// Premultiplied averaging: the color of transparent pixels (here bright red) never bleeds
    /// into the thumbnail, and alpha is the mean alpha.
    @Test("transparent pixels lend no color", arguments: [false, true])
    func transparentPixelsLendNoColor(interlaced: Bool) throws {
        let pngCase = PNGCase(name: "RGBA 8", colorType: 6, bitDepth: 8)
        var raw: [UInt8] = []
        let width = 64, height = 64
        let passes = interlaced ? PNGRaster.adam7 : [(0, 0, 1, 1)]
        for (x0, y0, dx, dy) in passes {
            let columns = Array(stride(from: x0, to: width, by: dx)), rows = Array(stride(from: y0, to: height, by: dy))
            raw += PNGBuilder.rawRows(rows.map { _ in columns.flatMap { x in x % 2 == 0 ? [0, 200, 0, 255] : [255, 0, 0, 0] } }, bitDepth: 8)
        }
        var builder = PNGBuilder()
        builder.header(width: width, height: height, bitDepth: 8, colorType: pngCase.colorType, interlaced: interlaced)
        builder.imageData(raw)
        builder.end()
        let image = try PNGCoder().decode(builder.data, options: Self.options(PixelSize(width: 8, height: 8)))
        #expect(image.pixelSize == PixelSize(width: 8, height: 8))
        for y in 0..<8 {
            for x in 0..<8 {
                let pixel = image.bitmap[x, y]
                #expect(pixel.red == 0 && pixel.blue == 0 && pixel.green == 200, "\(pixel) at \(x), \(y)")
                #expect(abs(Int(pixel.alpha) - 128) <= 1, "\(pixel) at \(x), \(y)")
            }
        }
    }

    /// Data that ends inside the image: the thumbnail is the full decode's (missing pixels
    /// transparent) reduced, marked incremental.
    @Test("a truncated PNG thumbnails what arrived", arguments: [false, true])
    func truncatedPNG(interlaced: Bool) throws {
        let whole = Self.png(Self.pngCases[0], interlaced: interlaced)
        let data = whole.prefix(whole.count * 3 / 5)
        let full = try PNGCoder().decode(data, options: ImageDecodeOptions())
        let thumbnail = try PNGCoder().decode(data, options: Self.options())
        #expect(thumbnail.metadata.contains(.incremental))
        #expect(thumbnail.hasAlpha)
        let target = Self.options().targetPixelSize(for: full.pixelSize)
        #expect(thumbnail.bitmap == (try BoxReduction.thumbnail(full.bitmap, to: target)))
    }

    /// A thumbnail over a quarter of the source on a side has nothing to reduce: it is the full
    /// decode resampled, as before.
    @Test func aLargeThumbnailResamplesTheFullDecode() throws {
        let data = Self.png(Self.pngCases[1], interlaced: false)
        let fit = PixelSize(width: 120, height: 120)
        let target = Self.options(fit).targetPixelSize(for: PixelSize(width: Self.width, height: Self.height))
        #expect(BlockReducer(source: PixelSize(width: Self.width, height: Self.height), target: target, order: .contiguous) == nil)
        let thumbnail = try PNGCoder().decode(data, options: Self.options(fit))
        let full = try PNGCoder().decode(data, options: ImageDecodeOptions())
        #expect(thumbnail.bitmap == (try Thumbnail.resize(full.bitmap, to: target)))
    }

    /// The reducer's sums do not depend on arrival order: rows fed bottom-up, and pixels fed
    /// column-interleaved, give the same reduced image as rows in order.
    @Test func theReducerIsIndependentOfArrivalOrder() throws {
        let source = PixelSize(width: 37, height: 29), target = PixelSize(width: 5, height: 4)
        var pixels: [[UInt32]] = []
        for y in 0..<29 {
            var row: [UInt32] = []
            for x in 0..<37 {
                let r = UInt32(x * 7 % 256), g = UInt32(y * 9 % 256), b = UInt32((x + y) % 256), a = UInt32((x * y) % 256)
                row.append(r | g << 8 | b << 16 | a << 24)
            }
            pixels.append(row)
        }
        func reduced(_ feed: (inout BlockReducer) -> Void, order: BlockReducer.Order) throws -> Bitmap {
            var reducer = try #require(BlockReducer(source: source, target: target, order: order))
            feed(&reducer)
            return try reducer.reducedBitmap(hasAlpha: true)
        }
        let inOrder = try reduced({ reducer in
            for y in 0..<29 { pixels[y].withUnsafeBytes { reducer.add(row: y, pixels: $0.baseAddress!, count: 37) } }
        }, order: .contiguous)
        let bottomUp = try reduced({ reducer in
            for y in (0..<29).reversed() { pixels[y].withUnsafeBytes { reducer.add(row: y, pixels: $0.baseAddress!, count: 37) } }
        }, order: .contiguous)
        let scattered = try reduced({ reducer in
            for phase in 0..<3 {
                for y in stride(from: 28, through: 0, by: -1) {
                    let row = stride(from: phase, to: 37, by: 3).map { pixels[y][$0] }
                    row.withUnsafeBytes { reducer.add(row: y, pixels: $0.baseAddress!, firstColumn: phase, step: 3, count: row.count) }
                }
            }
        }, order: .any)
        var bytes: [UInt8] = []
        for row in pixels {
            for value in row {
                for shift in [0, 8, 16, 24] { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
            }
        }
        let bitmap = try Bitmap(width: 37, height: 29, bytes: bytes, hasAlpha: true)
        let (fx, fy) = BoxReduction.factors(from: source, to: target)
        let expected = try BoxReduction.reduce(bitmap, fx: fx, fy: fy)
        #expect(inOrder == expected)
        #expect(bottomUp == expected)
        #expect(scattered == expected)
    }

    // MARK: BMP

    static let bmpPalette: [[UInt8]] = (0..<256).map { (i: Int) -> [UInt8] in [UInt8(i), UInt8(255 - i), UInt8(i / 2 + 60)] }

    static func bmpRow(_ y: Int, bits: Int) -> [UInt8] {
        var row: [UInt8] = []
        for x in 0..<width {
            let r = UInt8(level(x, y, 0, maximum: 255)), g = UInt8(level(x, y, 1, maximum: 255)), b = UInt8(level(x, y, 2, maximum: 255))
            row += bits == 32 ? [b, g, r, UInt8(alpha(x, y, maximum: 255))] : [b, g, r]
        }
        while row.count % 4 != 0 { row.append(0) }
        return row
    }

    @Test("a BMP thumbnail matches a full decode resized", arguments: ["24-bit bottom-up", "24-bit top-down", "32-bit BITFIELDS with alpha", "8-bit palette", "RLE8 with a delta"])
    func bmpThumbnailMatchesFullDecode(_ kind: String) throws {
        let data: Data
        switch kind {
        case "24-bit bottom-up":
            data = BMPCoderTests.bmp(width: Self.width, height: Self.height, bits: 24, pixels: (0..<Self.height).reversed().flatMap { Self.bmpRow($0, bits: 24) })
        case "24-bit top-down":
            data = BMPCoderTests.bmp(width: Self.width, height: -Self.height, bits: 24, pixels: (0..<Self.height).flatMap { Self.bmpRow($0, bits: 24) })
        case "32-bit BITFIELDS with alpha":
            data = BMPCoderTests.bmpV4(width: Self.width, height: Self.height, bits: 32, compression: 3,
                                       masks: [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, Int(0xFF00_0000)],
                                       pixels: (0..<Self.height).reversed().flatMap { Self.bmpRow($0, bits: 32) })
        case "8-bit palette":
            let palette = Self.bmpPalette
            let rows = (0..<Self.height).reversed().flatMap { y in
                var row = (0..<Self.width).map { x in UInt8(Self.level(x, y, 0, maximum: 255)) }
                while row.count % 4 != 0 { row.append(0) }
                return row
            }
            data = BMPCoderTests.bmp(width: Self.width, height: Self.height, bits: 8, palette: palette, pixels: rows)
        default:
            // Runs of 4 pixels of one index, a delta that skips pixels and rows, end of bitmap.
            let palette = Self.bmpPalette
            var stream: [UInt8] = []
            for row in 0..<Self.height {
                if row == 40 {
                    stream += [0, 2, 30, 5]  // delta: 30 right, 5 rows up (rows 40...44 skip to 45, x = 30)
                }
                if (40..<45).contains(row) { continue }
                let start = row == 45 ? 30 : 0
                var x = start
                while x < Self.width {
                    let run = min(4, Self.width - x)
                    stream += [UInt8(run), UInt8(Self.level(x, Self.height - 1 - row, 0, maximum: 255))]
                    x += run
                }
                stream += [0, 0]
            }
            stream += [0, 1]
            data = BMPCoderTests.bmp(width: Self.width, height: Self.height, bits: 8, compression: 1, palette: palette, pixels: stream)
        }
        // The RLE delta leaves a transparent hole: at its hard edge Lanczos-3 rings and the box
        // mean does not, so the two differ more there.
        let rle = kind.hasPrefix("RLE")
        try Self.expectMatchesFullDecode(data, coder: BMPCoder(), tolerance: rle ? 40 : 6, meanTolerance: rle ? 2 : 1)
    }

    /// A V4 BI_RGB header that states an alpha mask while every alpha byte is 0 means opaque,
    /// on the streaming path as on the full one.
    @Test func bmpAlphaMaskWithZeroAlphaIsOpaqueInThumbnails() throws {
        let rows = (0..<Self.height).reversed().flatMap { y in
            Self.bmpRow(y, bits: 32).enumerated().map { $0.offset % 4 == 3 ? 0 : $0.element }
        }
        let data = BMPCoderTests.bmpV4(width: Self.width, height: Self.height, bits: 32, compression: 0,
                                       masks: [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, Int(0xFF00_0000)], pixels: rows)
        let thumbnail = try BMPCoder().decode(data, options: Self.options())
        #expect(!thumbnail.hasAlpha)
        #expect(thumbnail.bitmap[3, 3].alpha == 255)
        try Self.expectMatchesFullDecode(data, coder: BMPCoder())
    }

    // MARK: GIF

    /// GIF thumbnails are area means on the thumbnail's grid (``FrameDownsampler``), a box filter
    /// straight to the target: within a few levels of a full decode resampled with Lanczos-3
    /// on smooth content, for a still, and for the first frame of an animation.
    @Test("a GIF thumbnail matches a full decode resized", arguments: [false, true])
    func gifThumbnailMatchesFullDecode(firstFrameOfAnimation: Bool) throws {
        var bytes: [UInt8] = []
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                bytes += [UInt8(Self.level(x, y, 0, maximum: 255) / 32 * 32), UInt8(Self.level(x, y, 1, maximum: 255) / 64 * 64), 128, 255]
            }
        }
        let still = WebImage(bitmap: try Bitmap(width: Self.width, height: Self.height, bytes: bytes, hasAlpha: false))
        let source: WebImage
        if firstFrameOfAnimation {
            let other = WebImage(bitmap: try Bitmap(width: Self.width, height: Self.height, fill: .white, hasAlpha: false))
            source = try WebImage(frames: [ImageFrame(bitmap: still.bitmap, duration: 0.1), ImageFrame(bitmap: other.bitmap, duration: 0.1)], loopCount: 0)
        } else {
            source = still
        }
        let data = try GIFCoder().encode(source, as: .gif)
        var fullOptions = ImageDecodeOptions(), thumbnailOptions = Self.options()
        fullOptions.firstFrameOnly = firstFrameOfAnimation
        thumbnailOptions.firstFrameOnly = firstFrameOfAnimation
        let full = try GIFCoder().decode(data, options: fullOptions)
        let thumbnail = try GIFCoder().decode(data, options: thumbnailOptions)
        let target = thumbnailOptions.targetPixelSize(for: full.pixelSize)
        #expect(!thumbnail.isAnimated)
        #expect(thumbnail.pixelSize == target)
        #expect(thumbnail.metadata.contains(.thumbnail))
        let direct = try Thumbnail.resize(full.bitmap, to: target)
        let difference = Self.premultipliedMaxDifference(thumbnail.bitmap, direct)
        // Quantized steps of 32 and 64 levels: Lanczos rings at each step, the box mean does not.
        #expect(difference <= 24, "largest difference from a direct Lanczos-3 resample: \(difference)")
        var total = 0
        for y in 0..<target.height {
            for x in 0..<target.width {
                let p = thumbnail.bitmap[x, y], q = direct[x, y]
                total += abs(Int(p.red) - Int(q.red)) + abs(Int(p.green) - Int(q.green)) + abs(Int(p.blue) - Int(q.blue))
            }
        }
        let mean = Double(total) / Double(target.width * target.height * 3)
        #expect(mean <= 3, "mean difference \(mean)")
    }
}
