import Foundation

/// A master, one replica in sync with it, and a Sentinel watching them: what a Sentinel test
/// needs, started in the order that makes the Sentinel know the replica at once (master,
/// replica in sync, then the Sentinel, whose first `INFO` to the master lists the replica).
///
/// ```swift
/// let group = try await RedisSentinelGroup.start()
/// defer { group.stop() }
/// let client = RedisClient(configuration: .init(topology: .sentinel(.init(sentinels: [group.sentinelEndpoint], masterName: group.masterName))))
/// ```
public struct RedisSentinelGroup: Sendable {
    /// The master at the start.
    public let master: RedisServerProcess
    /// Its replica, in sync at the start: the one a failover promotes.
    public let replica: RedisServerProcess
    /// The Sentinel.
    public let sentinel: RedisSentinelProcess

    /// The name the Sentinel knows the master by.
    public var masterName: String { sentinel.masterName }

    /// Starts the three and waits until the Sentinel lists the replica.
    /// - Parameter masterName: The master's name (default `"mymaster"`).
    /// - Throws: ``HarnessError`` when one does not come up; what was started is stopped.
    public static func start(masterName: String = "mymaster") async throws -> RedisSentinelGroup {
        // No wait before a diskless full sync (5 s by default, for more replicas to join).
        let master = try await RedisServerProcess.start(extraArguments: ["--repl-diskless-sync-delay", "0"])
        do {
            let replica = try await RedisServerProcess.startReplica(of: master)
            do {
                let sentinel = try await RedisSentinelProcess.start(masterPort: master.port, masterName: masterName)
                do {
                    try await sentinel.waitUntilReplicaIsKnown(port: replica.port)
                    return RedisSentinelGroup(master: master, replica: replica, sentinel: sentinel)
                } catch {
                    sentinel.stop()
                    throw error
                }
            } catch {
                replica.stop()
                throw error
            }
        } catch {
            master.stop()
            throw error
        }
    }

    /// Stops the three. Idempotent.
    public func stop() {
        sentinel.stop()
        replica.stop()
        master.stop()
    }
}
