import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport
import JXLCoder

/// Downloads with an idle timeout no test's own pace can reach: a full parallel run may keep the
/// task that opens a gated response waiting a minute for a pool thread.
private let patientDownloads: DownloaderConfiguration = {
    var configuration = DownloaderConfiguration()
    configuration.downloadTimeout = 600
    return configuration
}()

/// End to end: registered in a coders manager, the plug-in makes `ImageManager` load JPEG XL
/// URLs (before, they fail with a clear error), progressively with `progressiveLoad`.
@Suite(.onOwnThreads) struct ManagerTests {
    @Test func loopbackLoadFailsBeforeRegistrationAndSucceedsAfter() async throws {
        let still = WebImage(bitmap: try Pictures.detailed(width: 48, height: 40, alpha: true))
        let data = try JXLCoder(lossless: true).encode(still, as: .jpegXL)
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/image.jxl", .data(data, contentType: "image/jxl"))
        let coders = CodersManager(BuiltInCoders.all)
        let manager = ImageManager(cache: MockImageCache(), loader: Downloader(configuration: patientDownloads, coder: coders))
        let url = server.url(for: "/image.jxl")

        let error = try await #require(throws: WebImageError.self) { try await manager.loadImage(with: url) }
        #expect(error.code == .unsupportedFormat, "\(error)")

        coders.add(JXLCoder())
        let result = try await manager.loadImage(with: url, options: [.retryFailed])
        let image = try #require(result.image)
        #expect(image.format == .jpegXL)
        #expect(image.bitmap.bytes == still.bitmap.bytes)
    }

    @Test func progressiveLoadOverLoopbackShowsPartialImagesFirst() async throws {
        let source = WebImage(bitmap: try Pictures.detailed(width: 600, height: 520))
        let data = try JXLCoder().encode(source, as: .jpegXL, options: ImageEncodeOptions(compressionQuality: 0.9))
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let gate = AsyncGate()
        server.route("/progressive.jxl", .slowBody(data, firstPart: data.count * 3 / 4, gate: gate, contentType: "image/jxl"))
        let manager = ImageManager(cache: MockImageCache(), loader: Downloader(configuration: patientDownloads, coder: CodersManager([JXLCoder()])))
        let recorder = PartialImageRecorder()
        let task = Task {
            try await manager.loadImage(with: server.url(for: "/progressive.jxl"), options: [.progressiveLoad], events: recorder.handler)
        }
        await recorder.waitForImages(1)
        let partial = try #require(recorder.images.first)
        #expect(partial.metadata.contains(.incremental))
        #expect(partial.pixelSize == PixelSize(width: 600, height: 520))
        gate.open()
        let final = try #require(try await task.value.image)
        #expect(!final.metadata.contains(.incremental))
        #expect(final.bitmap == (try JXLCoder().decode(data)).bitmap)
    }
}
