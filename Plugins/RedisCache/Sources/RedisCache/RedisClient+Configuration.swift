public import Foundation

extension RedisClient {
    /// Where the server is and how the client talks to it.
    ///
    /// Defaults: `127.0.0.1:6379`, database 0, no AUTH, connect timeout 1 s, command timeout
    /// 1 s, 4 pooled connections, reconnect backoff from 0.1 s doubling to 10 s, replies up to
    /// 64 MiB.
    public struct Configuration: Sendable, Hashable {
        /// The server's host name or address (resolved with `getaddrinfo`: IPv4 or IPv6).
        /// Default `"127.0.0.1"`. A host name is resolved on each new connection, outside the
        /// timeouts' control; use an address where a slow resolver matters.
        public var host: String
        /// The server's TCP port. Default 6379.
        public var port: Int
        /// The ACL user for `AUTH username password` (Redis 6+); `nil` sends `AUTH password`.
        public var username: String?
        /// The password; `nil` (the default) sends no AUTH.
        public var password: String?
        /// The logical database (`SELECT`), default 0.
        public var database: Int
        /// The longest a new connection may take to connect and finish AUTH/SELECT, in seconds
        /// (default 1). Always cut to what is left of the command timeout.
        public var connectTimeout: TimeInterval
        /// The longest one round trip (a command or a pipeline) may take, in seconds, counting
        /// the wait for a free pooled connection and a (re)connect (default 1). Past it the
        /// round trip fails with ``RedisClientError/Kind/timedOut``.
        public var commandTimeout: TimeInterval
        /// The most connections kept open to the server (default 4, at least 1). Round trips
        /// beyond that wait for a free connection.
        public var maxConnections: Int
        /// The wait before a server is tried again after an outage begins, in seconds (default
        /// 0.1). The backoff is per outage, not per failure: the first connection-level failure
        /// starts it, and failures of round trips already under way at that moment do not
        /// lengthen it. After the wait one round trip (the probe) tries the server while the
        /// others still fail at once; if the probe fails too, the wait doubles, up to
        /// ``maximumReconnectDelay``; if it succeeds, the outage is over. Each wait is shortened
        /// at random by up to a quarter, so that a fleet does not reconnect in step. While
        /// waiting, round trips fail at once with ``RedisClientError/Kind/backingOff``. 0 retries
        /// at once every time.
        public var initialReconnectDelay: TimeInterval
        /// The longest wait between reconnects, in seconds (default 10).
        public var maximumReconnectDelay: TimeInterval
        /// The largest reply accepted, in bytes (default 64 MiB). A larger reply (or a server
        /// announcing one) is a ``RedisClientError/Kind/protocolViolation``: memory stays bounded
        /// whatever the server sends.
        public var maxReplySize: Int
        /// How the server a command goes to is found (default ``Topology/standalone``:
        /// ``host`` and ``port``). With Sentinel or Cluster, ``host`` and ``port`` are not used.
        public var topology: Topology

        /// Settings as given; see each property for its default.
        /// - Parameters: See the properties.
        public init(
            host: String = "127.0.0.1",
            port: Int = 6379,
            username: String? = nil,
            password: String? = nil,
            database: Int = 0,
            connectTimeout: TimeInterval = 1,
            commandTimeout: TimeInterval = 1,
            maxConnections: Int = 4,
            initialReconnectDelay: TimeInterval = 0.1,
            maximumReconnectDelay: TimeInterval = 10,
            maxReplySize: Int = 64 << 20,
            topology: Topology = .standalone
        ) {
            self.host = host
            self.port = port
            self.username = username
            self.password = password
            self.database = database
            self.connectTimeout = connectTimeout
            self.commandTimeout = commandTimeout
            self.maxConnections = maxConnections
            self.initialReconnectDelay = initialReconnectDelay
            self.maximumReconnectDelay = maximumReconnectDelay
            self.maxReplySize = maxReplySize
            self.topology = topology
        }

        /// Where the servers are, for messages: `host:port` (IPv6 addresses in brackets) for one
        /// server, `sentinel NAME via host:port,...` or `cluster via host:port,...`.
        public var endpoint: String {
            switch topology {
            case .standalone:
                return RedisEndpoint(host: host, port: port).description
            case .sentinel(let sentinel):
                return "sentinel master \(sentinel.masterName) via \(sentinel.sentinels.map(\.description).joined(separator: ","))"
            case .cluster(let cluster):
                return "cluster via \(cluster.seeds.map(\.description).joined(separator: ","))"
            }
        }
    }

    /// Counters of a client since it was made. Read them with ``RedisClient/statistics``.
    public struct Statistics: Sendable, Hashable {
        /// Round trips that got their replies.
        public var roundTrips = 0
        /// Connections opened (including the handshake).
        public var connectionsOpened = 0
        /// Connection attempts that failed (refused, timed out, handshake rejected).
        public var connectFailures = 0
        /// Round trips that hit the command timeout.
        public var timeouts = 0
        /// Round trips that failed because the connection broke or the server sent bad bytes.
        public var connectionErrors = 0
        /// Round trips refused at once during a reconnect backoff.
        public var rejectedWhileBackingOff = 0
        /// Pooled connections found closed by the server (a restart) and replaced before use.
        public var staleConnectionsReplaced = 0
        /// Outages: times a server went from usable to backing off. Failures of round trips
        /// that were already under way when an outage began count in their own counters, not
        /// here, and do not lengthen the backoff.
        public var outages = 0
        /// Round trips that tried a server again after its backoff (one at a time per server).
        public var probes = 0
        /// Outages that ended: a round trip to the server succeeded again.
        public var recoveries = 0
        /// Commands sent again to the node a Redis Cluster named in a `MOVED` or `ASK` reply.
        public var redirections = 0
        /// Times the client asked for the topology again: a cluster's slot map (after a `MOVED`
        /// that contradicts the map, a connection failure, or before a key walk; not the first
        /// map), or the Sentinels for the master (after a failure on the master, or after the
        /// failover subscription moved to another Sentinel; not the first question, nor the
        /// replica list).
        public var topologyRefreshes = 0
        /// Times the master changed under the client (a Sentinel failover, seen by a
        /// `+switch-master` message or by asking the Sentinels).
        public var failovers = 0

        /// All counters at zero.
        public init() {}
    }
}
