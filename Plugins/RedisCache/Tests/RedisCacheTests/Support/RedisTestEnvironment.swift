import Foundation
import RedisCache
import RedisServerHarness
import SwiftWebImage
import WebImageTestSupport

/// Shared pieces of the Redis tests: the skip condition, caches over a test server, a log
/// recorder.
enum RedisTestEnvironment {
    /// Whether `redis-server` is installed; the tests that need it are skipped otherwise.
    static let hasRedis = RedisServerProcess.isAvailable

    /// The upper bound of the tests that check that a timeout, not the server, ended a wait:
    /// it tells "gave up at the timeout" (fractions of a second) from "waited for the server,
    /// which never answers" or "waited for the other, 600 s timeout". Generous on purpose:
    /// `swift test` at the root runs every suite of the package in one process, in parallel, and
    /// on two busy cores the task that resumes after the client gave up can wait seconds for a
    /// thread (16 s was seen with 5 s bounds; 107 s with 90 s bounds, with four CPU hogs
    /// beside the run). Still half the 600 s timeout that it has to be told from.
    static let timeoutBound: Duration = .seconds(300)

    /// A fresh namespace per test, so that tests sharing nothing still never collide.
    static func uniqueNamespace(_ label: String = "test") -> String {
        "\(label)-\(UUID().uuidString)"
    }

    /// A client configuration for the server on `port` (127.0.0.1) with test-friendly timing:
    /// timeouts long enough for a loaded CI machine, a short reconnect backoff. 60 s, because
    /// `swift test` at the root runs these suites in one process with every other suite of the
    /// package: on two busy cores `redis-server` and the client's threads get little CPU, and
    /// 16 concurrent commands over 4 connections overran a 5 s timeout. No test waits for
    /// these timeouts to pass (the timeout tests set their own, short ones).
    static func clientConfiguration(
        port: Int,
        commandTimeout: TimeInterval = 60,
        connectTimeout: TimeInterval = 60,
        maxConnections: Int = 4,
        initialReconnectDelay: TimeInterval = 0.05,
        maximumReconnectDelay: TimeInterval = 0.2
    ) -> RedisClient.Configuration {
        RedisClient.Configuration(
            host: "127.0.0.1",
            port: port,
            connectTimeout: connectTimeout,
            commandTimeout: commandTimeout,
            maxConnections: maxConnections,
            initialReconnectDelay: initialReconnectDelay,
            maximumReconnectDelay: maximumReconnectDelay
        )
    }

    /// A cache over the server on `port` that decodes with the raw-bitmap test coder plus the
    /// built-in coders, logging into `log`.
    static func makeCache(
        port: Int,
        namespace: String = uniqueNamespace(),
        maxAge: TimeInterval = 3600,
        maxValueSize: Int = 16 << 20,
        client: RedisClient? = nil,
        log: LogRecorder = LogRecorder()
    ) -> RedisImageCache {
        RawBitmapCoder.registerFormat()
        return RedisImageCache(
            client: client ?? RedisClient(configuration: clientConfiguration(port: port)),
            config: RedisImageCache.Config(namespace: namespace, maxAge: maxAge, maxValueSize: maxValueSize, logHandler: log.handler),
            coder: testCoders
        )
    }

    /// The built-in coders plus ``RawBitmapCoder`` (asked first).
    static let testCoders: CodersManager = {
        let coders = CodersManager(CodersManager.shared.coders)
        coders.add(RawBitmapCoder())
        return coders
    }()

    /// Raw-bitmap data of a test image.
    static func rawData(_ image: WebImage) throws -> Data {
        try RawBitmapCoder().encode(image, as: .rawBitmap)
    }
}

/// Records a cache's log entries (thread-safe).
final class LogRecorder: Sendable {
    private let entries = Locked<[RedisImageCache.LogEntry]>([])

    var handler: RedisImageCache.LogHandler {
        { [entries] entry in entries.withLock { $0.append(entry) } }
    }

    var all: [RedisImageCache.LogEntry] {
        entries.withLock { $0 }
    }

    func count(of level: RedisImageCache.LogEntry.Level, containing text: String) -> Int {
        all.filter { $0.level == level && $0.message.contains(text) }.count
    }
}
