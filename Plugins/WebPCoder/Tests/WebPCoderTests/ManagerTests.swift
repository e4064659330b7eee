import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport
import WebPCoder

/// Downloads with an idle timeout no test's own pace can reach: a full parallel run may keep the
/// task that opens a gated response waiting a minute for a pool thread.
private let patientDownloads: DownloaderConfiguration = {
    var configuration = DownloaderConfiguration()
    configuration.downloadTimeout = 600
    return configuration
}()

/// End to end: registered in a coders manager, the plug-in makes `ImageManager` load WebP URLs;
/// before it is registered, they fail with a clear error.
@Suite(.onOwnThreads) struct ManagerTests {
    static let still = WebImage(bitmap: Pixels.busy(width: 48, height: 40))

    static func stillData() throws -> Data {
        try WebPCoder(lossless: true).encode(still, as: .webp)
    }

    @Test func loopbackLoadFailsBeforeRegistrationAndSucceedsAfter() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/image.webp", .data(try Self.stillData(), contentType: "image/webp"))
        let coders = CodersManager(BuiltInCoders.all)
        let cache = MockImageCache()
        let manager = ImageManager(cache: cache, loader: Downloader(configuration: patientDownloads, coder: coders))
        let url = server.url(for: "/image.webp")

        let error = try await #require(throws: WebImageError.self) { try await manager.loadImage(with: url) }
        #expect(error.code == .unsupportedFormat, "\(error)")
        #expect(error.message.contains("webp"), "\(error.message)")

        coders.add(WebPCoder())
        // The failure blocked the URL (as SDWebImage does): retryFailed lifts the block.
        let result = try await manager.loadImage(with: url, options: [.retryFailed])
        let image = try #require(result.image)
        #expect(image.format == .webp)
        #expect(image.bitmap.bytes == Self.still.bitmap.bytes)
        #expect(result.cacheType == ImageCacheType.none)
        #expect(result.data == (try Self.stillData()))
        #expect(server.statistics(for: "/image.webp").requestCount == 2)
    }

    @Test func progressiveLoadOverLoopbackShowsPartialImagesFirst() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let data = try WebPCoder(lossless: false).encode(WebImage(bitmap: Pixels.busy(width: 96, height: 96)), as: .webp)
        let gate = AsyncGate()
        server.route("/progressive.webp", .slowBody(data, firstPart: data.count * 2 / 3, gate: gate, contentType: "image/webp"))
        let manager = ImageManager(cache: MockImageCache(), loader: Downloader(configuration: patientDownloads, coder: CodersManager([WebPCoder()])))
        let recorder = PartialImageRecorder()
        let task = Task {
            try await manager.loadImage(with: server.url(for: "/progressive.webp"), options: [.progressiveLoad], events: recorder.handler)
        }
        await recorder.waitForImages(1)
        let partial = try #require(recorder.images.first)
        #expect(partial.metadata.contains(.incremental))
        #expect(partial.pixelSize == PixelSize(width: 96, height: 96))
        #expect(partial.bitmap[0, 0].alpha == 255, "the first rows arrived")
        #expect(partial.bitmap[95, 95].alpha == 0, "the last rows have not")
        gate.open()
        let final = try #require(try await task.value.image)
        #expect(!final.metadata.contains(.incremental))
        #expect(final.bitmap == (try WebPCoder().decode(data)).bitmap)
    }

    @Test func animatedWebPLoadsAsALazyAnimation() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let data = try AnimationTests.handMadeAnimation()
        server.route("/animated.webp", .data(data, contentType: "image/webp"))
        let manager = ImageManager(cache: MockImageCache(), loader: Downloader(configuration: patientDownloads, coder: CodersManager([WebPCoder()])))
        let image = try #require(try await manager.loadImage(with: server.url(for: "/animated.webp")).image)
        #expect(image.isLazilyAnimated)
        #expect(image.frameCount == 5)
        #expect(image.loopCount == 3)
        #expect(Pixels.maxDifference(try image.frame(at: 3).bitmap, AnimationTests.expectedFrames()[3]) <= 1)
    }

    @Test func mockLoaderDecodesWithTheCoderInTheContext() async throws {
        let url = URL(string: "mock://images/photo.webp")!
        let loader = MockImageLoader()
        loader.respond(to: url, with: .image(TestImages.still(), data: try Self.stillData()))
        let manager = ImageManager(cache: MockImageCache(), loader: loader)
        var context = WebImageContext()
        context.imageCoder = WebPCoder()
        context.imageThumbnailPixelSize = PixelSize(width: 24, height: 24)
        let image = try #require(try await manager.loadImage(with: url, context: context).image)
        #expect(image.format == .webp)
        #expect(image.pixelSize == PixelSize(width: 24, height: 20))
        #expect(image.metadata.contains(.thumbnail))
    }

    /// `CodersManager.shared.add(WebPCoder())` then `ImageManager.shared` loads a `file://`
    /// WebP. Runs once the shared loaders manager holds a loader for file URLs.
    @Test(.enabled(if: LoadersManager.shared.canRequestImage(for: URL(fileURLWithPath: "/tmp/probe.webp")),
                   "LoadersManager.shared has no file loader yet: the shared-manager test is skipped"))
    func sharedManagerLoadsAFileURLOnceRegistered() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("webpcoder-\(UUID().uuidString).webp")
        try Self.stillData().writeWithoutSync(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var context = WebImageContext()
        context.storeCacheType = ImageCacheType.none  // leave the shared caches as they were
        // Without WebPCoder the coders refuse the file. (Asked through a copy of the shared coders
        // without it: other suites of the package, which share this process, may register
        // WebPCoder in CodersManager.shared at any moment, as the `webimage` tests do.)
        var withoutWebP = context
        withoutWebP.imageCoder = CodersManager(CodersManager.shared.coders.filter { !($0 is WebPCoder) })
        let error = try await #require(throws: WebImageError.self) {
            try await ImageManager.shared.loadImage(with: file, options: [.fromLoaderOnly], context: withoutWebP)
        }
        #expect(error.code == .unsupportedFormat || error.code == .badImageData, "\(error)")
        // One line of registration, and the shared manager loads it.
        if !CodersManager.shared.coders.contains(where: { $0 is WebPCoder }) {
            CodersManager.shared.add(WebPCoder())
        }
        let result = try await ImageManager.shared.loadImage(with: file, options: [.fromLoaderOnly, .retryFailed], context: context)
        #expect(result.image?.format == .webp)
        #expect(result.image?.bitmap.bytes == Self.still.bitmap.bytes)
    }
}
