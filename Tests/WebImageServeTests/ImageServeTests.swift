import Foundation
import SwiftWebImage
import Testing
import WebImageHTTPServer
import WebImageServe
import WebImageServer
import WebImageTestSupport

/// ``ImageServe`` wires a whole server from one configuration (issue 32): the memory split, the
/// cache topology, the access log and the coders, without touching process-wide state.
@Suite struct ImageServeTests {
    static func configuration(_ folder: URL) -> ImageServeConfiguration {
        var configuration = ImageServeConfiguration()
        configuration.server.allowsUnsigned = true
        configuration.server.allowsPrivateSources = true
        configuration.cacheLocation = .directory(folder)
        configuration.memoryCacheBytes = 64 << 20
        configuration.diskCacheBytes = 32 << 20
        configuration.accessLog = .off
        configuration.http.host = "127.0.0.1"
        configuration.http.port = 0
        // A full parallel `swift test` may leave this test's tasks waiting for tens of seconds:
        // the deadlines are far beyond that (see issue 38), so only a real stall fails.
        configuration.server.requestTimeout = .seconds(600)
        configuration.server.downloaderConfiguration.downloadTimeout = 600
        return configuration
    }

    @Test func theMemoryBudgetIsSplitAndTheCachesLiveInTheDirectory() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let serve = try ImageServe(configuration: Self.configuration(folder))
        #expect(serve.configuration.effectiveServerConfiguration.reducedOriginalsCapacity == 16 << 20)
        #expect(serve.configuration.effectiveServerConfiguration.resultMemoryCapacity == 16 << 20)
        let originals = try #require(serve.caches.originals as? WebImageCache)
        #expect(originals.diskCache?.directory.deletingLastPathComponent().standardizedFileURL.path == folder.standardizedFileURL.path)
        #expect(serve.caches.summary.contains("memory 64 MiB + disk 32 MiB"))
        var disabled = Self.configuration(folder)
        disabled.cacheLocation = .disabled
        let uncached = try ImageServe(configuration: disabled)
        #expect(uncached.caches.results == nil)
        #expect(uncached.configuration.effectiveServerConfiguration.resultMemoryCapacity == 0)
    }

    @Test func aServerServesAnImageWithItsOwnCodersAndLogsIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let origin = try LoopbackHTTPServer()
        defer { origin.stop() }
        origin.route("/a.png", .data(try PNGCoder().encode(WebImage(bitmap: TestImages.gradient(width: 64, height: 48, seed: 3)), as: .png), contentType: "image/png"))
        var configuration = Self.configuration(folder)
        let log = folder.appendingPathComponent("access.log")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        configuration.accessLog = .file(log.path)
        configuration.coder = CodersManager(BuiltInCoders.all)
        let serve = try ImageServe(configuration: configuration)
        #expect(serve.images.coder as AnyObject === configuration.coder as AnyObject)
        let response = await serve.images.respond(to: ServerRequest(method: "GET", path: "/unsafe/32x24/" + origin.url(for: "/a.png").absoluteString))
        #expect(response.status == 200)
        #expect(try PNGCoder().decode(response.body).pixelSize == PixelSize(width: 32, height: 24))
        let line = try String(contentsOf: log, encoding: .utf8)
        #expect(line.contains(" GET /unsafe/32x24/") && line.contains(" 200 "))

        try serve.start()
        #expect(serve.port > 0)
        await serve.shutdown(gracePeriod: .seconds(5))
    }

    @Test func embeddingAServer() async throws {
        let key = "secret", port = 0
        let cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cacheFolder) }
        // DOCS serve-embed begin
        var configuration = ImageServeConfiguration()
        configuration.server.securityKey = key
        configuration.http.port = port
        configuration.cacheLocation = .directory(cacheFolder)
        configuration.memoryCacheBytes = 256 << 20
        configuration.coder = CodersManager(BuiltInCoders.all)
        let serve = try ImageServe(configuration: configuration)
        try serve.start()
        // DOCS serve-embed end
        #expect(serve.port > 0)
        let health = await serve.images.respond(to: ServerRequest(method: "GET", path: "/healthcheck"))
        #expect(health.status == 200)
        await serve.shutdown(gracePeriod: .seconds(5))
    }

    /// The HTTP server's abuse limits (issue 33) are the configuration's.
    @Test func theHTTPLimitsReachTheServer() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = Self.configuration(folder)
        #expect(configuration.http.connectionsPerClientLimit == 64)
        #expect(configuration.http.requestHeadTimeout == .seconds(10))
        configuration.http.connectionsPerClientLimit = 3
        configuration.http.requestHeadTimeout = .seconds(4)
        let serve = try ImageServe(configuration: configuration)
        #expect(serve.http.configuration.connectionsPerClientLimit == 3)
        #expect(serve.http.configuration.requestHeadTimeout == .seconds(4))
    }

    @Test func anAccessLogThatCannotBeOpenedIsAClearError() {
        var configuration = ImageServeConfiguration()
        configuration.cacheLocation = .disabled
        configuration.accessLog = .file("/nonexistent-directory/access.log")
        configuration.http.host = "127.0.0.1"
        #expect(throws: WebImageError.self) { try ImageServe(configuration: configuration) }
        do {
            _ = try ImageServe(configuration: configuration)
        } catch {
            #expect(error.code == .invalidArgument && error.message.contains("/nonexistent-directory/access.log"))
        }
    }
}
