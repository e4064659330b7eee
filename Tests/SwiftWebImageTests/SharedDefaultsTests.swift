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
