import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

/// The downloader resets and reuses libcurl handles between downloads: nothing one download
/// set (method, body, headers) reaches the next one.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct DownloaderHandleReuseTests {
    let server: LoopbackHTTPServer
    let image = Fixtures.wiraw()

    init() throws {
        server = try LoopbackHTTPServer()
        server.route("/image", .data(image, contentType: Fixtures.wirawType))
    }

    @Test func aDownloadDoesNotInheritTheOptionsOfTheOneBefore() async throws {
        defer { server.stop() }
        // One at a time, so that each download takes the handle the one before gave back.
        let (downloader, _) = Fixtures.downloader { $0.maxConcurrentDownloads = 1 }
        var first = WebImageContext()
        first.downloadRequestModifier = ClosureRequestModifier { request in
            var request = request
            request.httpMethod = "POST"
            request.httpBody = Data("body".utf8)
            request.setValue("once", forHTTPHeaderField: "X-Once")
            request.setValue("Basic c2VjcmV0OnNlY3JldA==", forHTTPHeaderField: "Authorization")
            return request
        }
        for round in 0..<3 {
            _ = try await downloader.requestImage(with: server.url(for: "/image?first=\(round)"), options: [], context: first, progress: nil)
            _ = try await downloader.requestImage(with: server.url(for: "/image?second=\(round)"))
        }
        let requests = server.requests
        #expect(requests.count == 6)
        for (index, request) in requests.enumerated() {
            if index % 2 == 0 {
                #expect(request.method == "POST")
                #expect(request.body == Data("body".utf8))
                #expect(request.header("X-Once") == "once")
            } else {
                #expect(request.method == "GET")
                #expect(request.body.isEmpty)
                #expect(request.header("X-Once") == nil)
                #expect(request.header("Authorization") == nil)
                #expect(request.header("Content-Length") == nil)
                #expect(request.header("Accept-Encoding") == "identity")
            }
        }
    }
}
