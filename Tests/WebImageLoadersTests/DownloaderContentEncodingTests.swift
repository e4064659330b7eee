import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

/// Bodies a server compresses although the request said `Accept-Encoding: identity`: gzip
/// and deflate are inflated (as browsers and curl do), the decoded bytes count against the
/// size limit (a bomb stops there), a body that does not decode fails naming the coding, and
/// a coding the downloader does not know leaves the body as sent.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct DownloaderContentEncodingTests {
    let server: LoopbackHTTPServer
    let image = Fixtures.wiraw(width: 64, height: 48)

    init() throws {
        server = try LoopbackHTTPServer()
    }

    @Test(arguments: [("gzip", Compression.Format.gzip), ("x-gzip", .gzip), ("deflate", .zlib), ("deflate", .raw)])
    func aBodyCompressedThoughNotAskedForIsDecoded(coding: String, format: Compression.Format) async throws {
        defer { server.stop() }
        let compressed = Compression.compress(image, format)
        #expect(compressed.count < image.count)
        server.route("/image", .data(compressed, contentType: Fixtures.wirawType, headers: [("Content-Encoding", coding)]))
        let (downloader, _) = Fixtures.downloader()
        let progress = ProgressRecorder()
        let result = try await Fixtures.request(downloader, server.url(for: "/image"), progress: progress.handler).value
        // The coder got the decoded bytes (WIRAW decodes only from them).
        #expect(result.data == image)
        #expect(result.image?.pixelSize == PixelSize(width: 64, height: 48))
        #expect(server.requests.first?.header("Accept-Encoding") == "identity")
        // The declared Content-Length (the compressed size) is not taken as the body's size.
        #expect(progress.progress.allSatisfy { $0.expected == nil })
        #expect(progress.progress.last?.received == Int64(image.count))
    }

    @Test func aChunkedGzipBodyIsDecoded() async throws {
        defer { server.stop() }
        let compressed = Compression.compress(image, .gzip)
        // Chunks of 7 bytes: the gzip header and the deflate data arrive split anywhere.
        var steps: [LoopbackHTTPServer.Step] = [.head(status: 200, headers: [("Content-Type", Fixtures.wirawType), ("Content-Encoding", "gzip"), ("Transfer-Encoding", "chunked")])]
        steps += stride(from: 0, to: compressed.count, by: 7).map { .chunk(compressed.subdata(in: $0..<min(compressed.count, $0 + 7))) }
        steps.append(.endChunks)
        server.route("/image", .steps(steps))
        let (downloader, _) = Fixtures.downloader()
        #expect(try await downloader.requestImage(with: server.url(for: "/image")).data == image)
    }

    @Test func aGzipBombIsRefusedAtTheLimitCountingDecodedBytes() async throws {
        defer { server.stop() }
        // 2 MB of gzip that inflates to 2 GiB; 4 MiB allowed.
        let bomb = Compression.gzipBomb(inflatedSize: 2 << 30)
        #expect(bomb.count < 4 << 20)
        server.route("/bomb", .data(bomb, contentType: Fixtures.wirawType, headers: [("Content-Encoding", "gzip")]))
        let limit = 4 << 20
        let (downloader, _) = Fixtures.downloader { $0.maximumResponseSize = limit }
        let progress = ProgressRecorder()
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, server.url(for: "/bomb"), progress: progress.handler)))
        #expect(error.message.contains("passed the limit of \(limit) bytes"))
        #expect(Fixtures.urlError(in: error)?.code == .dataLengthExceedsMaximum)
        #expect(progress.progress.allSatisfy { $0.received <= Int64(limit) })
        #expect(progress.progress.last?.received ?? 0 > Int64(limit / 2))
    }

    @Test func aGzipBombKeepsTheProcessUnderTheLimitInMemory() async throws {
        defer { server.stop() }
        let bomb = Compression.gzipBomb(inflatedSize: 2 << 30)
        server.route("/bomb", .data(bomb, contentType: "application/octet-stream", headers: [("Content-Encoding", "gzip")]))
        server.route("/small", .data(image, contentType: "application/octet-stream"))
        let limit = 16 << 20
        // The peak RSS of a child that downloads a small body, then of one refusing the bomb.
        let base = try await Self.probePeak([server.url(for: "/small").absoluteString])
        #expect(base.output == "ok \(image.count)")
        let refused = try await Self.probePeak([server.url(for: "/bomb").absoluteString, "--limit", String(limit)])
        #expect(refused.output.hasPrefix("refused "))
        #expect(refused.output.contains("passed the limit of \(limit) bytes"))
        // The body is held up to the limit, plus zlib's window and buffers: far from 2 GiB.
        let growth = refused.peakBytes - base.peakBytes
        print("DownloaderContentEncodingTests: a 2 GiB gzip bomb with a \(limit >> 20) MiB limit: peak RSS \(refused.peakBytes >> 20) MiB, \(growth >> 20) MiB over a small download's \(base.peakBytes >> 20) MiB")
        #expect(growth < limit + (32 << 20), "peak RSS \(refused.peakBytes) vs \(base.peakBytes)")
    }

    @Test func aCorruptGzipBodyFailsNamingTheCoding() async throws {
        defer { server.stop() }
        var corrupt = Compression.compress(image, .gzip)
        // A valid gzip header, then deflate data that is not (an invalid block type).
        corrupt.replaceSubrange(10..<corrupt.count, with: [UInt8](repeating: 0xFF, count: corrupt.count - 10))
        server.route("/corrupt", .data(corrupt, contentType: Fixtures.wirawType, headers: [("Content-Encoding", "gzip")]))
        let (downloader, _) = Fixtures.downloader()
        let url = server.url(for: "/corrupt")
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, url)))
        #expect(error.code == .invalidDownloadResponse)
        #expect(error.message.contains("Download of \(url.absoluteString) failed: its body, sent with Content-Encoding: gzip though identity was asked for, does not decode: invalid block type"))
        #expect(Fixtures.urlError(in: error)?.code == .cannotDecodeContentData)
        #expect(downloader.shouldBlockFailedURL(url, error: error))
    }

    @Test func aGzipBodyCutBeforeItsStreamEndsFails() async throws {
        defer { server.stop() }
        let compressed = Compression.compress(image, .gzip)
        // Complete as HTTP (its Content-Length is what is sent), incomplete as gzip.
        let cut = compressed.prefix(compressed.count / 2)
        server.route("/cut", .data(cut, contentType: Fixtures.wirawType, headers: [("Content-Encoding", "gzip")]))
        let (downloader, _) = Fixtures.downloader()
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, server.url(for: "/cut"))))
        #expect(error.message.contains("does not decode: the body ends before its compressed stream (\(cut.count) bytes received)"))
        #expect(Fixtures.urlError(in: error)?.code == .cannotDecodeContentData)
    }

    @Test func anUnknownCodingLeavesTheBodyAsSent() async throws {
        defer { server.stop() }
        // Browsers pass a coding they do not know through; so does the downloader.
        server.route("/odd", .data(image, contentType: Fixtures.wirawType, headers: [("Content-Encoding", "binary")]))
        server.route("/identity", .data(image, contentType: Fixtures.wirawType, headers: [("Content-Encoding", "identity")]))
        let (downloader, _) = Fixtures.downloader()
        #expect(try await downloader.requestImage(with: server.url(for: "/odd")).data == image)
        #expect(try await downloader.requestImage(with: server.url(for: "/identity")).data == image)
    }

    // MARK: Child process

    /// Runs `webimage-download-probe arguments... --peak-rss`: its output line and its peak RSS
    /// (`VmHWM` of its own address space, read before it exits: unlike `ru_maxrss`, not
    /// inherited from this test process through the spawn).
    static func probePeak(_ arguments: [String]) async throws -> (output: String, peakBytes: Int) {
        let text = try await DownloaderProxyTests.probe(arguments + ["--peak-rss"], environment: [:])
        let lines = text.split(separator: "\n").map(String.init)
        let peak = try #require(lines.last.flatMap { $0.hasPrefix("peak-rss ") ? Int($0.dropFirst(9)) : nil }, "no peak-rss line in \(text.debugDescription)")
        return (lines.dropLast().joined(separator: "\n"), peak)
    }
}
