import AVIFCoder
import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// End to end: registered with one line in a coders manager, the plug-in makes `ImageManager`
/// load AVIF URLs; before it is registered they fail with a clear error.
@Suite struct ManagerTests {
    static let still = WebImage(bitmap: Pixels.picture(width: 30, height: 20, alpha: true))

    @Test func loopbackLoadFailsBeforeRegistrationAndSucceedsAfter() async throws {
        let data = try AVIFCoder(speed: 10).encode(Self.still, as: .avif)
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/image.avif", .data(data, contentType: "image/avif"))
        let coders = CodersManager(BuiltInCoders.all)
        let manager = ImageManager(cache: MockImageCache(), loader: Downloader(coder: coders))
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
