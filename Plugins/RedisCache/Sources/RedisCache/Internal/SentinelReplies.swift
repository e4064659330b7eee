/// Reads what Sentinels answer and announce: the master's address, the replica list, a
/// `+switch-master` message. Pure functions over ``RedisValue``s.
enum SentinelReplies {
    /// The flags of a replica that must not serve reads: down in the eyes of this Sentinel or
    /// of the quorum, or not connected to it.
    static let unusableReplicaFlags: Set<String> = ["s_down", "o_down", "disconnected"]

    /// The address in a `SENTINEL get-master-addr-by-name` reply (`[ip, port]`), or `nil` for
    /// a null (the Sentinel does not know the name) or anything else.
    static func masterAddress(_ reply: RedisValue) -> RedisEndpoint? {
        guard let parts = reply.array, parts.count == 2, let host = parts[0].string, !host.isEmpty,
              let port = parts[1].integer, (1...65535).contains(port) else { return nil }
        return RedisEndpoint(host: host, port: port)
    }

    /// The usable replicas in a `SENTINEL replicas` reply (an array of flat field/value arrays),
    /// in the Sentinel's order: those with an `ip` and a `port`, and none of
    /// ``unusableReplicaFlags`` among their comma-separated `flags`. `nil` when the reply is not
    /// such an array (an error reply).
    static func replicas(_ reply: RedisValue) -> [RedisEndpoint]? {
        guard let entries = reply.array else { return nil }
        var endpoints: [RedisEndpoint] = []
        for entry in entries {
            guard let fields = entry.array else { continue }
            var values: [String: String] = [:]
            var index = 0
            while index + 1 < fields.count {
                if let name = fields[index].string, let value = fields[index + 1].string {
                    values[name] = value
                }
                index += 2
            }
            let flags = Set((values["flags"] ?? "").split(separator: ",").map(String.init))
            guard let host = values["ip"], !host.isEmpty, let port = values["port"].flatMap({ Int($0) }),
                  (1...65535).contains(port), flags.isDisjoint(with: unusableReplicaFlags) else { continue }
            endpoints.append(RedisEndpoint(host: host, port: port))
        }
        return endpoints
    }

    /// The new master's address in a `+switch-master` message for `masterName`
    /// (`["message", "+switch-master", "<name> <old-ip> <old-port> <new-ip> <new-port>"]`), or
    /// `nil` for a message about another master, or anything else.
    static func switchedMaster(_ message: RedisValue, masterName: String) -> RedisEndpoint? {
        guard let parts = message.array, parts.count == 3, parts[0].string == "message",
              parts[1].string == switchMasterChannel, let payload = parts[2].string else { return nil }
        let words = payload.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 5, words.dropLast(4).joined(separator: " ") == masterName,
              let port = Int(words[words.count - 1]), (1...65535).contains(port) else { return nil }
        return RedisEndpoint(host: String(words[words.count - 2]), port: port)
    }

    /// Whether `reply` confirms the subscription to ``switchMasterChannel``
    /// (`["subscribe", "+switch-master", 1]`).
    static func isSubscribed(_ reply: RedisValue) -> Bool {
        guard let parts = reply.array, parts.count == 3 else { return false }
        return parts[0].string == "subscribe" && parts[1].string == switchMasterChannel
    }

    /// Whether an error reply from the master says it is not (or no longer) a usable master:
    /// `READONLY` (demoted to a replica by a failover) or `MASTERDOWN` (a replica whose master
    /// is gone).
    static func saysNotMaster(_ reply: RedisValue) -> Bool {
        guard case .error(let message) = reply else { return false }
        return message.hasPrefix("READONLY") || message.hasPrefix("MASTERDOWN")
    }

    /// Whether an error reply from a replica says it cannot serve reads now: `MASTERDOWN`
    /// (`replica-serve-stale-data no` while its master is gone) or `LOADING` (loading its data).
    static func saysReplicaUnavailable(_ reply: RedisValue) -> Bool {
        guard case .error(let message) = reply else { return false }
        return message.hasPrefix("MASTERDOWN") || message.hasPrefix("LOADING")
    }

    /// The channel on which Sentinels announce a new master.
    static let switchMasterChannel = "+switch-master"

    /// The commands that only read, and may go to a replica with
    /// ``RedisClient/SentinelConfiguration/readFromReplicas``.
    static let readOnlyCommands: Set<String> = ["GET", "EXISTS", "PTTL", "MGET", "STRLEN", "TTL"]
}
