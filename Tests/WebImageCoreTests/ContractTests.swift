import Foundation
import Testing
import WebImageTestSupport
import WebImageCore

/// The contract suites run on the Core's own caches and coders: the mock cache, a
/// `CachesManager` of mocks, the test format's coder and a `CodersManager` around it.
@Suite struct ContractTests {
    init() { RawBitmapCoder.registerFormat() }

    @Test(arguments: ImageCacheContract.Check.allCases)
    func mockCacheMeetsTheCacheContract(_ check: ImageCacheContract.Check) async throws {
        try await ImageCacheContract.verify(check, on: MockImageCache())
    }

    @Test(arguments: ImageCacheContract.Check.allCases)
    func cachesManagerMeetsTheCacheContract(_ check: ImageCacheContract.Check) async throws {
        let manager = CachesManager([MockImageCache(name: "low"), MockImageCache(name: "high")])
        try await ImageCacheContract.verify(check, on: manager)
    }

    @Test(arguments: ImageCoderContract.Check.allCases)
    func rawBitmapCoderMeetsTheCoderContract(_ check: ImageCoderContract.Check) throws {
        try ImageCoderContract.verify(check, subject: .init(coder: RawBitmapCoder(), format: .rawBitmap))
    }

    @Test(arguments: ImageCoderContract.Check.allCases)
    func codersManagerMeetsTheCoderContract(_ check: ImageCoderContract.Check) throws {
        let manager = CodersManager([MockImageCoder(name: "other", magic: [0xA1], format: .png), RawBitmapCoder()])
        try ImageCoderContract.verify(check, subject: .init(coder: manager, format: .rawBitmap))
    }

    @Test func rawBitmapAnimationIsLazyAndRoundTrips() throws {
        let source = TestImages.animated(frames: 5, loopCount: 3)
        let data = try RawBitmapCoder().encode(source, as: .rawBitmap)
        #expect(ImageFormat.detectDetails(data) == ImageFormatDetection(format: .rawBitmap, isAnimated: true))
        let decoded = try RawBitmapCoder().decode(data)
        #expect(decoded.isLazilyAnimated)
        #expect(decoded.frameCount == 5)
        #expect(decoded.loopCount == 3)
        #expect(decoded.frameDurations == [0.1, 0.1, 0.1, 0.1, 0.1])
        for index in 0..<5 {
            #expect(try decoded.frame(at: index).bitmap == source.frame(at: index).bitmap)
        }
        var preload = ImageDecodeOptions()
        preload.preloadAllFrames = true
        #expect(try !RawBitmapCoder().decode(data, options: preload).isLazilyAnimated)
        var first = ImageDecodeOptions()
        first.firstFrameOnly = true
        #expect(try RawBitmapCoder().decode(data, options: first).frameCount == 1)
    }

    @Test func rawBitmapHeaderOverThePixelLimitIsRejectedBeforeAllocation() throws {
        var header = Array("WIRAW1\0\0".utf8)
        for value in [UInt32(1_000_000), 1_000_000, 1, UInt32(bitPattern: -1)] {
            withUnsafeBytes(of: value.littleEndian) { header.append(contentsOf: $0) }
        }
        header += [1, 0, 0, 0]
        let error = try #require(throws: WebImageError.self) { try RawBitmapCoder().decode(Data(header)) }
        #expect(error.code == .imageTooLarge)
    }
}
