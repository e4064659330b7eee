import Foundation
import Testing
import WebImageCaches
import WebImageCore
import WebImageTestSupport

/// A lazily transformed animation (``WebImage/Storage/transformed(_:)``) has no encoded data of
/// its own: stored without data, the cache encodes its frames; it never stores the source's
/// bytes under the transformed image's key.
@Suite struct TransformedAnimationStoreTests {
    let root = TestDirectory()

    init() {
        RawBitmapCoder.registerFormat()
    }

    @Test("a lazily transformed animation is stored as its transformed frames, not its source's data")
    func storesTheTransformedFrames() async throws {
        let source = TestImages.animated(frames: 3, width: 6, height: 4)
        let sourceData = try RawBitmapCoder().encode(source, as: .rawBitmap)
        let lazy = try RawBitmapCoder().decode(sourceData)
        let inverted = try lazy.mappingFrames(transformerKey: "invert") { bitmap in
            var out = bitmap
            for index in out.bytes.indices where index % 4 != 3 { out.bytes[index] = 255 - out.bytes[index] }
            return out
        }
        guard case .transformed = inverted.storage else {
            Issue.record("a transformed lazy animation should be lazily transformed")
            return
        }
        let cache = WebImageCache(namespace: "test", directory: root.url, coder: RawBitmapCoder())
        try await cache.store(inverted, forKey: "inverted")
        let stored = try #require(cache.diskImageData(forKey: "inverted"))
        #expect(stored != sourceData)
        let decoded = try RawBitmapCoder().decode(stored)
        #expect(decoded.frameCount == 3 && decoded.frameDurations == source.frameDurations)
        for index in 0..<3 {
            #expect(try decoded.frame(at: index).bitmap == inverted.frame(at: index).bitmap)
            #expect(try decoded.frame(at: index).bitmap != source.frame(at: index).bitmap)
        }
    }
}
