/// Which master of a Redis Cluster serves each hash slot, as `CLUSTER SLOTS` answered (and
/// `MOVED` replies corrected since).
///
/// A value type: ``ClusterRouting`` keeps the current map under its lock and replaces it
/// whole after a refresh.
struct ClusterSlotMap: Sendable, Equatable {
    /// Every endpoint that owns or owned a slot; `owners` indexes into it.
    private var endpoints: [RedisEndpoint] = []
    /// For each slot, the index of its master in `endpoints`, or -1 when no master serves it.
    private var owners = [Int16](repeating: -1, count: RedisHashSlot.count)

    /// A map with no slot assigned.
    init() {}

    /// Whether no slot has a master.
    var isEmpty: Bool { masters.isEmpty }

    /// The masters that serve at least one slot, in the order they were first seen.
    var masters: [RedisEndpoint] {
        var used = [Bool](repeating: false, count: endpoints.count)
        for owner in owners where owner >= 0 { used[Int(owner)] = true }
        return endpoints.indices.filter { used[$0] }.map { endpoints[$0] }
    }

    /// How many slots have a master.
    var assignedSlotCount: Int { owners.count(where: { $0 >= 0 }) }

    /// The master of `slot`, or `nil` when none serves it.
    func master(ofSlot slot: Int) -> RedisEndpoint? {
        let owner = owners[slot]
        return owner >= 0 ? endpoints[Int(owner)] : nil
    }

    /// Makes `endpoint` the master of `slot` (what a `MOVED` reply says).
    mutating func assign(slot: Int, to endpoint: RedisEndpoint) {
        assign(slots: slot...slot, to: endpoint)
    }

    /// Makes `endpoint` the master of every slot in `slots`.
    mutating func assign(slots: ClosedRange<Int>, to endpoint: RedisEndpoint) {
        let index: Int
        if let known = endpoints.firstIndex(of: endpoint) {
            index = known
        } else {
            index = endpoints.count
            endpoints.append(endpoint)
        }
        for slot in slots { owners[slot] = Int16(index) }
    }

    /// The map a `CLUSTER SLOTS` reply describes.
    ///
    /// Each element of the reply is `[first slot, last slot, [host, port, id, ...], replicas...]`;
    /// only the master (the first node) is used. An empty host means the node that answered
    /// (Redis sends it when the master does not know its own address); a host of `?` (an
    /// unknown endpoint) leaves the range unassigned.
    /// - Parameters:
    ///   - reply: The reply.
    ///   - askedAt: The node that answered.
    /// - Throws: ``RedisClientError`` (``RedisClientError/Kind/protocolViolation``) naming
    ///   `askedAt` when the reply is an error or not of that shape.
    init(clusterSlotsReply reply: RedisValue, askedAt: RedisEndpoint) throws(RedisClientError) {
        if case .error(let message) = reply {
            throw RedisClientError(.protocolViolation, "\(askedAt) answered CLUSTER SLOTS with \(message)")
        }
        guard let ranges = reply.array else {
            throw RedisClientError(.protocolViolation, "\(askedAt) answered CLUSTER SLOTS with \(reply), not an array")
        }
        self.init()
        for range in ranges {
            guard let parts = range.array, parts.count >= 3,
                  let first = parts[0].integer, let last = parts[1].integer,
                  0 <= first, first <= last, last < RedisHashSlot.count,
                  let master = parts[2].array, master.count >= 2,
                  let host = master[0].string, let port = master[1].integer, (1...65535).contains(port) else {
                throw RedisClientError(.protocolViolation, "\(askedAt) answered CLUSTER SLOTS with a range that is not [first, last, [host, port, ...], ...]: \(range)")
            }
            if host == "?" { continue }
            assign(slots: first...last, to: RedisEndpoint(host: host.isEmpty ? askedAt.host : host, port: port))
        }
    }
}
