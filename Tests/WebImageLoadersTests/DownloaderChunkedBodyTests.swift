import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

/// Chunked bodies whose framing is broken fail with a message saying so, and block the URL
/// (the server sends the same bytes again); a connection cut in the middle of a chunk is a
/// lost connection, transient, as any cut body.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct DownloaderChunkedBodyTests {
    let server: LoopbackHTTPServer
    let head = LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Type", Fixtures.wirawType), ("Transfer-Encoding", "chunked")])

    init() throws {
        server = try LoopbackHTTPServer()
    }

    @Test(arguments: [
        // A chunk size line that is not hexadecimal.
        ("5\r\nhello\r\nzz\r\nxx\r\n0\r\n\r\n", "Illegal or missing hexadecimal sequence in chunked-encoding"),
        // A chunk longer than its size line says (no CRLF where the chunk should end).
        ("5\r\nhelloEXTRA\r\n0\r\n\r\n", "Malformed encoding found in chunked-encoding"),
        // A size line too long for any number.
        ("123456789abcdef0123\r\nhello\r\n0\r\n\r\n", "Too long hexadecimal number in chunked-encoding"),
    ])
    func aMalformedChunkedBodyFailsAndBlocksTheURL(body: String, reason: String) async throws {
        defer { server.stop() }
        server.route("/bad", .steps([head, .body(Data(body.utf8))]))
        let (downloader, _) = Fixtures.downloader()
        let url = server.url(for: "/bad")
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, url)))
        #expect(error.code == .invalidDownloadResponse)
        #expect(error.message == "Download of \(url.absoluteString) failed: the server sent a malformed chunked body (\(reason))")
        #expect(Fixtures.urlError(in: error)?.code == .cannotParseResponse)
        #expect(downloader.shouldBlockFailedURL(url, error: error))
    }

    @Test func aConnectionCutInTheMiddleOfAChunkIsTransient() async throws {
        defer { server.stop() }
        // A chunk of 16 bytes promised, 3 sent, then the connection closes.
        server.route("/cut", .steps([head, .body(Data("5\r\nhello\r\n10\r\nabc".utf8)), .close]))
        let (downloader, _) = Fixtures.downloader()
        let url = server.url(for: "/cut")
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, url)))
        #expect(!error.message.contains("malformed"))
        #expect(Fixtures.urlError(in: error)?.code == .networkConnectionLost)
        #expect(!downloader.shouldBlockFailedURL(url, error: error))
    }
}
