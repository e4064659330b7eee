extension RedisCommand {
    /// `SENTINEL get-master-addr-by-name name`: the master's `[ip, port]`, or null when the
    /// Sentinel watches no master of that name.
    static func sentinelMasterAddress(_ masterName: String) -> RedisCommand {
        RedisCommand("SENTINEL", text: "get-master-addr-by-name", masterName)
    }

    /// `SENTINEL replicas name` (Redis 5+): one flat field/value array per replica.
    static func sentinelReplicas(_ masterName: String) -> RedisCommand {
        RedisCommand("SENTINEL", text: "replicas", masterName)
    }

    /// `SUBSCRIBE channel`: puts the connection in subscriber mode.
    static func subscribe(_ channel: String) -> RedisCommand {
        RedisCommand("SUBSCRIBE", text: channel)
    }
}
