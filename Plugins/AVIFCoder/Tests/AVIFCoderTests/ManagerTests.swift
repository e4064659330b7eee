import AVIFCoder
import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// Downloads with an idle timeout no test's own pace can reach: a full parallel run may keep the
/// task that opens a gated response waiting a minute for a pool thread.
private let patientDownloads: DownloaderConfiguration = {
    var configuration = DownloaderConfiguration()
    configuration.downloadTimeout = 600
    return configuration
}()

/// End to end: registered with one line in a coders manager, the plug-in makes `ImageManager`
/// load AVIF URLs; before it is registered they fail with a clear error.
@Suite(.onOwnThreads) struct ManagerTests {
    static let still = WebImage(bitmap: Pixels.picture(width: 30, height: 20, alpha: true))

    @Test func loopbackLoadFailsBeforeRegistrationAndSucceedsAfter() async throws {
        let data = try AVIFCoder(speed: 10).encode(Self.still, as: .avif)
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/image.avif", .data(data, contentType: "image/avif"))
        let coders = CodersManager(BuiltInCoders.all)
        let manager = ImageManager(cache: MockImageCache(), loader: Downloader(configuration: patientDownloads, coder: coders))
        let url = server.url(for: "/image.avif")

        let error = try await #require(throws: WebImageError.self) { try await manager.loadImage(with: url) }
        #expect(error.code == .unsupportedFormat, "\(error)")

        coders.add(AVIFCoder())
        let result = try await manager.loadImage(with: url, options: [.retryFailed])
        let image = try #require(result.image)
        #expect(image.format == .avif)
        #expect(image.bitmap.bytes == Self.still.bitmap.bytes)
        #expect(coders.canEncode(to: .avif))
    }
}
