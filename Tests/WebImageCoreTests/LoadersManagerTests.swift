import Foundation
import Testing
import WebImageTestSupport
import WebImageCore

@Suite struct LoadersManagerTests {
    let url = URL(string: "https://example.com/a.png")!

    @Test func lastAddedLoaderThatCanRequestHandlesTheURL() async throws {
        let first = MockImageLoader(name: "first")
        let second = MockImageLoader(name: "second")
        let manager = LoadersManager([first])
        manager.add(second)
        _ = try await manager.requestImage(with: url)
        #expect(second.requestCount == 1)
        #expect(first.requestCount == 0)
    }

    @Test func loaderThatCannotRequestIsSkipped() async throws {
        let web = MockImageLoader(name: "web", schemes: ["https"])
        let photos = MockImageLoader(name: "photos", schemes: ["photos"])
        let manager = LoadersManager([web, photos])
        _ = try await manager.requestImage(with: url)
        _ = try await manager.requestImage(with: URL(string: "photos://asset/1")!)
        #expect(web.requestCount == 1)
        #expect(photos.requestCount == 1)
        #expect(manager.canRequestImage(for: url))
        #expect(!manager.canRequestImage(for: URL(string: "ftp://x/y.png")!))
        #expect((manager.loader(for: url) as? MockImageLoader)?.name == "web")
    }

    @Test func noLoaderIsUnsupportedURL() async throws {
        let manager = LoadersManager([MockImageLoader(schemes: ["https"])])
        let ftp = URL(string: "ftp://example.com/a.png")!
        let error = try await #require(throws: WebImageError.self) { try await manager.requestImage(with: ftp) }
        #expect(error.code == .unsupportedURL)
        #expect(error.url == ftp)
    }

    @Test func shouldBlockIsAskedOfTheLoaderThatHandlesTheURL() {
        let web = MockImageLoader(name: "web", schemes: ["https"])
        let photos = MockImageLoader(name: "photos", schemes: ["photos"])
        web.setBlocksFailedURLs(false)
        photos.setBlocksFailedURLs(true)
        let manager = LoadersManager([web, photos])
        let failure = WebImageError(.badImageData, "bad")
        #expect(!manager.shouldBlockFailedURL(url, error: failure))
        #expect(manager.shouldBlockFailedURL(URL(string: "photos://asset/1")!, error: failure))
        // No loader: the default policy.
        #expect(manager.shouldBlockFailedURL(URL(string: "ftp://x")!, error: failure))
        #expect(!manager.shouldBlockFailedURL(URL(string: "ftp://x")!, error: URLError(.timedOut)))
    }

    @Test func progressEventsAreForwarded() async throws {
        let loader = MockImageLoader()
        loader.sendEvents([.progress(receivedBytes: 10, expectedBytes: 100), .progress(receivedBytes: 100, expectedBytes: 100)])
        let received = CallRecorder<Int64>()
        _ = try await LoadersManager([loader]).requestImage(with: url, options: [], context: WebImageContext()) { event in
            if case .progress(let bytes, _) = event { received.record(bytes) }
        }
        #expect(received.all == [10, 100])
    }

    @Test func removeLoader() {
        let loader = MockImageLoader()
        let manager = LoadersManager([loader])
        manager.remove(loader)
        #expect(manager.loaders.isEmpty)
        #expect(!manager.canRequestImage(for: url))
    }
}
