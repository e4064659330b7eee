extension RedisClient {
    /// What a server is to the client.
    public enum NodeRole: String, Sendable, Hashable, CaseIterable {
        /// The one server of ``Topology/standalone``.
        case standalone
        /// The master (Sentinel) or a master of a cluster: it takes writes.
        case master
        /// A replica (Sentinel, with ``SentinelConfiguration/readFromReplicas``).
        case replica
        /// A Sentinel, asked where the master is.
        case sentinel
    }

    /// The state of one server the client talks to, from ``RedisClient/nodeStates``.
    public struct NodeState: Sendable, Hashable {
        /// Where the server is.
        public var endpoint: RedisEndpoint
        /// What it is to the client.
        public var role: NodeRole
        /// Whether an outage of the server is under way: the client backs off, or waits for a
        /// probe to succeed.
        public var isInOutage: Bool
        /// When the server is tried again, while the client is backing off from it; `nil`
        /// otherwise.
        public var reconnectAllowedAt: ContinuousClock.Instant?
        /// The failed attempts of the current outage (the first failure and each failed probe;
        /// 0 when none): the backoff step.
        public var outageFailures: Int
    }
}
