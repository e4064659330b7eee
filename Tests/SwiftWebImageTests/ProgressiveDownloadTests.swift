import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// Progressive loading end to end: real coders, the real downloader, a loopback server that
/// sends the first half of the file and then holds the rest at a gate.
@Suite struct ProgressiveDownloadTests {
    static func photo() throws -> WebImage {
        var bitmap = try Bitmap(width: 256, height: 192, hasAlpha: false)
        for y in 0..<192 {
            for x in 0..<256 {
                bitmap[x, y] = RGBAColor(red: UInt8(x), green: UInt8(y), blue: UInt8((x * y) & 0xFF))
            }
        }
        return WebImage(bitmap: bitmap)
    }

    @Test(arguments: ["jpeg", "png"])
    func partialImagesArriveBeforeTheFinalOne(_ format: String) async throws {
        let data = format == "jpeg"
            ? try JPEGCoder(progressiveEncoding: true).encode(Self.photo(), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.9))
            : try PNGCoder().encode(Self.photo(), as: .png)
        let gate = AsyncGate()
        let half = data.count / 2
        let server = try LoopbackHTTPServer(routes: ["/photo": .steps([
            .head(status: 200, headers: [("Content-Type", "image/\(format)"), ("Content-Length", "\(data.count)")]),
            .body(data.prefix(half)),
            .wait(gate),
            .body(data.dropFirst(half)),
        ])])
        defer { server.stop() }
        // An idle timeout the test's own pace cannot reach (the gate holds half the body).
        var configuration = DownloaderConfiguration()
        configuration.downloadTimeout = 600
        let downloader = Downloader(configuration: configuration, coder: CodersManager.shared)
        let manager = ImageManager(cache: MockImageCache(), loader: downloader)
        let partials = CallRecorder<PixelSize>()
        let running = Task {
            try await manager.loadImage(with: server.url(for: "/photo"), options: [.progressiveLoad]) { event in
                if case .partialImage(let image) = event {
                    #expect(image.metadata.contains(.incremental))
                    partials.record(image.pixelSize)
                    gate.open()  // the first partial image releases the rest of the file
                }
            }
        }
        // A failsafe, not a wait: if no partial image ever came, the gate would stay shut and
        // the test would hang; after 20 s the watchdog releases it and the test fails.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(20))
            if partials.count == 0 { gate.open() }
        }
        let result = try await running.value
        watchdog.cancel()
        #expect(partials.count >= 1, "a partial image arrived before the last bytes were sent")
        #expect(partials.all.allSatisfy { $0 == PixelSize(width: 256, height: 192) })
        let image = try #require(result.image)
        #expect(image.pixelSize == PixelSize(width: 256, height: 192))
        #expect(!image.metadata.contains(.incremental))
        #expect(result.data == data)
    }
}
