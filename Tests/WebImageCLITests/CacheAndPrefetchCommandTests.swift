import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport

/// `webimage cache` and `webimage prefetch`.
@Suite struct CacheAndPrefetchCommandTests {
    let workspace = Workspace()
    let server: LoopbackHTTPServer

    init() throws {
        server = try LoopbackHTTPServer(routes: [
            "/a.jpg": .data(try Fixtures.jpeg(), contentType: "image/jpeg"),
            "/b.png": .data(try Fixtures.alphaPNG(), contentType: "image/png"),
            "/missing.png": .status(404),
        ])
    }

    var urls: [String] { ["/a.jpg", "/b.png"].map { server.url(for: $0).absoluteString } }

    func run(_ arguments: [String]) async throws -> CLIResult {
        try await CLIRunner.run(arguments, home: workspace.home, in: workspace.url)
    }

    @Test func prefetchThenFetchReadsFromDisk() async throws {
        let prefetch = try await run(["prefetch"] + urls + ["--cache-dir", "cache"])
        #expect(prefetch.status == 0, "\(prefetch.stderr)")
        #expect(Set(prefetch.lines.dropLast()) == Set(urls.map { "prefetched  \($0)" }))
        #expect(prefetch.lines.last == "prefetched 2 of 2 into \(workspace.path("cache/default"))")
        let fetch = try await run(["fetch"] + urls + ["--cache-dir", "cache", "--output", "out"])
        #expect(fetch.lines.last?.hasSuffix(": 2 disk") == true, "\(fetch.stdout)")
        #expect(server.totalRequestCount == 2)
    }

    @Test func prefetchWarnsAboutAFailedCacheStore() async throws {
        try workspace.write(Data("not a directory".utf8), to: "cache/default")
        let result = try await run(["prefetch", urls[0], "--cache-dir", "cache"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.errorLines.count == 1, "\(result.stderr)")
        #expect(result.errorLines.first?.hasPrefix("webimage prefetch: warning: \(urls[0]): not stored in the memory and disk cache under key ") == true, "\(result.stderr)")
        let verbose = try await run(["prefetch", urls[1], "--cache-dir", "cache", "--verbose"])
        #expect(verbose.errorLines.contains { $0.contains(" storeFailed(all, key ") && $0.hasSuffix(urls[1]) }, "\(verbose.stderr)")
    }

    @Test func prefetchReportsFailures() async throws {
        let missing = server.url(for: "/missing.png").absoluteString
        let result = try await run(["prefetch", urls[0], missing, "--cache-dir", "cache"])
        #expect(result.status == 1)
        #expect(result.errorLines == ["webimage prefetch: \(missing): failed (run 'webimage fetch' on it to see why)"])
        #expect(result.lines.last == "prefetched 1 of 2 into \(workspace.path("cache/default")); 1 failed")
    }

    @Test func statsTrimAndClear() async throws {
        #expect(try await run(["prefetch"] + urls + ["--cache-dir", "cache"]).status == 0)
        let stats = try await run(["cache", "stats", "--cache-dir", "cache"])
        #expect(stats.status == 0)
        #expect(stats.lines.first == "directory: \(workspace.path("cache/default"))")
        #expect(stats.lines.contains("entries:   2"))
        #expect(stats.lines.contains("limits:    1.0 GB, max age 7 days (by access date)"))

        let keep = try await run(["cache", "trim", "--cache-dir", "cache"])
        #expect(keep.lines == ["removed 0 entries; 2 left (\(try #require(stats.lines.first { $0.hasPrefix("size:") }).dropFirst(11))) in \(workspace.path("cache/default"))"])

        let trim = try await run(["cache", "trim", "--cache-dir", "cache", "--max-size", "100"])  // both entries are larger than half of it
        #expect(trim.status == 0)
        #expect(trim.lines.first?.hasPrefix("removed 2 entries; 0 left") == true, "\(trim.stdout) \(trim.stderr)")

        #expect(try await run(["prefetch"] + urls + ["--cache-dir", "cache"]).status == 0)
        let clear = try await run(["cache", "clear", "--cache-dir", "cache"])
        #expect(clear.lines.first?.hasPrefix("removed 2 entries (") == true)
        let empty = try await run(["cache", "stats", "--cache-dir", "cache"])
        #expect(empty.lines.contains("entries:   0"))
    }

    @Test func withoutCacheDirTheSharedCacheDirectoryIsUsed() async throws {
        let stats = try await run(["cache", "stats"])
        #expect(stats.status == 0)
        #expect(stats.lines.first == "directory: \(workspace.path("home/cache/swiftwebimage/default"))", "XDG_CACHE_HOME is <workspace>/home/cache for the subprocess")
        #expect(stats.lines.contains("entries:   0"))
    }

    @Test(arguments: [
        (["cache"], "webimage cache: give one of stats, clear, trim"),
        (["cache", "wipe"], "webimage cache: unknown subcommand 'wipe'; use stats, clear or trim"),
        (["cache", "stats", "--max-size", "1M"], "webimage cache: --max-size and --max-age only apply to trim"),
        (["cache", "trim", "--max-size", "lots"], "webimage cache: --max-size needs a size like 500M or 1048576, not 'lots'"),
        (["cache", "trim", "--max-age", "1y"], "webimage cache: --max-age needs an age like 3600, 30m, 12h or 7d, not '1y'"),
        (["prefetch"], "webimage prefetch: give at least one URL"),
        (["prefetch", "http://x/a.png", "--concurrency", "100"], "webimage prefetch: --concurrency must be a whole number from 1 to 64"),
    ])
    func usageMistakes(_ arguments: [String], message: String) async throws {
        let result = try await run(arguments)
        #expect(result.status == 64)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix(message) == true, "\(result.stderr)")
    }
}
