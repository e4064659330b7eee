import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// A tagged photo through the whole stack (issue 31): downloaded from a loopback server,
/// decoded, stored in memory and on disk, read back from each tier, and thumbnailed from the
/// cached original; every time in the photo's sRGB colours.
@Suite(.timeLimit(.minutes(5)))
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

    /// Keeping the profile (``ColorProfileHandling/keep``) through the stack: the kept image has
    /// the file's numbers and profile from the network, memory and disk; a default request for
    /// the same URL is never answered with it (and a keep request never with a converted image),
    /// and a transformed kept image stored on disk (re-encoded) keeps its profile.
    @Test func aKeptProfileNeverSharesAnEntryWithTheConvertedImage() async throws {
        let stack = try LoadingStack(routes: ["/p/photo.jpg": LoadingStack.route(Self.jpeg, contentType: "image/jpeg")])
        let keep = WebImageContext { $0.imageColorProfileHandling = .keep }
        let kept = try #require(try await stack.load("/p/photo.jpg", context: keep).image)
        #expect(kept.colorProfile?.data == ColorFixtures.proPhoto && !kept.metadata.contains(.colorConverted))
        #expect(ColorFixtures.meanDeltaE(kept.bitmap, Self.stored) < 1.5, "the file's numbers")

        let converted = try #require(try await stack.load("/p/photo.jpg").image)
        #expect(converted.colorProfile == nil && converted.metadata.contains(.colorConverted))
        #expect(ColorFixtures.meanDeltaE(converted.bitmap, ColorFixtures.photo) < 1.5)
        let keptAgain = try await stack.load("/p/photo.jpg", context: keep)
        #expect(keptAgain.cacheType == .memory && keptAgain.image?.colorProfile?.data == ColorFixtures.proPhoto)

        await stack.cache.clear(cacheType: .memory)
        let keptFromDisk = try await stack.load("/p/photo.jpg", context: keep)
        #expect(keptFromDisk.cacheType == .disk && keptFromDisk.image?.colorProfile?.data == ColorFixtures.proPhoto)
        let convertedFromDisk = try await stack.load("/p/photo.jpg")
        #expect(convertedFromDisk.cacheType == .disk && convertedFromDisk.image?.colorProfile == nil)
        #expect(try #require(convertedFromDisk.image).bitmap == converted.bitmap)

        // Kept, thumbnailed and transformed: stored re-encoded under its own key, profile embedded.
        let flipped = WebImageContext {
            $0.imageColorProfileHandling = .keep
            $0.imageThumbnailPixelSize = PixelSize(width: 48, height: 32)
            $0.imageTransformer = FlippingTransformer(horizontal: true, vertical: false)
        }
        let made = try #require(try await stack.load("/p/photo.jpg", context: flipped).image)
        #expect(made.colorProfile?.data == ColorFixtures.proPhoto && made.pixelSize == PixelSize(width: 48, height: 32))
        await stack.cache.clear(cacheType: .memory)
        let stored = try await stack.load("/p/photo.jpg", context: flipped)
        #expect(stored.cacheType == .disk && stored.image?.colorProfile?.data == ColorFixtures.proPhoto)
        #expect(stack.downloads("/p/photo.jpg") == 2, "one download for each original: kept and converted")
    }
}
