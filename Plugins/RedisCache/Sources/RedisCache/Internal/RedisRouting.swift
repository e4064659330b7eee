/// How a ``RedisClient`` sends commands to the servers of its topology: one server
/// (``StandaloneRouting``), a Sentinel-managed master, or a Redis Cluster.
///
/// A routing owns the ``RedisNode``s it talks to and decides, per round trip, which of them
/// gets which commands; redirections, failovers and retries happen inside ``pipeline(_:what:deadline:)``,
/// all within the round trip's deadline.
protocol RedisRouting: Sendable {
    /// Sends `commands` and returns one reply per command, in order.
    /// - Throws: ``RedisClientError`` at the connection level; `CancellationError`.
    func pipeline(_ commands: [RedisCommand], what: String, deadline: Deadline) async throws -> [RedisValue]

    /// The data servers a key walk (`SCAN`) must visit: the one server, the master, or every
    /// master of a cluster. Each is asked with ``RedisNode/roundTrip(_:what:deadline:)``.
    func primaries(deadline: Deadline) async throws -> [RedisNode]

    /// Every node the routing holds now, with its role, for the client's state.
    var nodes: [(node: RedisNode, role: RedisClient.NodeRole)] { get }

    /// Closes every node; later round trips fail with ``RedisClientError/Kind/shutDown``.
    func shutdown()
}
