import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageServer

/// Shrink-on-load (issue 36): a source whose result is at least 2x smaller is decoded at a
/// reduced size that covers the result (a JPEG's DCT scaling), planned on the source's full
/// size, kept under its own key, and never stands in for a request that needs more pixels.
@Suite struct ServingShrinkOnLoadTests {
    /// A 1600x1200 (and a 1601x1201) photo-like JPEG, made once.
    static let photo = try! JPEGCoder().encode(WebImage(bitmap: Pixels.smooth(width: 1600, height: 1200)), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.9))
    static let oddPhoto = try! JPEGCoder().encode(WebImage(bitmap: Pixels.smooth(width: 1601, height: 1201)), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.9))

    /// A fixture with the photos under its root, recording the size of every loaded source.
    struct Server {
        let fixture: ServingFixture
        let loads = Locked<[(size: PixelSize, cacheType: ImageCacheType)]>([])

        init(shrinks: Bool = true) throws {
            fixture = try ServingFixture { $0.shrinksOnLoad = shrinks }
            try ServingShrinkOnLoadTests.photo.write(to: fixture.root.appendingPathComponent("big.jpg"))
            try ServingShrinkOnLoadTests.oddPhoto.write(to: fixture.root.appendingPathComponent("odd.jpg"))
            let loads = loads
            fixture.server.hooks.withLock { $0.afterLoad = { result in
                if let image = result.image { loads.withLock { $0.append((image.pixelSize, result.cacheType)) } }
            } }
        }

        /// The decoded answer to `path` (after `/unsafe/`), and the size its source was loaded at.
        func get(_ path: String) async throws -> (image: WebImage, loaded: PixelSize, cacheType: ImageCacheType) {
            let response = await fixture.get(path: "/unsafe/" + path)
            #expect(response.status == 200, "\(path): \(response.text)")
            let image = try ServingFixture.decode(response)
            let last = try #require(loads.withLock { $0.last })
            return (image, last.size, last.cacheType)
        }
    }

    @Test func aSmallFitInDecodesAtTheDCTScaleThatCoversIt() async throws {
        let server = try Server()
        let small = try await server.get("fit-in/200x150/filters:format(png)/big.jpg")
        #expect(small.image.pixelSize == PixelSize(width: 200, height: 150))
        #expect(small.loaded == PixelSize(width: 200, height: 150), "1/8 of 1600x1200 covers 200x150")
        // 700x525 needs 4/8 (3/8 gives 600x450).
        let larger = try await server.get("fit-in/700x525/filters:format(png)/big.jpg")
        #expect(larger.loaded == PixelSize(width: 800, height: 600))
        #expect(larger.image.pixelSize == PixelSize(width: 700, height: 525))
    }

    @Test func theResultMatchesAFullDecodesWithinTheResamplingDifference() async throws {
        let shrinking = try Server(), full = try Server(shrinks: false)
        for path in ["fit-in/200x150/filters:format(png)/big.jpg", "300x300/filters:format(png)/big.jpg", "100x100:900x700/200x150/filters:format(png)/big.jpg", "-180x-90/right/top/filters:format(png)/big.jpg"] {
            let reduced = try await shrinking.get(path), whole = try await full.get(path)
            #expect(reduced.loaded.width < 1600, "\(path) starts from a reduced decode")
            #expect(whole.loaded == PixelSize(width: 1600, height: 1200))
            #expect(reduced.image.pixelSize == whole.image.pixelSize, "\(path)")
            let psnr = Pixels.psnr(reduced.image.bitmap, whole.image.bitmap, includeAlpha: false)
            #expect(psnr >= 35, "\(path): \(psnr) dB from the full decode's result")
        }
    }

    /// Sizes are planned on the source's own size, never on the reduced one's (1601x1201 at 1/8
    /// is 201x151, whose aspect ratio rounds differently).
    @Test(arguments: ["fit-in/150x150/odd.jpg", "fit-in/199x0/odd.jpg", "0x149/odd.jpg", "full-fit-in/123x77/odd.jpg", "adaptive-fit-in/90x200/odd.jpg"])
    func sizesAreThoseOfTheFullSource(_ path: String) async throws {
        let reduced = try await Server().get(path), whole = try await Server(shrinks: false).get(path)
        #expect(reduced.loaded.width < 1601)
        #expect(reduced.image.pixelSize == whole.image.pixelSize)
    }

    @Test func theReducedDecodeIsReusedAndNeverAnswersALargerRequest() async throws {
        let server = try Server()
        _ = try await server.get("fit-in/200x150/big.jpg")
        // Another result of the same reduction (quality only): from the originals' memory.
        let again = try await server.get("fit-in/200x150/filters:quality(50)/big.jpg")
        #expect(again.cacheType == .memory)
        #expect(again.loaded == PixelSize(width: 200, height: 150))
        // The whole source: decoded at full size, not the reduced copy.
        let whole = try await server.get("filters:format(png)/big.jpg")
        #expect(whole.loaded == PixelSize(width: 1600, height: 1200))
        #expect(whole.image.pixelSize == PixelSize(width: 1600, height: 1200))
    }

    @Test(arguments: ["trim/200x150/big.jpg", "200x150/smart/big.jpg", "1200x900/big.jpg"])
    func requestsThatNeedTheSourcesPixelsDecodeItWhole(_ path: String) async throws {
        let result = try await Server().get(path)
        #expect(result.loaded == PixelSize(width: 1600, height: 1200), "\(path)")
    }

    @Test func anAnimatedSourceIsDecodedWhole() async throws {
        let server = try Server()
        let result = try await server.get("5x2/anim.gif")
        #expect(result.loaded == PixelSize(width: 20, height: 10))
        #expect(result.image.frameCount == 3)
    }

    @Test func offDecodesEverySourceWhole() async throws {
        let result = try await Server(shrinks: false).get("fit-in/200x150/big.jpg")
        #expect(result.loaded == PixelSize(width: 1600, height: 1200))
    }
}
