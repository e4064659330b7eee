public import Foundation

extension LoopbackHTTPServer {
    /// What the server saw on one path.
    public struct PathStatistics: Sendable, Equatable {
        /// Requests received.
        public var requestCount = 0
        /// Requests being answered now (each holds one connection: HTTP/1.1, no pipelining).
        public var activeCount = 0
        /// The most requests answered at once.
        public var maxActiveCount = 0
        /// Responses sent in full.
        public var completedCount = 0
        /// Responses abandoned because the client closed the connection first (a cancelled
        /// download shows up here).
        public var clientDisconnectCount = 0

        /// All counts at zero.
        public init() {}

        /// A counter to wait on with ``LoopbackHTTPServer/waitUntil(path:_:reaches:)``.
        public enum Counter: Sendable {
            /// ``PathStatistics/requestCount``.
            case requests
            /// ``PathStatistics/activeCount``.
            case active
            /// ``PathStatistics/maxActiveCount``.
            case maxActive
            /// ``PathStatistics/completedCount``.
            case completed
            /// ``PathStatistics/clientDisconnectCount``.
            case clientDisconnects
        }

        /// The value of `counter`.
        public subscript(counter: Counter) -> Int {
            switch counter {
            case .requests: requestCount
            case .active: activeCount
            case .maxActive: maxActiveCount
            case .completed: completedCount
            case .clientDisconnects: clientDisconnectCount
            }
        }
    }

    /// One request the server received.
    public struct Request: Sendable {
        /// The method ("GET").
        public let method: String
        /// The request target as sent ("/a.png?x=1").
        public let target: String
        /// The path without the query ("/a.png"): the route key.
        public let path: String
        /// The header fields, in order.
        public let headers: [(name: String, value: String)]
        /// The body (empty for GET).
        public let body: Data
        /// The arrival order on this server, from 0.
        public let sequenceNumber: Int

        /// The value of the first header field named `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }
}
