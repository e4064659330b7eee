import WebImageCore

extension RedisClient {
    /// The routing of a Sentinel or Cluster topology.
    static func makeRouting(_ configuration: Configuration, counters: Locked<Statistics>, parser: RESPParser) -> any RedisRouting {
        // Placeholder until the Sentinel and Cluster routings land: the first endpoint, alone.
        let endpoint: RedisEndpoint
        switch configuration.topology {
        case .standalone: endpoint = RedisEndpoint(host: configuration.host, port: configuration.port)
        case .sentinel(let sentinel): endpoint = sentinel.sentinels.first ?? RedisEndpoint(host: configuration.host, port: configuration.port)
        case .cluster(let cluster): endpoint = cluster.seeds.first ?? RedisEndpoint(host: configuration.host, port: configuration.port)
        }
        return StandaloneRouting(node: RedisNode(endpoint: endpoint, configuration: configuration, handshake: RedisNode.dataHandshake(configuration), counters: counters, parser: parser))
    }
}
