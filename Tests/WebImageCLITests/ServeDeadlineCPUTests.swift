import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageCLIKit
#if canImport(Glibc)
import Glibc
#endif

/// Issue 33's check "a cancelled request's transform stops (the test measures CPU after the
/// answer)", on a child `webimage serve`: four requests whose filter chains would take minutes
/// get their `504` at the deadline, `/health` answers while they run, and the server's CPU
/// time barely moves once the last `504` is out.
///
/// Robust on a loaded machine (a debug build, the whole suite running beside it): how long the
/// 504s took is read from the server's own access log, not from this process's clock, whose
/// tasks may wait for a thread for seconds in a full parallel run; the bound on `/health`,
/// timed here, is generous for that reason (before the fix it got no answer at all while the
/// transforms ran); the bound on the CPU the child uses after the answers is strict, since it
/// counts only the child's own time (`/proc/<pid>/stat`), whatever else runs.
@Suite(.timeLimit(.minutes(3)))
struct ServeDeadlineCPUTests {
    let workspace = Workspace()

    /// The path of `count` `blur(50)` filters on `source` at its own size (1500x1500: each blur
    /// is 454,500,000 pixel operations in the server's cost model).
    static func blurChain(_ count: Int, source: String) -> String {
        "/unsafe/filters:" + Array(repeating: "blur(50)", count: count).joined(separator: ":") + "/" + source
    }

    /// The CPU time (user and system) process `pid` has used so far, from `/proc/<pid>/stat`.
    static func cpuSeconds(of pid: pid_t) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
        let close = try #require(stat.lastIndex(of: ")"))
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3): utime and stime are fields 14 and 15.
        let utime = try #require(Double(fields[11])), stime = try #require(Double(fields[12]))
        return (utime + stime) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The status and duration of each access-log line whose path `matches`
    /// (`... GET /health 200 7 0.4ms none`: status, bytes, duration and cache tier last).
    static func accessLogAnswers(_ log: String, path matches: (Substring) -> Bool) -> [(status: Int, duration: Duration)] {
        log.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 8, matches(fields[3]), fields[fields.count - 2].hasSuffix("ms"),
                  let status = Int(fields[fields.count - 4]), let milliseconds = Double(fields[fields.count - 2].dropLast(2)) else { return nil }
            return (status, .milliseconds(Int64(milliseconds.rounded(.up))))
        }
    }

    /// The value of the gauge `name` in a Prometheus text, or `nil`.
    static func gauge(_ name: String, in metrics: String) -> Int? {
        metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ").last ?? "") }
    }

    @Test func theTransformsOfRequestsPastTheirDeadlineStopUsingCPU() async throws {
        let root = workspace.url.appendingPathComponent("root", isDirectory: true)
        let photo = try JPEGCoder().encode(WebImage(bitmap: TestImages.gradient(width: 1500, height: 1500)), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.9))
        try workspace.write(photo, to: "root/photo.jpg")
        let server = try await ServeProcess.start([
            "--allow-unsigned", "--no-cache", "--root", root.path, "--timeout", "2", "--workers", "2",
            "--max-filters", "1000", "--max-filter-work", "1000000000000",
        ], home: workspace.home)
        let pid = server.processIdentifier

        // Four different chains (identical URLs would share one production) of 300-303 blurs:
        // each minutes of work (one blur of 1500x1500 takes seconds in a debug build), far past
        // the 2 s deadline (2 rather than 1: a wider window to see both workers busy).
        let answered = Locked(0)
        let answers = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<4 {
                    let url = server.url(Self.blurChain(300 + index, source: "photo.jpg"))
                    group.addTask {
                        let status = try await ServeClient.get(url).status
                        answered.withLock { $0 += 1 }
                        return status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }

        // While both workers run a transform (the metrics say so), /health answers at once.
        // In a full parallel run this process's tasks may wait for a thread for longer than the
        // deadline, and then see no moment with both workers busy: the health check is skipped,
        // the checks of the answers and of the CPU below are not.
        var busy = false
        while !busy, answered.withLock({ $0 }) == 0 {
            let metrics = try await ServeClient.get(server.url("/metrics"))
            busy = (Self.gauge("webimage_serve_transforms_in_flight", in: String(decoding: metrics.body, as: UTF8.self)) ?? 0) >= 2
        }
        if busy {
            let asked = ContinuousClock.now
            #expect(try await ServeClient.get(server.url("/health")).status == 200)
            let waited = ContinuousClock.now - asked
            #expect(waited < .seconds(5), "/health took \(waited) while every worker was busy")
        }

        let statuses = try await answers.value
        #expect(statuses == [504, 504, 504, 504], "\(server.errorText.suffix(2000))")

        // The measurement window (not a wait for work to finish): the CPU the server uses in the
        // second after the last answer. Transforms still running would use about 2 CPU-seconds.
        let before = try Self.cpuSeconds(of: pid)
        try await Task.sleep(for: .seconds(1))
        let after = try Self.cpuSeconds(of: pid)
        #expect(after - before < 0.5, "the server used \(after - before) CPU-seconds in the second after its last 504")

        // It still serves. Its access-log line comes after those of the 504s (each written as
        // the answer was made, before the client had it).
        #expect(try await ServeClient.get(server.url("/healthcheck")).status == 200)
        #expect(await server.waitForErrorLine(containing: " GET /healthcheck ") != nil)
        let blurs = Self.accessLogAnswers(server.errorText) { $0.hasPrefix("/unsafe/filters:blur(50)") }
        #expect(blurs.map(\.status) == [504, 504, 504, 504])
        // Generous (the deadline is 2 s; a loaded machine is slow), but no answer waits for a chain.
        #expect(blurs.allSatisfy { $0.duration < .seconds(5) }, "\(blurs.map(\.duration)) from arrival to 504")

        // It stops cleanly.
        server.send(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }
}
