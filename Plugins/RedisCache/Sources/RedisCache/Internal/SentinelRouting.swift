import WebImageCore

/// ``RedisRouting`` to a master watched by Redis Sentinels (placeholder: the first Sentinel's
/// address is used as the server until the Sentinel routing lands).
enum SentinelRouting {
    static func make(_ sentinel: RedisClient.SentinelConfiguration, configuration: RedisClient.Configuration, counters: Locked<RedisClient.Statistics>, parser: RESPParser) -> any RedisRouting {
        let endpoint = sentinel.sentinels.first ?? RedisEndpoint(host: configuration.host, port: configuration.port)
        return StandaloneRouting(node: RedisNode(endpoint: endpoint, configuration: configuration, handshake: RedisNode.dataHandshake(configuration), counters: counters, parser: parser))
    }
}
