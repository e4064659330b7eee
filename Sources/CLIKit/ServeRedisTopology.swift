import RedisCache

/// `--redis-sentinel LIST --redis-master NAME` and `--redis-cluster LIST`: the Redis topology of
/// `webimage serve`, on top of what `--redis URL` gives.
///
/// Decisions:
/// - A list is `host:port` entries separated by commas (`10.0.0.5:26379,10.0.0.6:26379`;
///   IPv6 in brackets). A Sentinel without a port is on 26379, a cluster node on 6379.
/// - The data servers' user, password and database come from `--redis URL` when it is given
///   with either option (its host and port are then not used: the Sentinels name the master,
///   the cluster its nodes); a cluster has only database 0.
/// - `--redis-sentinel-password` is the Sentinels' own `requirepass` (they often have none while
///   the data servers have one); `--redis-read-replicas` sends queries to a replica.
enum ServeRedisTopology {
    /// The client configuration the options of `arguments` name, or `nil` when they name no Redis.
    /// - Parameters:
    ///   - url: The configuration `--redis` gave, if any.
    ///   - arguments: The parsed options.
    ///   - command: The command's name, for messages.
    /// - Throws: ``CLIError`` (usage) saying which option is wrong and why.
    static func configuration(url: RedisClient.Configuration?, _ arguments: ParsedArguments, command: String) throws(CLIError) -> RedisClient.Configuration? {
        let sentinelList = arguments.value("--redis-sentinel")
        let clusterList = arguments.value("--redis-cluster")
        let masterName = arguments.value("--redis-master")
        let sentinelPassword = arguments.value("--redis-sentinel-password")
        let readReplicas = arguments.has("--redis-read-replicas")
        if sentinelList == nil {
            if masterName != nil { throw .usage("\(command): --redis-master needs --redis-sentinel (the Sentinels that know the master)") }
            if sentinelPassword != nil { throw .usage("\(command): --redis-sentinel-password needs --redis-sentinel") }
            if readReplicas { throw .usage("\(command): --redis-read-replicas needs --redis-sentinel") }
        }
        if let sentinelList {
            guard let masterName, !masterName.isEmpty else {
                throw .usage("\(command): --redis-sentinel needs --redis-master NAME (the name the Sentinels monitor the master by)")
            }
            var configuration = url ?? RedisClient.Configuration()
            configuration.topology = .sentinel(RedisClient.SentinelConfiguration(
                sentinels: try endpoints(sentinelList, option: "--redis-sentinel", defaultPort: 26379, command: command),
                masterName: masterName,
                password: sentinelPassword,
                readFromReplicas: readReplicas
            ))
            return configuration
        }
        if let clusterList {
            var configuration = url ?? RedisClient.Configuration()
            guard configuration.database == 0 else {
                throw .usage("\(command): --redis-cluster: a Redis Cluster has only database 0, and --redis names database \(configuration.database)")
            }
            configuration.topology = .cluster(RedisClient.ClusterConfiguration(
                seeds: try endpoints(clusterList, option: "--redis-cluster", defaultPort: 6379, command: command)
            ))
            return configuration
        }
        return url
    }

    /// The endpoints of a comma-separated list.
    private static func endpoints(_ list: String, option: String, defaultPort: Int, command: String) throws(CLIError) -> [RedisEndpoint] {
        var endpoints: [RedisEndpoint] = []
        for entry in list.split(separator: ",", omittingEmptySubsequences: false) {
            do {
                endpoints.append(try RedisEndpoint(parsing: String(entry), defaultPort: defaultPort))
            } catch {
                throw .usage("\(command): \(option) needs host:port entries separated by commas (10.0.0.5:\(defaultPort),10.0.0.6:\(defaultPort)): \(error.message)")
            }
        }
        return endpoints
    }
}
