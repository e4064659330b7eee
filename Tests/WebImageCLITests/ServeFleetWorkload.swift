import Foundation
import Testing
import WebImageTestSupport

/// What the fleet tests share: an origin of 30 JPEG sources and the 300 requests that make
/// "each source fetched once" exact, and reading a server's `/metrics`.
///
/// The order makes the count exact: the first request for each source (30 of them, at once, on
/// server `i % 3`) completes before any other request for that source starts, and the server
/// stores the original in Redis before it answers. Then 270 more requests (9 other sizes per
/// source, so each is a new transform that needs the original) go to the other servers first,
/// 8 at a time: each finds the original in Redis (or, later, in its own memory and disk).
struct ServeFleetWorkload {
    /// The origin; `/s0.jpg` to `/s29.jpg`.
    let origin: LoopbackHTTPServer

    /// A workload with its own origin.
    init() throws {
        var routes: [String: LoopbackHTTPServer.Route] = [:]
        for index in 0..<30 {
            routes["/s\(index).jpg"] = .data(try Fixtures.jpeg(width: 60 + index, height: 40), contentType: "image/jpeg")
        }
        origin = try LoopbackHTTPServer(routes: routes)
    }

    /// The thumbnail URL path of source `source` at `width`.
    func path(source: Int, width: Int) -> String {
        "/unsafe/fit-in/\(width)x\(width)/" + origin.url(for: "/s\(source).jpg").absoluteString
    }

    /// Sends the 300 requests to `fleet` (three servers) and checks that every one is answered
    /// `200` and that the origin saw each source once.
    func run(on fleet: [ServeProcess]) async throws {
        let first = try await withThrowingTaskGroup(of: Int.self) { group in
            for source in 0..<30 {
                group.addTask { try await ServeClient.get(fleet[source % 3].url(path(source: source, width: 20))).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(first.allSatisfy { $0 == 200 }, "\(first)")

        let rest = (0..<270).map { request in
            (source: request % 30, server: (request % 30 + 1 + request / 30) % 3, width: 21 + request / 30)
        }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            var pending = rest[...]
            var statuses: [Int] = []
            func next() {
                guard let request = pending.popFirst() else { return }
                group.addTask { try await ServeClient.get(fleet[request.server].url(path(source: request.source, width: request.width))).status }
            }
            for _ in 0..<8 { next() }
            for try await status in group {
                statuses.append(status)
                next()
            }
            return statuses
        }
        #expect(statuses.count == 270)
        #expect(statuses.allSatisfy { $0 == 200 }, "\(Dictionary(grouping: statuses) { $0 }.mapValues(\.count))")

        let fetches = (0..<30).map { origin.statistics(for: "/s\($0).jpg").requestCount }
        #expect(fetches.reduce(0, +) == 30, "the origin saw \(fetches)")
        #expect(fetches.allSatisfy { $0 == 1 })
    }

    /// The `/metrics` text of `server`.
    static func metrics(of server: ServeProcess) async throws -> String {
        String(decoding: try await ServeClient.get(server.url("/metrics")).body, as: UTF8.self)
    }

    /// The value of the first sample of `name` (labelled or not) in `server`'s `/metrics`.
    static func metric(_ name: String, of server: ServeProcess) async throws -> Double? {
        let text = try await metrics(of: server)
        for line in text.split(separator: "\n") where line.hasPrefix(name + "{") || line.hasPrefix(name + " ") {
            return line.split(separator: " ").last.flatMap { Double($0) }
        }
        return nil
    }
}
