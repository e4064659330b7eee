import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// A tagged photo through the whole stack (issue 31): downloaded from a loopback server,
/// decoded, stored in memory and on disk, read back from each tier, and thumbnailed from the
/// cached original; every time in the photo's sRGB colours.
@Suite(.timeLimit(.minutes(1)))
struct ColorManagedLoadTests {
    static let stored = ColorFixtures.intoSpace(ColorFixtures.photo, ColorFixtures.proPhoto)
    static let jpeg = ColorFixtures.tagJPEG(try! JPEGCoder().encode(WebImage(bitmap: stored), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 1)), ColorFixtures.proPhoto)

    @Test func aProPhotoJPEGIsSRGBFromNetworkMemoryDiskAndAsAThumbnail() async throws {
        let stack = try LoadingStack(routes: ["/p/photo.jpg": LoadingStack.route(Self.jpeg, contentType: "image/jpeg")])
        let network = try #require(try await stack.load("/p/photo.jpg").image)
        #expect(network.metadata.contains(.colorConverted))
        #expect(ColorFixtures.meanDeltaE(network.bitmap, ColorFixtures.photo) < 1.5)

        let memory = try #require(try await stack.load("/p/photo.jpg").image)
        #expect(memory.bitmap == network.bitmap)
        await stack.cache.clear(cacheType: .memory)
        let disk = try await stack.load("/p/photo.jpg")
        #expect(disk.cacheType == .disk)
        let fromDisk = try #require(disk.image)
        #expect(ColorFixtures.meanDeltaE(fromDisk.bitmap, ColorFixtures.photo) < 1.5, "the disk tier keeps the file; its decode converts again")

        let thumbnail = try #require(try await stack.load("/p/photo.jpg", context: WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 48, height: 32) }).image)
        #expect(thumbnail.pixelSize == PixelSize(width: 48, height: 32))
        let reference = try ColorFixtures.photo.resampled(to: PixelSize(width: 48, height: 32), filter: .lanczos3)
        #expect(ColorFixtures.meanDeltaE(thumbnail.bitmap, reference) < 2)
        #expect(stack.downloads("/p/photo.jpg") == 1)
    }
}
