import Testing
import WebImageCore

/// ``Bitmap`` construction, pixel access, alpha and value semantics; ``PixelSize`` arithmetic.
@Suite struct BitmapTests {
    static let red = RGBAColor(red: 255, green: 0, blue: 0)
    static let translucentBlue = RGBAColor(red: 0, green: 0, blue: 255, alpha: 128)

    /// Expects `body` to throw a ``WebImageError`` with `code`.
    static func expectError(_ code: WebImageError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Bitmap) {
        do {
            let bitmap = try body()
            Issue.record("expected \(code), got a \(bitmap.width)x\(bitmap.height) bitmap", sourceLocation: sourceLocation)
        } catch let error as WebImageError {
            #expect(error.code == code, sourceLocation: sourceLocation)
            #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected WebImageError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - Fill initializer

    @Test func defaultFillIsClear() throws {
        let bitmap = try Bitmap(width: 3, height: 2)
        #expect(bitmap.width == 3)
        #expect(bitmap.height == 2)
        #expect(bitmap.bytesPerRow == 12)
        #expect(bitmap.byteCount == 24)
        #expect(bitmap.bytes == [UInt8](repeating: 0, count: 24))
        #expect(bitmap.hasAlpha)
        #expect(bitmap.size == PixelSize(width: 3, height: 2))
        #expect(bitmap[2, 1] == .clear)
    }

    @Test("fill writes every pixel", arguments: [RGBAColor.black, .white, BitmapTests.red, BitmapTests.translucentBlue, RGBAColor(red: 1, green: 2, blue: 3, alpha: 4)])
    func fill(_ color: RGBAColor) throws {
        let bitmap = try Bitmap(width: 5, height: 3, fill: color)
        #expect(bitmap.byteCount == 5 * 3 * 4)
        for y in 0..<3 {
            for x in 0..<5 {
                #expect(bitmap[x, y] == color, "pixel (\(x), \(y))")
            }
        }
        #expect(bitmap.bytes == Array([[UInt8]](repeating: [color.red, color.green, color.blue, color.alpha], count: 15).joined()))
    }

    @Test("empty bitmaps are allowed", arguments: [(0, 0), (0, 5), (5, 0)])
    func emptyBitmap(width: Int, height: Int) throws {
        let bitmap = try Bitmap(width: width, height: height, fill: Self.red)
        #expect(bitmap.byteCount == 0)
        #expect(bitmap.bytes.isEmpty)
        #expect(bitmap.size.isEmpty)
        #expect(bitmap.bytesPerRow == width * 4)
        #expect(bitmap.isOpaque)
    }

    @Test("negative sides throw invalidArgument", arguments: [(-1, 1), (1, -1), (-1, -1), (Int.min, 1), (1, Int.min)])
    func negativeFillSize(width: Int, height: Int) {
        Self.expectError(.invalidArgument) { try Bitmap(width: width, height: height) }
        Self.expectError(.invalidArgument) { try Bitmap(width: width, height: height, bytes: []) }
    }

    @Test("sizes whose byte count overflows throw invalidArgument", arguments: [
        (Int.max, 1), (1, Int.max), (Int.max, Int.max), (Int.max / 4 + 1, 1), (1 << 32, 1 << 32), (1 << 31, 1 << 31),
    ])
    func overflowingSize(width: Int, height: Int) {
        Self.expectError(.invalidArgument) { try Bitmap(width: width, height: height) }
        Self.expectError(.invalidArgument) { try Bitmap(width: width, height: height, fill: Self.red) }
        Self.expectError(.invalidArgument) { try Bitmap(width: width, height: height, bytes: [0, 0, 0, 0]) }
    }

    // MARK: - Bytes initializer

    @Test func bytesAreKeptAsGiven() throws {
        let bytes: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
        let bitmap = try Bitmap(width: 2, height: 2, bytes: bytes, hasAlpha: false)
        #expect(bitmap.bytes == bytes)
        #expect(bitmap.bytesPerRow == 8)
        #expect(bitmap.hasAlpha == false)
        #expect(bitmap[0, 0] == RGBAColor(red: 1, green: 2, blue: 3, alpha: 4))
        #expect(bitmap[1, 0] == RGBAColor(red: 5, green: 6, blue: 7, alpha: 8))
        #expect(bitmap[0, 1] == RGBAColor(red: 9, green: 10, blue: 11, alpha: 12))
        #expect(bitmap[1, 1] == RGBAColor(red: 13, green: 14, blue: 15, alpha: 16))
    }

    @Test func paddedRowsAreAddressedByBytesPerRow() throws {
        // 2x3 pixels, 12 bytes per row: 4 bytes of padding (0xEE) at the end of each row.
        var bytes: [UInt8] = []
        for y in 0..<3 {
            for x in 0..<2 { bytes += [UInt8(x), UInt8(y), 100, 255] }
            bytes += [0xEE, 0xEE, 0xEE, 0xEE]
        }
        var bitmap = try Bitmap(width: 2, height: 3, bytesPerRow: 12, bytes: bytes)
        #expect(bitmap.bytesPerRow == 12)
        #expect(bitmap.byteCount == 36)
        for y in 0..<3 {
            for x in 0..<2 {
                #expect(bitmap[x, y] == RGBAColor(red: UInt8(x), green: UInt8(y), blue: 100, alpha: 255))
            }
        }
        // The padding has alpha-like bytes that are not 255, yet the image is opaque.
        #expect(bitmap.isOpaque)
        bitmap[1, 2] = Self.translucentBlue
        #expect(bitmap[1, 2] == Self.translucentBlue)
        #expect(Array(bitmap.bytes[24 + 4..<24 + 8]) == [0, 0, 255, 128])
        #expect(Array(bitmap.bytes[32..<36]) == [0xEE, 0xEE, 0xEE, 0xEE])
        #expect(bitmap.isOpaque == false)
    }

    @Test("too few bytes throw invalidArgument", arguments: [
        (2, 2, nil as Int?, 15), (2, 2, nil, 0), (1, 1, nil, 3), (2, 3, 12, 35), (2, 3, 12, 24), (4, 4, 20, 79),
    ])
    func tooFewBytes(width: Int, height: Int, bytesPerRow: Int?, count: Int) {
        Self.expectError(.invalidArgument) {
            try Bitmap(width: width, height: height, bytesPerRow: bytesPerRow, bytes: [UInt8](repeating: 7, count: count))
        }
    }

    @Test("exact byte counts are accepted", arguments: [
        (2, 2, nil as Int?, 16), (1, 1, nil, 4), (2, 3, 12, 36), (4, 4, 20, 80), (3, 1, 13, 13), (0, 4, 8, 32),
    ])
    func exactBytes(width: Int, height: Int, bytesPerRow: Int?, count: Int) throws {
        let bitmap = try Bitmap(width: width, height: height, bytesPerRow: bytesPerRow, bytes: [UInt8](repeating: 7, count: count))
        #expect(bitmap.byteCount == count)
        #expect(bitmap.bytesPerRow == bytesPerRow ?? width * 4)
    }

    @Test func extraBytesAreTrimmedToTheBitmap() throws {
        // More bytes than the sizes need: the bitmap keeps exactly bytesPerRow * height of them.
        let bytes = [UInt8](1...20)
        let bitmap = try Bitmap(width: 2, height: 2, bytes: bytes)
        #expect(bitmap.byteCount == 16)
        #expect(bitmap.bytes == [UInt8](1...16))
    }

    @Test("bytesPerRow smaller than width x 4 throws invalidArgument", arguments: [0, 4, 7, -8, Int.min])
    func shortRows(_ bytesPerRow: Int) {
        Self.expectError(.invalidArgument) {
            try Bitmap(width: 2, height: 2, bytesPerRow: bytesPerRow, bytes: [UInt8](repeating: 0, count: 64))
        }
    }

    @Test func bytesPerRowTimesHeightOverflowThrows() {
        Self.expectError(.invalidArgument) {
            try Bitmap(width: 1, height: 2, bytesPerRow: Int.max, bytes: [0, 0, 0, 0, 0, 0, 0, 0])
        }
        Self.expectError(.invalidArgument) {
            try Bitmap(width: 1, height: 4, bytesPerRow: Int.max / 2, bytes: [0, 0, 0, 0])
        }
    }

    @Test func invalidArgumentErrorNamesTheSizes() {
        do {
            _ = try Bitmap(width: 2, height: 2, bytes: [1, 2, 3])
            Issue.record("expected an error")
        } catch let error as WebImageError {
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("2x2"))
            #expect(error.message.contains("3"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    // MARK: - Pixels

    @Test func subscriptSetAndGet() throws {
        var bitmap = try Bitmap(width: 4, height: 3, fill: .white)
        bitmap[0, 0] = Self.red
        bitmap[3, 2] = Self.translucentBlue
        bitmap[2, 1] = RGBAColor(red: 9, green: 8, blue: 7, alpha: 6)
        #expect(bitmap[0, 0] == Self.red)
        #expect(bitmap[3, 2] == Self.translucentBlue)
        #expect(bitmap[2, 1] == RGBAColor(red: 9, green: 8, blue: 7, alpha: 6))
        #expect(bitmap[1, 0] == .white)
        #expect(bitmap[3, 1] == .white)
        // Row-major, top-left first: (2, 1) is at (1 * 16 + 2 * 4).
        #expect(Array(bitmap.bytes[24..<28]) == [9, 8, 7, 6])
        #expect(Array(bitmap.bytes[44..<48]) == [0, 0, 255, 128])
    }

    @Test func everyPixelAddressIsDistinct() throws {
        var bitmap = try Bitmap(width: 7, height: 5)
        for y in 0..<5 {
            for x in 0..<7 { bitmap[x, y] = RGBAColor(red: UInt8(x), green: UInt8(y), blue: UInt8(x * 7 + y), alpha: 255) }
        }
        for y in 0..<5 {
            for x in 0..<7 {
                #expect(bitmap[x, y] == RGBAColor(red: UInt8(x), green: UInt8(y), blue: UInt8(x * 7 + y), alpha: 255))
            }
        }
    }

    // MARK: - Alpha

    @Test func isOpaqueScansEveryPixel() throws {
        var bitmap = try Bitmap(width: 4, height: 4, fill: .black)
        #expect(bitmap.isOpaque)
        bitmap[3, 3] = RGBAColor(red: 0, green: 0, blue: 0, alpha: 254)
        #expect(bitmap.isOpaque == false)
        bitmap[3, 3] = .black
        bitmap[0, 0] = .clear
        #expect(bitmap.isOpaque == false)
        let clear = try Bitmap(width: 2, height: 2)
        #expect(clear.isOpaque == false)
    }

    @Test func hasAlphaIsAFlagIndependentOfThePixels() throws {
        let opaquePixelsWithAlpha = try Bitmap(width: 2, height: 2, fill: .white, hasAlpha: true)
        #expect(opaquePixelsWithAlpha.hasAlpha)
        #expect(opaquePixelsWithAlpha.isOpaque)
        var flagged = try Bitmap(width: 2, height: 2, fill: .clear, hasAlpha: false)
        #expect(flagged.hasAlpha == false)
        #expect(flagged.isOpaque == false)
        flagged.hasAlpha = true
        #expect(flagged.hasAlpha)
        let defaulted = try Bitmap(width: 1, height: 1, bytes: [1, 2, 3, 255])
        let opaque = try Bitmap(width: 1, height: 1, bytes: [1, 2, 3, 255], hasAlpha: false)
        #expect(defaulted.hasAlpha)
        #expect(opaque.hasAlpha == false)
    }

    // MARK: - Value semantics

    @Test func copyThenMutateLeavesTheOriginalUnchanged() throws {
        let original = try Bitmap(width: 3, height: 3, fill: Self.red)
        var copy = original
        copy[1, 1] = Self.translucentBlue
        copy.hasAlpha = false
        #expect(original[1, 1] == Self.red)
        #expect(original.hasAlpha)
        #expect(original.bytes == Array([[UInt8]](repeating: [255, 0, 0, 255], count: 9).joined()))
        #expect(copy[1, 1] == Self.translucentBlue)
        #expect(copy != original)
    }

    @Test func mutatingTheBytesArrayOfACopyLeavesTheOriginalUnchanged() throws {
        let original = try Bitmap(width: 2, height: 1, fill: .white)
        var copy = original
        copy.bytes[0] = 0
        #expect(original.bytes[0] == 255)
        #expect(copy[0, 0] == RGBAColor(red: 0, green: 255, blue: 255))
    }

    @Test func equalityAndHashing() throws {
        let a = try Bitmap(width: 2, height: 2, fill: Self.red)
        let b = try Bitmap(width: 2, height: 2, bytes: Array([[UInt8]](repeating: [255, 0, 0, 255], count: 4).joined()))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        let otherShape = try Bitmap(width: 4, height: 1, fill: Self.red)
        let otherFlag = try Bitmap(width: 2, height: 2, fill: Self.red, hasAlpha: false)
        #expect(a != otherShape)
        #expect(a != otherFlag)
    }

    @Test func bytesPerPixelIsFour() {
        #expect(Bitmap.bytesPerPixel == 4)
    }

    // MARK: - PixelSize

    @Test("pixelCount", arguments: [
        (0, 0, 0 as Int?), (1, 1, 1), (3, 4, 12), (0, 1000, 0), (1 << 31, 1 << 31, 1 << 62),
        (Int.max, 1, Int.max), (Int.max, 2, nil), (1 << 32, 1 << 32, nil), (Int.min, 2, nil), (Int.max, Int.max, nil),
    ])
    func pixelCount(width: Int, height: Int, expected: Int?) {
        #expect(PixelSize(width: width, height: height).pixelCount == expected)
    }

    @Test func pixelSizeBasics() {
        #expect(PixelSize.zero == PixelSize(width: 0, height: 0))
        #expect(PixelSize.zero.isEmpty)
        #expect(PixelSize(width: 0, height: 5).isEmpty)
        #expect(PixelSize(width: 5, height: -1).isEmpty)
        #expect(PixelSize(width: 1, height: 1).isEmpty == false)
        #expect(PixelSize(width: 640, height: 480).description == "640x480")
    }
}
