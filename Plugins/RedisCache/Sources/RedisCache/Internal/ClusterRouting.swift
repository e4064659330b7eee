import WebImageCore

/// ``RedisRouting`` to a Redis Cluster (placeholder: the first seed is used as the server until
/// the Cluster routing lands).
enum ClusterRouting {
    static func make(_ cluster: RedisClient.ClusterConfiguration, configuration: RedisClient.Configuration, counters: Locked<RedisClient.Statistics>, parser: RESPParser) -> any RedisRouting {
        let endpoint = cluster.seeds.first ?? RedisEndpoint(host: configuration.host, port: configuration.port)
        return StandaloneRouting(node: RedisNode(endpoint: endpoint, configuration: configuration, handshake: RedisNode.dataHandshake(configuration), counters: counters, parser: parser))
    }
}
