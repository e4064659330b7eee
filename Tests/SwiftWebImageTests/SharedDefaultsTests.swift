import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

@Suite struct SharedDefaultsTests {
    @Test func sharedManagersAreSingletons() {
        #expect(CodersManager.shared === CodersManager.shared)
        #expect(LoadersManager.shared === LoadersManager.shared)
        #expect(CachesManager.shared === CachesManager.shared)
    }

    @Test func umbrellaReExportsTheCore() {
        // These names come from WebImageCore through `import SwiftWebImage` alone.
        let format: ImageFormat = .png
        let options: WebImageOptions = [.retryFailed]
        #expect(format.fileExtension == "png")
        #expect(options.contains(.retryFailed))
        #expect(!SwiftWebImageInfo.version.isEmpty)
    }

    @Test func aCoderRegisteredOnTheSharedManagerIsUsed() throws {
        let magic: [UInt8] = [0xC0, 0xDE, 0x5A, 0x17]
        let coder = MockImageCoder(name: "launch-registered", magic: magic, format: .rawBitmap)
        CodersManager.shared.add(coder)
        defer { CodersManager.shared.remove(coder) }
        let image = try CodersManager.shared.decode(Data(magic + [0]))
        #expect(MockImageCoder.decoderName(of: image) == "launch-registered")
    }
}

@Suite struct SharedCodersTests {
    @Test func sharedCodersManagerHoldsTheBuiltInCodersJPEGFirst() throws {
        let names = CodersManager.shared.coders.map { String(describing: type(of: $0)) }
        #expect(Array(names.prefix(4)) == ["BMPCoder", "GIFCoder", "PNGCoder", "JPEGCoder"])
        for format in [ImageFormat.jpeg, .png, .gif, .bmp] {
            #expect(CodersManager.shared.canEncode(to: format), "\(format)")
        }
        // A round trip through the shared manager alone.
        let image = WebImage(bitmap: TestImages.gradient(width: 20, height: 10, alpha: true))
        let png = try CodersManager.shared.encode(image, as: .png)
        #expect(ImageFormat.detect(png) == .png)
        #expect(try CodersManager.shared.decode(png).bitmap == image.bitmap)
    }
}

@Suite struct SharedWiringTests {
    @Test func sharedCachesManagerHoldsTheSharedImageCacheWithTheSharedCoders() throws {
        let members = CachesManager.shared.caches
        let cache = try #require(members.first as? WebImageCache)
        #expect(members.count >= 1)
        #expect(cache === WebImageCache.shared)
        #expect((cache.coder as? CodersManager) === CodersManager.shared)
    }

    @Test func sharedLoadersManagerHoldsDownloaderFileAndDataLoaders() throws {
        let loaders = LoadersManager.shared.loaders
        #expect((loaders.first as? Downloader) === Downloader.shared)
        #expect(LoadersManager.shared.canRequestImage(for: URL(string: "https://example.com/a.png")!))
        #expect(LoadersManager.shared.canRequestImage(for: URL(fileURLWithPath: "/tmp/a.png")))
        #expect(LoadersManager.shared.canRequestImage(for: URL(string: "data:image/png;base64,AAAA")!))
    }

    @Test func sharedManagerLoadsADataURLEndToEnd() async throws {
        let png = try PNGCoder().encode(WebImage(bitmap: TestImages.gradient(width: 7, height: 5)), as: .png)
        let url = URL(string: "data:image/png;base64,\(png.base64EncodedString())")!
        let result = try await ImageManager.shared.loadImage(with: url, options: [.fromLoaderOnly], context: WebImageContext { $0.storeCacheType = ImageCacheType.none })
        #expect(result.image?.pixelSize == PixelSize(width: 7, height: 5))
    }
}
