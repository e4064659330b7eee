import WebImageCore

extension RedisClient {
    /// The routing of `configuration`'s topology.
    static func makeRouting(_ configuration: Configuration, counters: Locked<Statistics>, parser: RESPParser) -> any RedisRouting {
        switch configuration.topology {
        case .standalone:
            let node = RedisNode(
                endpoint: RedisEndpoint(host: configuration.host, port: configuration.port),
                configuration: configuration,
                handshake: RedisNode.dataHandshake(configuration),
                counters: counters,
                parser: parser
            )
            return StandaloneRouting(node: node)
        case .sentinel(let sentinel):
            return SentinelRouting(sentinel, configuration: configuration, counters: counters, parser: parser)
        case .cluster(let cluster):
            return ClusterRouting(cluster, configuration: configuration, counters: counters, parser: parser)
        }
    }
}
