import Foundation
import SwiftWebImage
import Testing
import TestSupport

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
