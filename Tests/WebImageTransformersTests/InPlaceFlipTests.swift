import Testing
import WebImageCore
import WebImageTestSupport
import WebImageTransformers

/// `Bitmap.flip(horizontal:vertical:)` and `rotate180()`: exact, in place when the storage is
/// not shared (no second buffer), copy-on-write when it is.
@Suite(.onOwnThreads) struct InPlaceFlipTests {
    static func address(_ bitmap: Bitmap) -> UInt {
        bitmap.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    @Test("an in-place flip moves every pixel where the mirror puts it", arguments: [(7, 5), (8, 6), (1, 9), (9, 1)])
    func pixelsLandInPlace(_ size: (Int, Int)) throws {
        let (width, height) = size
        let source = Pictures.noise(width: width, height: height, seed: 42)
        for (horizontal, vertical) in [(true, false), (false, true), (true, true)] {
            var flipped = source
            flipped.flip(horizontal: horizontal, vertical: vertical)
            for y in 0..<height {
                for x in 0..<width {
                    #expect(flipped[x, y] == source[horizontal ? width - 1 - x : x, vertical ? height - 1 - y : y])
                }
            }
            let transformed = try FlippingTransformer(horizontal: horizontal, vertical: vertical).transform(WebImage(bitmap: source), forKey: "k")
            #expect(transformed.bitmap == flipped)
        }
        var turned = source
        turned.rotate180()
        #expect(try RotationTransformer(angle: .pi).transform(WebImage(bitmap: source), forKey: "k").bitmap == turned)
    }

    @Test("a bitmap whose storage is not shared is flipped without a second buffer")
    func uniqueStorageStaysPut() throws {
        var bitmap = try Bitmap(width: 300, height: 200, fill: .white)
        bitmap[0, 0] = RGBAColor(red: 1, green: 2, blue: 3)
        let before = Self.address(bitmap)
        bitmap.flip(horizontal: true, vertical: true)
        #expect(Self.address(bitmap) == before)
        #expect(bitmap[299, 199] == RGBAColor(red: 1, green: 2, blue: 3))
    }

    @Test("a shared bitmap is copied once; the other holder keeps its pixels")
    func sharedStorageIsCopied() throws {
        let original = Pictures.noise(width: 6, height: 4, seed: 3)
        var copy = original
        copy.flip(horizontal: true, vertical: false)
        #expect(Self.address(copy) != Self.address(original))
        #expect(original == Pictures.noise(width: 6, height: 4, seed: 3))
        #expect(copy[0, 0] == original[5, 0])
    }

    @Test("rows with padding are flipped into a bitmap without padding")
    func paddedRows() throws {
        let tight = Pictures.noise(width: 5, height: 3, seed: 9)
        var padded: [UInt8] = []
        for y in 0..<3 {
            padded += tight.bytes[(y * 20)..<(y * 20 + 20)] + [0xAA, 0xAA, 0xAA, 0xAA]
        }
        let source = try Bitmap(width: 5, height: 3, bytesPerRow: 24, bytes: padded)
        let output = try FlippingTransformer(horizontal: true).transform(WebImage(bitmap: source), forKey: "k").bitmap
        var expected = tight
        expected.flip(horizontal: true, vertical: false)
        #expect(output == expected && output.bytesPerRow == 20)
    }
}
