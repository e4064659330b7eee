import Foundation
import SwiftWebImage
import Testing
import WebImageHTTPServer
@testable import WebImageServer
import WebImageTestSupport

/// The image server on the HTTP server (issue 33): a client that hangs up stops its request's
/// transform, and `/health` and results in memory are answered while every transform worker
/// is held and the queue is full.
@Suite(.timeLimit(.minutes(5)))
struct ImageServeHTTPTests {
    /// An image server over `folder` (a 200x200 PNG at `photos/a.png`) and an HTTP server
    /// running it on loopback, port 0; the access log goes to `log`.
    static func makeServers(
        _ folder: URL, log: @escaping @Sendable (ImageServerAccessLogEntry) -> Void,
        _ configure: (inout ImageServerConfiguration) -> Void = { _ in }
    ) throws -> (images: ImageServer, http: HTTPServer) {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("photos"), withIntermediateDirectories: true)
        let png = try PNGCoder().encode(WebImage(bitmap: TestImages.gradient(width: 200, height: 200, seed: 7)), as: .png)
        try png.writeWithoutSync(to: folder.appendingPathComponent("photos/a.png"))
        var configuration = ImageServerConfiguration()
        configuration.allowsUnsigned = true
        configuration.fileRoot = folder
        configuration.accessLog = log
        // Far beyond any wait of a busy parallel run: only a real stall fails.
        configuration.requestTimeout = .seconds(600)
        configure(&configuration)
        let images = ImageServer(configuration: configuration, originalsCache: MemoryCache(), resultCache: nil, coder: CodersManager(BuiltInCoders.all))
        var http = HTTPServerConfiguration()
        http.host = "127.0.0.1"
        http.port = 0
        http.threadCount = 2
        http.connectionTimeout = .seconds(600)
        http.requestHeadTimeout = .seconds(600)
        let server = HTTPServer(configuration: http, handler: images)
        try server.start()
        return (images, server)
    }

    /// Holds a transform's thread after its second filter until `gate` opens, and counts the
    /// filters applied.
    static func holdAfterSecondFilter(_ server: ImageServer, gate: ThreadGate, reached: AsyncGate) -> Locked<Int> {
        let applied = Locked(0)
        server.hooks.withLock {
            $0.afterFilter = { count in
                applied.withLock { $0 = count }
                if count == 2 {
                    reached.open()
                    gate.wait()  // blocking: the transform's own thread, not a task's
                }
            }
        }
        return applied
    }

    /// The header fields of a response but the date, as lines.
    static func lines(_ response: RawHTTPResponse) -> [String] {
        response.headers.filter { $0.name.caseInsensitiveCompare("Date") != .orderedSame }.map { "\($0.name): \($0.value)" }
    }

    @Test func aClientThatHangsUpStopsItsTransform() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-http-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let abandoned = AsyncGate()
        let (images, http) = try Self.makeServers(folder, log: { entry in
            if entry.status == 499 { abandoned.open() }
        })
        let gate = ThreadGate(), reached = AsyncGate()
        let applied = Self.holdAfterSecondFilter(images, gate: gate, reached: reached)
        let chain = "/unsafe/200x200/filters:" + Array(repeating: "blur(5)", count: 30).joined(separator: ":") + "/photos/a.png"
        let client = try await RawHTTPConnection.open(port: http.port)
        try await client.send("GET \(chain) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await reached.wait()
        client.close()
        // The hang-up cancelled the request's task: it was answered (to nobody) and logged
        // as 499 while its transform is still held.
        await abandoned.wait()
        gate.open()
        // Its only requester gone, the production was cancelled: the job stops at the next
        // filter instead of running the other 28.
        while images.admission.admittedCount > 0 || images.resultFlights.runningCount > 0 { await Task.yield() }
        #expect(applied.withLock { $0 } <= 2)
        await http.waitUntilOpenConnections(atMost: 0)
        #expect(http.watchedRequestCount == 0)
        let metrics = try #require(images.immediateResponse(to: ServerRequest(path: "/metrics")))
        #expect(String(decoding: metrics.body, as: UTF8.self).contains("webimage_serve_requests_total{status=\"499\"} 1"))
        await http.shutdown(gracePeriod: .seconds(600))
    }

    @Test func healthAndResultsInMemoryAnswerWhileEveryWorkerIsHeld() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-http-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = Locked<[ImageServerAccessLogEntry]>([])
        let (images, http) = try Self.makeServers(folder, log: { entry in log.withLock { $0.append(entry) } }) {
            $0.transformConcurrency = 1
            $0.maximumQueuedTransforms = 0
        }
        let client = try await RawHTTPConnection.open(port: http.port)
        let path = "/unsafe/40x30/photos/a.png"
        let made = try await client.request(path)
        try #require(made.status == 200)
        #expect(http.answerCounts == (immediate: 0, inTasks: 1))

        // The only transform slot held, and no room in the queue.
        let gate = ThreadGate(), reached = AsyncGate()
        _ = Self.holdAfterSecondFilter(images, gate: gate, reached: reached)
        let held = try await RawHTTPConnection.open(port: http.port)
        try await held.send("GET /unsafe/50x50/filters:blur(2):blur(2):blur(2)/photos/a.png HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await reached.wait()
        let refused = try await client.request("/unsafe/60x60/photos/a.png")
        #expect(refused.status == 503, "the workers are all busy")
        #expect(http.answerCounts == (immediate: 0, inTasks: 3))

        let health = try await client.request("/health")
        #expect(health.status == 200 && health.text == "WORKING")
        let cached = try await client.request(path)
        #expect(cached.status == 200 && cached.body == made.body)
        #expect(Self.lines(cached) == Self.lines(made), "the immediate answer carries the headers of the first")
        let etag = try #require(made.header("ETag"))
        let conditional = try await client.request(path, headers: ["If-None-Match: \(etag)"])
        #expect(conditional.status == 304 && conditional.header("ETag") == etag)
        let head = try await client.request(path, method: "HEAD")
        #expect(head.status == 200 && head.header("Content-Length") == String(made.body.count) && head.header("ETag") == etag)
        // All four from libmicrohttpd's thread: no task was started for them.
        #expect(http.answerCounts == (immediate: 4, inTasks: 3))
        let entries = log.withLock { $0 }
        #expect(entries.suffix(4).map(\.status) == [200, 200, 304, 200])
        #expect(entries.suffix(3).allSatisfy { $0.cacheTier == .resultMemory })

        gate.open()
        #expect(try await held.readResponse().status == 200)
        await http.shutdown(gracePeriod: .seconds(600))
    }
}
