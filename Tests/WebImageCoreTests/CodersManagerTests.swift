import Foundation
import Testing
import WebImageTestSupport
import WebImageCore

@Suite struct CodersManagerTests {
    let alpha = MockImageCoder(name: "alpha", magic: [0xA1], format: .png)
    let beta = MockImageCoder(name: "beta", magic: [0xA1], format: .png)
    let gamma = MockImageCoder(name: "gamma", magic: [0xA1, 0xB2], format: .png)

    @Test func lastAddedCoderDecodesFirst() throws {
        let manager = CodersManager([alpha])
        manager.add(beta)
        let image = try manager.decode(Data([0xA1, 0x00]))
        #expect(MockImageCoder.decoderName(of: image) == "beta")
        #expect(alpha.decodeCount == 0)
    }

    @Test func initialListIsInRegistrationOrder() throws {
        let manager = CodersManager([alpha, beta, gamma])
        #expect(manager.coders.map { ($0 as! MockImageCoder).name } == ["alpha", "beta", "gamma"])
        // gamma is last, and claims 0xA1 0xB2, so it wins for that data only.
        #expect(MockImageCoder.decoderName(of: try manager.decode(Data([0xA1, 0xB2]))) == "gamma")
        #expect(MockImageCoder.decoderName(of: try manager.decode(Data([0xA1, 0x00]))) == "beta")
    }

    @Test func failingCoderFallsThroughToTheNextCapableOne() throws {
        let manager = CodersManager([alpha, beta])
        beta.error = WebImageError(.badImageData, "beta cannot")
        let image = try manager.decode(Data([0xA1]))
        #expect(MockImageCoder.decoderName(of: image) == "alpha")
        #expect(beta.decodeCount == 1)
        #expect(alpha.decodeCount == 1)
    }

    @Test func whenEveryCapableCoderFailsThePreferredCodersErrorIsThrown() throws {
        let manager = CodersManager([alpha, beta])
        alpha.error = WebImageError(.badImageData, "alpha cannot")
        beta.error = WebImageError(.badImageData, "beta cannot")
        let error = try #require(throws: WebImageError.self) { try manager.decode(Data([0xA1])) }
        #expect(error.message == "beta cannot")
    }

    @Test func coderThatCannotDecodeIsNeverAsked() throws {
        let other = MockImageCoder(name: "other", magic: [0xFF], format: .jpeg)
        let manager = CodersManager([alpha, other])
        _ = try manager.decode(Data([0xA1]))
        #expect(other.decodeCount == 0)
    }

    @Test func noCapableCoderIsUnsupportedFormat() throws {
        let manager = CodersManager([alpha])
        let error = try #require(throws: WebImageError.self) { try manager.decode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0])) }
        #expect(error.code == .unsupportedFormat)
        #expect(error.message.contains("12 bytes"))
        #expect(error.message.contains("png"))
    }

    @Test func emptyDataIsBadImageData() throws {
        let error = try #require(throws: WebImageError.self) { try CodersManager([alpha]).decode(Data()) }
        #expect(error.code == .badImageData)
    }

    @Test func encodeUsesLastAddedCapableCoderAndFallsThrough() throws {
        let jpeg = MockImageCoder(name: "jpeg", magic: [0xFF], format: .jpeg)
        let manager = CodersManager([alpha, jpeg, beta])
        let image = TestImages.still()
        #expect(try manager.encode(image, as: .png) == Data([0xA1] + Array("beta".utf8)))
        beta.error = WebImageError(.encodingFailed, "beta cannot")
        #expect(try manager.encode(image, as: .png) == Data([0xA1] + Array("alpha".utf8)))
        #expect(try manager.encode(image, as: .jpeg) == Data([0xFF] + Array("jpeg".utf8)))
        let error = try #require(throws: WebImageError.self) { try manager.encode(image, as: .gif) }
        #expect(error.code == .unsupportedFormat)
        #expect(manager.canEncode(to: .png))
        #expect(!manager.canEncode(to: .gif))
    }

    @Test func removeByIdentityAndByPredicate() throws {
        let manager = CodersManager([alpha, beta, gamma])
        manager.remove(beta)
        #expect(manager.coders.count == 2)
        #expect(MockImageCoder.decoderName(of: try manager.decode(Data([0xA1]))) == "alpha")
        manager.removeAll { ($0 as? MockImageCoder)?.name == "alpha" }
        #expect(!manager.canDecode(Data([0xA1, 0x00])))
        #expect(manager.canDecode(Data([0xA1, 0xB2])))
        manager.coders = []
        #expect(!manager.canDecode(Data([0xA1, 0xB2])))
    }

    @Test func progressiveDecoderPicksItsCoderWhenDataArrives() throws {
        let manager = CodersManager([RawBitmapCoder(), alpha])
        let source = TestImages.still(width: 4, height: 4)
        let data = try RawBitmapCoder().encode(source, as: .rawBitmap)
        #expect(manager.canIncrementallyDecode(data.prefix(4)))
        #expect(!manager.canIncrementallyDecode(Data([0xA1])))
        let decoder = manager.makeIncrementalDecoder(options: ImageDecodeOptions())
        #expect(decoder.currentImage() == nil)
        decoder.update(data: data.prefix(28 + 4 + 16 * 2), finished: false)
        let partial = try #require(decoder.currentImage())
        #expect(partial.metadata.contains(.incremental))
        #expect(partial.bitmap[0, 1] == source.bitmap[0, 1])
        #expect(partial.bitmap[0, 3].alpha == 0)
        decoder.update(data: data, finished: true)
        let full = try #require(decoder.currentImage())
        #expect(!full.metadata.contains(.incremental))
        #expect(full.bitmap == source.bitmap)
    }

    @Test func animatedProviderComesFromTheFirstAnimatedCoderThatAccepts() throws {
        let manager = CodersManager([RawBitmapCoder(), alpha])
        let data = try RawBitmapCoder().encode(TestImages.animated(frames: 4), as: .rawBitmap)
        let provider = try manager.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        #expect(provider.frameCount == 4)
        let error = try #require(throws: WebImageError.self) {
            try manager.makeAnimatedImageProvider(for: Data([0xA1]), options: ImageDecodeOptions())
        }
        #expect(error.code == .unsupportedFormat)
    }
}
