import Foundation
import ICOCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// ICO encoding from a set of sizes.
@Suite(.onOwnThreads) struct EncodingTests {
    @Test func aSetOfSizesGivesOnePNGEntryEach() throws {
        let source = WebImage(bitmap: TestImages.gradient(width: 64, height: 64, seed: 3, alpha: true))
        let coder = ICOCoder(encodedSizes: [16, 32, 48, 300])
        let data = try coder.encode(source, as: .ico)
        #expect(ImageFormat.detect(data) == .ico)
        let entries = try coder.entries(in: data)
        #expect(entries.map(\.pixelSize.width) == [16, 32, 48, 256])
        #expect(entries.allSatisfy { $0.isPNG && $0.pixelSize.width == $0.pixelSize.height })
        #expect(try coder.decode(data).pixelSize == PixelSize(width: 256, height: 256))
    }

    @Test func aLargeImageIsFittedInto256() throws {
        let source = WebImage(bitmap: TestImages.gradient(width: 600, height: 300, seed: 4, alpha: false))
        let data = try ICOCoder().encode(source, as: .ico)
        #expect(try ICOCoder().decode(data).pixelSize == PixelSize(width: 256, height: 128))
    }

    @Test func onlyICOIsEncoded() {
        #expect(!ICOCoder().canEncode(to: .png))
        #expect(throws: WebImageError.self) { try ICOCoder().encode(WebImage(bitmap: TestImages.gradient(width: 4, height: 4, seed: 1, alpha: true)), as: .cur) }
    }
}
