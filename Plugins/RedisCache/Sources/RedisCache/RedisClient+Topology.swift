extension RedisClient {
    /// How the client finds the server a command goes to.
    ///
    /// - ``standalone``: one server, ``Configuration/host`` and ``Configuration/port``.
    /// - ``sentinel(_:)``: a master watched by Redis Sentinels. The first round trip asks the
    ///   Sentinels for the master's address (within its command timeout). Failovers are followed
    ///   two ways: a subscription to the Sentinels' `+switch-master` announcements (a connection
    ///   to one Sentinel at a time, on a thread of its own) switches to the new master at once;
    ///   and a round trip that fails on the master at the connection level, or is answered
    ///   `READONLY` or `MASTERDOWN`, asks the Sentinels again and, if the master changed, is sent
    ///   once more to the new one within the same command timeout. Until the Sentinels have
    ///   promoted a replica, round trips fail as in any outage.
    /// - ``cluster(_:)``: a Redis Cluster. Keys are sharded over its masters by hash slot; the
    ///   client keeps the slot map and follows `MOVED` and `ASK` redirections.
    ///
    /// In every topology the timeouts, the pool size (per server), the backoff (per server) and
    /// the handshake (``Configuration/username``, ``Configuration/password``,
    /// ``Configuration/database``) of the ``Configuration`` apply to the data servers.
    public enum Topology: Sendable, Hashable {
        /// One server (the default).
        case standalone
        /// A master and its replicas, watched by Sentinels.
        case sentinel(SentinelConfiguration)
        /// A Redis Cluster.
        case cluster(ClusterConfiguration)
    }

    /// Where the Sentinels are and which master they watch.
    public struct SentinelConfiguration: Sendable, Hashable {
        /// The Sentinels to ask, in order (at least one; a Sentinel that is down, or does not
        /// know ``masterName``, passes to the next). Usually on port 26379:
        /// `RedisEndpoint(parsing: text, defaultPort: 26379)`.
        public var sentinels: [RedisEndpoint]
        /// The name the Sentinels know the master by (`sentinel monitor NAME ...`).
        public var masterName: String
        /// The ACL user for `AUTH` on the Sentinels; `nil` sends `AUTH password`.
        public var username: String?
        /// The Sentinels' own password (`requirepass` in sentinel.conf); `nil` (the default)
        /// sends no `AUTH` to them. The data servers use ``Configuration/password``.
        public var password: String?
        /// Whether pipelines made only of read-only commands (`GET`, `EXISTS`, `PTTL`, `MGET`,
        /// `STRLEN`, `TTL`) go to a replica when there is one (default `false`: everything goes
        /// to the master). Replicas come from `SENTINEL replicas` (not those flagged `s_down`,
        /// `o_down` or `disconnected`), are used round robin, and are asked for again after a
        /// failover and at most every 5 s otherwise; a replica that fails, or answers
        /// `MASTERDOWN` or `LOADING`, passes the read to the master. The trade-off: a replica
        /// may lag behind the master, so a value stored a moment ago may still be a miss there.
        public var readFromReplicas: Bool

        /// Settings as given.
        /// - Parameters: See the properties.
        public init(sentinels: [RedisEndpoint], masterName: String, username: String? = nil, password: String? = nil, readFromReplicas: Bool = false) {
            self.sentinels = sentinels
            self.masterName = masterName
            self.username = username
            self.password = password
            self.readFromReplicas = readFromReplicas
        }
    }

    /// Where a Redis Cluster can be reached.
    ///
    /// The client reads the slot map (`CLUSTER SLOTS`) from the seeds, keeps a connection pool
    /// per master, sends each command to the master of its key's slot (a pipeline: one round
    /// trip per master, all at once), splits `DEL`, `UNLINK`, `EXISTS` and `TOUCH` over slots,
    /// and follows `MOVED` and `ASK` (counted in ``RedisClient/Statistics/redirections``). A
    /// cluster has database 0 only: ``Configuration/database`` must be 0.
    public struct ClusterConfiguration: Sendable, Hashable {
        /// Nodes to ask for the slot map (at least one; any node of the cluster will do, more
        /// than one in case one is down).
        public var seeds: [RedisEndpoint]

        /// Settings as given.
        /// - Parameter seeds: See ``seeds``.
        public init(seeds: [RedisEndpoint]) {
            self.seeds = seeds
        }
    }
}

extension RedisClient.Topology {
    /// Whether this is ``cluster(_:)``.
    var isCluster: Bool {
        if case .cluster = self { return true }
        return false
    }
}
