extension RedisClient {
    /// How the client finds the server a command goes to.
    ///
    /// - ``standalone``: one server, ``Configuration/host`` and ``Configuration/port``.
    /// - ``sentinel(_:)``: a master watched by Redis Sentinels. The client asks the Sentinels
    ///   for the master's address, follows their failovers, and retries a command once on the
    ///   new master after one.
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
        /// The Sentinels to ask, in order (at least one). Usually on port 26379.
        public var sentinels: [RedisEndpoint]
        /// The name the Sentinels know the master by (`sentinel monitor NAME ...`).
        public var masterName: String
        /// The ACL user for `AUTH` on the Sentinels; `nil` sends `AUTH password`.
        public var username: String?
        /// The Sentinels' own password (`requirepass` in sentinel.conf); `nil` (the default)
        /// sends no `AUTH` to them. The data servers use ``Configuration/password``.
        public var password: String?
        /// Whether read-only commands (`GET`, `EXISTS`, `PTTL`) go to a replica when there is
        /// one (default `false`: everything goes to the master). A replica may lag behind the
        /// master: a value stored a moment ago may still be a miss there.
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
