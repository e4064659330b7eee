import Foundation
import RedisCache

/// The Redis client's state and counters as `/metrics` samples (`webimage_serve_redis_*`), for
/// ``ImageServerConfiguration/additionalMetrics``.
///
/// - Per server the client talks to (label `endpoint`, `role`: standalone, master, replica,
///   sentinel): `webimage_serve_redis_up` (0 during an outage of it), `_backoff_seconds` (the
///   time left before it is tried again) and `_outage_failures` (the backoff step: the first
///   failure and each failed probe of the current outage).
/// - The client's counters since start: round trips, outages, probes, recoveries, round trips
///   refused while backing off, timeouts, connect failures, broken connections, cluster
///   redirections, topology refreshes and failovers.
enum RedisClientMetrics {
    /// The exposition text of `client` now.
    static func exposition(of client: RedisClient) -> String {
        var text = ""
        let now = ContinuousClock.now
        let nodes = client.nodeStates
        func gauge(_ name: String, _ help: String, _ value: (RedisClient.NodeState) -> String) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) gauge\n"
            for node in nodes {
                text += "\(name){endpoint=\"\(escaped(node.endpoint.description))\",role=\"\(node.role.rawValue)\"} \(value(node))\n"
            }
        }
        gauge("webimage_serve_redis_up", "1 when the Redis server is in use, 0 during an outage of it (backing off or waiting for a probe).") { $0.isInOutage ? "0" : "1" }
        gauge("webimage_serve_redis_backoff_seconds", "Seconds left before the Redis server is tried again (0 when it is not being backed off).") { node in
            guard let retryAt = node.reconnectAllowedAt, retryAt > now else { return "0" }
            let (seconds, attoseconds) = (retryAt - now).components
            return String(Double(seconds) + Double(attoseconds) / 1e18)
        }
        gauge("webimage_serve_redis_outage_failures", "Failed attempts of the current outage of the Redis server (its backoff step; 0 when none).") { String($0.outageFailures) }

        let statistics = client.statistics
        let counters: [(String, String, Int)] = [
            ("round_trips", "Redis round trips that got their replies.", statistics.roundTrips),
            ("outages", "Outages: times a Redis server went from usable to backing off.", statistics.outages),
            ("probes", "Round trips that tried a Redis server again after its backoff.", statistics.probes),
            ("recoveries", "Outages that ended with a successful round trip.", statistics.recoveries),
            ("rejected_while_backing_off", "Round trips refused at once during a backoff (a cache miss or a dropped store each).", statistics.rejectedWhileBackingOff),
            ("timeouts", "Redis round trips that hit the command timeout.", statistics.timeouts),
            ("connect_failures", "Connections to Redis that could not be made.", statistics.connectFailures),
            ("connection_errors", "Redis round trips that failed on a broken connection or bad bytes.", statistics.connectionErrors),
            ("redirections", "Commands sent again to the node a Redis Cluster named (MOVED, ASK).", statistics.redirections),
            ("topology_refreshes", "Times the slot map or the master was asked for again.", statistics.topologyRefreshes),
            ("failovers", "Times the master changed under the client (Sentinel).", statistics.failovers),
        ]
        for (name, help, value) in counters {
            text += "# HELP webimage_serve_redis_\(name)_total \(help)\n# TYPE webimage_serve_redis_\(name)_total counter\n"
            text += "webimage_serve_redis_\(name)_total \(value)\n"
        }
        return text
    }

    /// `value` as a label value: backslash, double quote and newline escaped.
    private static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    }
}
