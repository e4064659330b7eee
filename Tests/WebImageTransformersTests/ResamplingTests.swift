import Testing
import WebImageTestSupport
import WebImageCore

/// Core's ``Bitmap/resampled(to:filter:)``, checked against a slow 2-D reference written from
/// the kernel definitions (``Reference``), and against values worked out by hand.
@Suite(.onOwnThreads) struct ResamplingTests {
    static let filters = ResamplingFilter.allCases
    static let convolutionFilters: [ResamplingFilter] = [.box, .bilinear, .bicubic, .lanczos3]
    static let sizes: [(PixelSize, PixelSize)] = [
        (PixelSize(width: 16, height: 12), PixelSize(width: 5, height: 4)),    // reduce
        (PixelSize(width: 7, height: 5), PixelSize(width: 15, height: 11)),    // enlarge
        (PixelSize(width: 13, height: 9), PixelSize(width: 13, height: 4)),    // one direction only
        (PixelSize(width: 12, height: 16), PixelSize(width: 12, height: 8)),   // one direction, vertical first for box
        (PixelSize(width: 4, height: 40), PixelSize(width: 40, height: 4)),    // wide <-> tall
        (PixelSize(width: 40, height: 3), PixelSize(width: 3, height: 30)),
        (PixelSize(width: 1, height: 1), PixelSize(width: 3, height: 2)),
        (PixelSize(width: 30, height: 20), PixelSize(width: 1, height: 1)),
    ]

    @Test("the output has exactly the asked size", arguments: filters)
    func exactSize(filter: ResamplingFilter) throws {
        for (from, to) in Self.sizes {
            let output = try Pictures.noise(width: from.width, height: from.height).resampled(to: to, filter: filter)
            #expect(output.size == to)
            #expect(output.bytes.count == to.width * to.height * 4)
            #expect(output.hasAlpha)
        }
    }

    @Test("an empty target size or an empty bitmap is invalidArgument", arguments: [
        PixelSize(width: 0, height: 5), PixelSize(width: 5, height: 0), PixelSize(width: -1, height: 3),
    ])
    func emptySize(size: PixelSize) throws {
        let error = #expect(throws: WebImageError.self) { try TestBitmaps.gray.resampled(to: size) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("\(size)") == true)
        let empty = try Bitmap(width: 0, height: 0)
        let second = #expect(throws: WebImageError.self) { try empty.resampled(to: PixelSize(width: 2, height: 2)) }
        #expect(second?.code == .invalidArgument)
    }

    @Test("a target over the pixel limit throws instead of allocating")
    func tooLarge() {
        let error = #expect(throws: WebImageError.self) {
            try TestBitmaps.gray.resampled(to: PixelSize(width: 1 << 20, height: 1 << 20))
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test("a solid color stays exactly that color", arguments: filters, [
        RGBAColor(red: 200, green: 30, blue: 90), RGBAColor(red: 10, green: 200, blue: 30, alpha: 128),
        RGBAColor(red: 201, green: 99, blue: 7, alpha: 1), RGBAColor(red: 255, green: 255, blue: 255, alpha: 254),
    ])
    func solidColor(filter: ResamplingFilter, color: RGBAColor) throws {
        for (from, to) in Self.sizes {
            let solid = try Bitmap(width: from.width, height: from.height, fill: color)
            let output = try solid.resampled(to: to, filter: filter)
            #expect(Set(Pictures.pixels(output)) == [color], "\(from) -> \(to)")
        }
    }

    @Test("matches the 2-D reference within 1 level", arguments: convolutionFilters)
    func matchesReference(filter: ResamplingFilter) throws {
        for (from, to) in Self.sizes {
            for source in [Pictures.noise(width: from.width, height: from.height),
                           TestBitmaps.gradient(width: from.width, height: from.height)] {
                let output = try source.resampled(to: to, filter: filter)
                let expected = Reference.resample(source, to: to, filter: filter)
                #expect(Reference.maxDifference(output, expected) <= 1.0, "\(filter) \(from) -> \(to)")
            }
        }
    }

    /// The same pixels, flagged opaque: ``Bitmap/hasAlpha`` `false` takes the engine's opaque
    /// form (no premultiply, no divide per output pixel).
    static func opaque(_ bitmap: Bitmap) throws -> Bitmap {
        var bytes = bitmap.bytes
        for index in Swift.stride(from: 3, to: bytes.count, by: 4) { bytes[index] = 255 }
        return try Bitmap(width: bitmap.width, height: bitmap.height, bytesPerRow: bitmap.bytesPerRow, bytes: bytes, hasAlpha: false)
    }

    @Test("an opaque bitmap matches the 2-D reference and the premultiplied form within 1 level, alpha 255", arguments: convolutionFilters)
    func opaqueForm(filter: ResamplingFilter) throws {
        for (from, to) in Self.sizes + [(PixelSize(width: 750, height: 500), PixelSize(width: 512, height: 341))] {
            for source in [Pictures.noise(width: from.width, height: from.height),
                           TestBitmaps.gradient(width: from.width, height: from.height)] {
                let opaque = try Self.opaque(source)
                var flagged = opaque
                flagged.hasAlpha = true  // the same pixels through the premultiplied form
                let output = try opaque.resampled(to: to, filter: filter)
                let premultiplied = try flagged.resampled(to: to, filter: filter)
                #expect(!output.hasAlpha)
                #expect(Pictures.pixels(output).allSatisfy { $0.alpha == 255 }, "\(filter) \(from) -> \(to)")
                #expect(zip(output.bytes, premultiplied.bytes).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(filter) \(from) -> \(to)")
                if from.width <= 40 {
                    #expect(Reference.maxDifference(output, Reference.resample(opaque, to: to, filter: filter)) <= 1.0, "\(filter) \(from) -> \(to)")
                }
            }
        }
    }

    @Test("an opaque solid color stays exactly that color", arguments: filters)
    func opaqueSolidColor(filter: ResamplingFilter) throws {
        for (from, to) in Self.sizes {
            let color = RGBAColor(red: 200, green: 30, blue: 255)
            let solid = try Bitmap(width: from.width, height: from.height, fill: color, hasAlpha: false)
            #expect(Set(Pictures.pixels(try solid.resampled(to: to, filter: filter))) == [color], "\(from) -> \(to)")
        }
    }

    @Test("rows padded with junk bytes give the same result", arguments: filters)
    func paddedRows(filter: ResamplingFilter) throws {
        let source = Pictures.noise(width: 11, height: 9)
        let target = PixelSize(width: 6, height: 13)
        #expect(try Pictures.padded(source).resampled(to: target, filter: filter) == source.resampled(to: target, filter: filter))
    }

    @Test("box halves a 1-pixel checkerboard to mid-gray (127.5 -> 127 or 128)")
    func checkerboardBox() throws {
        let output = try Pictures.checkerboard(width: 16, height: 16).resampled(to: PixelSize(width: 8, height: 8), filter: .box)
        for pixel in Pictures.pixels(output) {
            #expect([127, 128].contains(pixel.red) && pixel.red == pixel.green && pixel.green == pixel.blue && pixel.alpha == 255)
        }
        #expect(!output.hasAlpha)
    }

    @Test("reducing a checkerboard of 4-pixel cells by 4 gives back the cells exactly", arguments: filters)
    func checkerboardCells(filter: ResamplingFilter) throws {
        // Each output pixel's window lies inside one cell for box and nearest; wider kernels
        // reach the neighbours, so only those two are exact.
        guard filter == .box || filter == .nearest else { return }
        let output = try Pictures.checkerboard(width: 32, height: 24, cell: 4).resampled(to: PixelSize(width: 8, height: 6), filter: filter)
        #expect(output == Pictures.checkerboard(width: 8, height: 6))
    }

    @Test("bilinear enlargement of a linear ramp is linear interpolation")
    func rampBilinear() throws {
        // Source x has value 10 + 20 x; output pixel i sits at source coordinate (i + 0.5) / 2 - 0.5.
        var ramp = try Bitmap(width: 12, height: 1)
        for x in 0..<12 { ramp[x, 0] = RGBAColor(red: UInt8(10 + 20 * x), green: 0, blue: 0) }
        let output = try ramp.resampled(to: PixelSize(width: 24, height: 1), filter: .bilinear)
        for i in 1..<23 {
            let position = (Double(i) + 0.5) / 2 - 0.5
            let expected = 10 + 20 * position
            #expect(abs(Double(output[i, 0].red) - expected) <= 0.5 + 1e-9, "pixel \(i)")
        }
        // Past the last center the edge pixel repeats (clamp to edge).
        #expect(output[23, 0].red == 230)
        #expect(output[0, 0].red == 10)
    }

    @Test("nearest copies source pixels exactly")
    func nearestCopies() throws {
        let source = Pictures.noise(width: 10, height: 6)
        let output = try source.resampled(to: PixelSize(width: 25, height: 4), filter: .nearest)
        for y in 0..<4 {
            for x in 0..<25 {
                let sx = min(9, Int((Double(x) + 0.5) * 10 / 25))
                let sy = min(5, Int((Double(y) + 0.5) * 6 / 4))
                #expect(output[x, y] == source[sx, sy])
            }
        }
    }

    @Test("no dark or light fringe: red next to transparent white stays pure red", arguments: convolutionFilters)
    func noHalo(filter: ResamplingFilter) throws {
        let source = Pictures.redNextToTransparentWhite()
        for target in [PixelSize(width: 7, height: 3), PixelSize(width: 37, height: 11)] {
            let output = try source.resampled(to: target, filter: filter)
            var sawEdge = false
            for pixel in Pictures.pixels(output) where pixel.alpha > 0 {
                #expect(pixel.red == 255 && pixel.green == 0 && pixel.blue == 0, "\(filter) \(target): \(pixel)")
                if pixel.alpha < 250 { sawEdge = true }
            }
            // (Box enlargement replicates pixels: no partial alpha there.)
            if filter != .box || target.width < source.width {
                #expect(sawEdge, "the edge should be partially transparent")
            }
        }
    }

    @Test("resampling to the same size returns the pixels unchanged", arguments: filters)
    func identity(filter: ResamplingFilter) throws {
        let source = Pictures.noise(width: 9, height: 7)
        #expect(try source.resampled(to: source.size, filter: filter) == source)
    }

    @Test("the kernels have their documented values")
    func kernelValues() {
        for filter in Self.filters where filter != .nearest {
            for x in stride(from: -3.5, through: 3.5, by: 0.125) {
                #expect(abs(filter.weight(at: x) - Reference.kernel(filter, x)) < 1e-12, "\(filter) at \(x)")
            }
            #expect(filter.support == Reference.support(filter))
        }
    }
}

/// Small fixed bitmaps.
enum TestBitmaps {
    static let gray = try! Bitmap(width: 4, height: 4, fill: RGBAColor(red: 128, green: 128, blue: 128))

    /// A gradient with a varying alpha.
    static func gradient(width: Int, height: Int) -> Bitmap {
        var bitmap = try! Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                bitmap[x, y] = RGBAColor(
                    red: UInt8(x * 255 / max(1, width - 1)), green: UInt8(y * 255 / max(1, height - 1)),
                    blue: 77, alpha: UInt8(40 + (x + y) * 215 / max(1, width + height - 2)))
            }
        }
        return bitmap
    }
}
