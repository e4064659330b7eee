import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
import WebPCoder
import HEIFCoder
@testable import WebImageServer

/// Shrink-on-load (issue 36): a JPEG source whose result is at least 2x smaller, with no crop, is
/// decoded at the largest DCT reduction (1/2, 1/4, 1/8) that covers the result, as thumbor's
/// `draft`, planned on the source's full size, kept under its own key, and never stands in for a
/// request that needs more pixels.
@Suite struct ServingShrinkOnLoadTests {
    /// A 1600x1200 (and a 1601x1201) photo-like JPEG, made once.
    static let photo = try! JPEGCoder().encode(WebImage(bitmap: Pixels.smooth(width: 1600, height: 1200)), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.9))
    static let png = try! PNGCoder().encode(WebImage(bitmap: Pixels.smooth(width: 1600, height: 1200)), as: .png)
    /// The photo as a lossy WebP, and as a HEIC that stores a 400x300 thumbnail.
    static let webp = try! WebPCoder().encode(WebImage(bitmap: Pixels.smooth(width: 1600, height: 1200)), as: .webp, options: ImageEncodeOptions(compressionQuality: 0.9))
    static let heic: Data? = {
        guard HEIFCoder().canEncode(to: .heic) else { return nil }
        var options = ImageEncodeOptions(compressionQuality: 0.9)
        options.embedThumbnail = true
        return try! HEIFCoder(embeddedThumbnailSide: 400).encode(WebImage(bitmap: Pixels.smooth(width: 1600, height: 1200)), as: .heic, options: options)
    }()
    static let oddPNG = try! PNGCoder().encode(WebImage(bitmap: Pixels.smooth(width: 1601, height: 1201)), as: .png)
    static let oddPhoto = try! JPEGCoder().encode(WebImage(bitmap: Pixels.smooth(width: 1601, height: 1201)), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.9))

    /// A fixture with the photos under its root, recording the size of every loaded source.
    struct Server {
        let fixture: ServingFixture
        let loads = Locked<[(size: PixelSize, cacheType: ImageCacheType)]>([])

        init(shrinks: Bool = true, originals: (any ImageCache)? = nil, configure: (inout ImageServerConfiguration) -> Void = { _ in }) throws {
            fixture = try ServingFixture(originalsCache: originals) {
                $0.shrinksOnLoad = shrinks
                configure(&$0)
            }
            try ServingShrinkOnLoadTests.photo.writeWithoutSync(to: fixture.root.appendingPathComponent("big.jpg"))
            try ServingShrinkOnLoadTests.oddPhoto.writeWithoutSync(to: fixture.root.appendingPathComponent("odd.jpg"))
            try ServingShrinkOnLoadTests.png.writeWithoutSync(to: fixture.root.appendingPathComponent("big.png"))
            try ServingShrinkOnLoadTests.oddPNG.writeWithoutSync(to: fixture.root.appendingPathComponent("odd.png"))
            try ServingShrinkOnLoadTests.webp.writeWithoutSync(to: fixture.root.appendingPathComponent("big.webp"))
            try ServingShrinkOnLoadTests.heic?.writeWithoutSync(to: fixture.root.appendingPathComponent("big.heic"))
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
        for path in ["fit-in/200x150/filters:format(png)/big.jpg", "400x0/filters:format(png)/big.jpg", "-200x-150/filters:format(png)/big.jpg", "full-fit-in/300x100/filters:format(png)/big.jpg"] {
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
    @Test(arguments: ["fit-in/150x150/odd.jpg", "fit-in/199x0/odd.jpg", "fit-in/0x149/odd.jpg", "full-fit-in/123x77/odd.jpg", "adaptive-fit-in/90x200/odd.jpg"])
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

    /// As thumbor: a crop (manual, or to another aspect ratio) is made on the whole image
    /// (Pillow's crop loads it before `draft` could reduce it), and so are `trim`, `smart`, a
    /// reduction under 2x (for WebP and PNG: no copy covers the result twice).
    @Test(arguments: ["trim/200x150/big.jpg", "1200x900/big.jpg", "300x300/big.jpg", "100x100:900x700/200x150/big.jpg", "-180x-90/right/top/big.jpg", "300x300/big.png", "fit-in/900x675/big.png", "300x300/big.webp", "fit-in/900x675/big.webp"])
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

    /// `smart` is a centre crop by default (thumbor's without a detector): reduced as any other
    /// request; with the attention crop, which looks at the source, whole.
    @Test func smartIsReducedUnlessTheAttentionCropLooks() async throws {
        let centre = try await Server().get("fit-in/200x150/smart/big.jpg")
        #expect(centre.loaded == PixelSize(width: 200, height: 150))
        let attention = try Server(configure: { $0.smartCrop = .attention })
        #expect(try await attention.get("fit-in/200x150/smart/big.jpg").loaded == PixelSize(width: 1600, height: 1200))
    }

    @Test func offDecodesEverySourceWhole() async throws {
        let result = try await Server(shrinks: false).get("fit-in/200x150/big.jpg")
        #expect(result.loaded == PixelSize(width: 1600, height: 1200))
    }

    /// Requests that decode the source whole and reduced, at once for one new source, each get
    /// their own decode: never the other's (a crop from a reduced decode, or a reduction from
    /// the whole one).
    @Test func concurrentWholeAndReducedDecodesNeverMix() async throws {
        let paths = ["300x300/filters:format(png)/big.jpg", "fit-in/200x150/filters:format(png)/big.jpg"]
        var expected: [String: Bitmap] = [:]
        for path in paths {
            expected[path] = try await Server().get(path).image.bitmap
        }
        for _ in 0..<3 {
            let server = try Server()
            let results = try await withThrowingTaskGroup(of: (String, Bitmap).self) { group in
                for index in 0..<8 {
                    let path = paths[index % 2]
                    group.addTask { (path, try await server.get(path).image.bitmap) }
                }
                return try await group.reduce(into: [(String, Bitmap)]()) { $0.append($1) }
            }
            for (path, bitmap) in results {
                #expect(bitmap == expected[path], "\(path) from a decode of its own kind")
            }
        }
    }

    /// With the production caches (memory and disk): a source first decoded whole (a crop) and
    /// then asked for a reduced size is decoded reduced from the disk cache's bytes, not resized
    /// from the whole original in memory.
    @Test func aReducedDecodeComesFromTheDiskCacheBytesAfterAWholeOne() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shrink-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Server(originals: WebImageCache(namespace: "originals", directory: folder, coder: ServingFixture.coders))
        let whole = try await server.get("-286x87/filters:fill(abc):watermark(b.png,center,30p,8,36,37)/big.jpg")
        #expect(whole.image.pixelSize == PixelSize(width: 286, height: 87))
        let reduced = try await server.get("fit-in/200x150/big.jpg")
        #expect(reduced.loaded == PixelSize(width: 200, height: 150))
        #expect(reduced.cacheType == .disk)
    }
    /// A WebP (which thumbor decodes whole) is decoded by libwebp's scaled decode at the largest
    /// power-of-two reduction that covers twice the result, so Lanczos still does the last 2x;
    /// a result that no reduction covers twice decodes whole.
    /// A PNG the same way, by its coder's streaming reducer (block means at 1/2, 1/4, ...).
    @Test(arguments: ["webp", "png"])
    func aWebPOrPNGIsDecodedScaledToCoverTwiceTheResult(_ format: String) async throws {
        let server = try Server()
        #expect(try await server.get("fit-in/200x150/big.\(format)").loaded == PixelSize(width: 400, height: 300))
        #expect(try await server.get("fit-in/390x290/big.\(format)").loaded == PixelSize(width: 800, height: 600))
        #expect(try await server.get("fit-in/700x525/big.\(format)").loaded == PixelSize(width: 1600, height: 1200))
    }

    /// A PNG's block means are taken only at a factor that divides both sides: a partial last
    /// block would move the picture by up to half an answer pixel.
    @Test func aPNGWithAnOddSideIsDecodedWhole() async throws {
        let result = try await Server().get("fit-in/200x150/odd.png")
        #expect(result.loaded == PixelSize(width: 1601, height: 1201))
        #expect(result.image.pixelSize == PixelSize(width: 200, height: 150))
    }

    /// The reduced copy is kept by its scale: another request it covers (another box, another
    /// size) starts from it in memory; one that needs a larger copy does not.
    @Test(arguments: ["jpg", "webp", "png"])
    func aReducedCopyServesEveryRequestItsScaleCovers(_ format: String) async throws {
        let server = try Server()
        let first = try await server.get("fit-in/200x150/big.\(format)")
        #expect(first.cacheType != .memory)
        let other = try await server.get("fit-in/190x140/big.\(format)")
        #expect(other.cacheType == .memory, "fit-in/190x140 takes the copy fit-in/200x150 made")
        #expect(other.loaded == first.loaded)
        #expect(other.image.pixelSize == PixelSize(width: 187, height: 140))
        let larger = try await server.get("fit-in/390x290/big.\(format)")
        #expect(larger.cacheType != .memory)
        #expect(larger.loaded.width > first.loaded.width)
    }

    /// The reduced WebP, HEIF and PNG paths give the full decode's answer within 40 dB PSNR on
    /// a photo.
    @Test(arguments: ["webp", "heic", "png"])
    func aReducedWebPOrHEIFMatchesTheFullDecodesAnswer(_ format: String) async throws {
        guard format != "heic" || Self.heic != nil else { return }  // no HEVC encoder: no fixture
        let shrinking = try Server(), full = try Server(shrinks: false)
        let paths = format == "heic"
            ? ["fit-in/200x150/filters:format(png)/big.heic", "160x0/filters:format(png)/big.heic"]
            : ["fit-in/200x150/filters:format(png)/big.\(format)", "400x0/filters:format(png)/big.\(format)", "full-fit-in/300x100/filters:format(png)/big.\(format)"]
        for path in paths {
            let reduced = try await shrinking.get(path), whole = try await full.get(path)
            #expect(reduced.loaded.width < 1600, "\(path) starts from a reduced decode")
            #expect(whole.loaded == PixelSize(width: 1600, height: 1200))
            #expect(reduced.image.pixelSize == whole.image.pixelSize, "\(path)")
            let psnr = Pixels.psnr(reduced.image.bitmap, whole.image.bitmap, includeAlpha: false)
            #expect(psnr > 40, "\(path): \(psnr) dB from the full decode's result")
        }
    }

    /// A HEIF is reduced to a stored thumbnail when it covers the result 2x, and decoded whole
    /// when none does (libheif has no scaled decode).
    @Test(.enabled(if: ServingShrinkOnLoadTests.heic != nil, "libheif has no HEVC encoder here: no HEIC fixture"))
    func aHEIFStartsFromItsStoredThumbnailWhenItCoversTwiceTheResult() async throws {
        let server = try Server()
        #expect(try await server.get("fit-in/200x150/big.heic").loaded == PixelSize(width: 400, height: 300))
        #expect(try await server.get("fit-in/100x100/big.heic").loaded == PixelSize(width: 400, height: 300))
        #expect(try await server.get("fit-in/300x225/big.heic").loaded == PixelSize(width: 1600, height: 1200))
    }
}
