/// ``RedisRouting`` to one server: every command goes to it.
final class StandaloneRouting: RedisRouting {
    let node: RedisNode

    init(node: RedisNode) {
        self.node = node
    }

    func pipeline(_ commands: [RedisCommand], what: String, deadline: Deadline) async throws -> [RedisValue] {
        try await node.roundTrip(commands, what: what, deadline: deadline)
    }

    func primaries(deadline: Deadline) async throws -> [RedisNode] {
        [node]
    }

    var nodes: [(node: RedisNode, role: RedisClient.NodeRole)] {
        [(node, .standalone)]
    }

    func shutdown() {
        node.shutdown()
    }
}
