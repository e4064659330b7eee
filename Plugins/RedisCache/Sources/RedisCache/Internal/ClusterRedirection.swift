/// What an error reply of a Redis Cluster node asks of the client: go to another node
/// (`-MOVED`, `-ASK`), or try again in a moment (`-TRYAGAIN`, `-CLUSTERDOWN`).
enum ClusterRedirection: Sendable, Equatable {
    /// `-MOVED slot host:port`: the slot is served by that node now; the client updates its
    /// slot map and sends the command there.
    case moved(slot: Int, to: RedisEndpoint)
    /// `-ASK slot host:port`: the slot is being migrated and this key is already on that node;
    /// the client sends `ASKING` and the command there, once, and keeps its map.
    case ask(slot: Int, to: RedisEndpoint)
    /// `-TRYAGAIN` (a multi-key command during a slot's migration, with some of its keys
    /// moved) or `-CLUSTERDOWN` (the cluster cannot serve the slot now, say during a
    /// failover): the same command may succeed a moment later.
    case tryAgain

    /// The redirection `reply` asks for, or `nil` when it is not one (a value, or another
    /// error).
    /// - Parameters:
    ///   - reply: A reply from `node`.
    ///   - node: Where it came from: the host of an address without one (`:7001`, sent by a
    ///     node that does not know its own address).
    init?(_ reply: RedisValue, from node: RedisEndpoint) {
        guard case .error(let message) = reply else { return nil }
        let words = message.split(separator: " ", omittingEmptySubsequences: true)
        guard let kind = words.first else { return nil }
        switch kind {
        case "MOVED", "ASK":
            guard words.count >= 3, let slot = Int(words[1]), (0..<RedisHashSlot.count).contains(slot),
                  let endpoint = Self.endpoint(words[2], from: node) else { return nil }
            self = kind == "MOVED" ? .moved(slot: slot, to: endpoint) : .ask(slot: slot, to: endpoint)
        case "TRYAGAIN", "CLUSTERDOWN":
            self = .tryAgain
        default:
            return nil
        }
    }

    /// `host:port` of a redirection, split at the last colon (an IPv6 address is sent without
    /// brackets); an empty host is `node`'s.
    private static func endpoint(_ address: Substring, from node: RedisEndpoint) -> RedisEndpoint? {
        guard let colon = address.lastIndex(of: ":"),
              let port = Int(address[address.index(after: colon)...]), (1...65535).contains(port) else { return nil }
        var host = String(address[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return RedisEndpoint(host: host.isEmpty ? node.host : host, port: port)
    }
}
