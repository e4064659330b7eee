import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import RedisServerHarness
@testable import RedisCache

/// The Redis client against a real `redis-server` on a loopback port: commands, binary safety,
/// pipelining, AUTH, SELECT, the pool, the reply limit, restarts.
@Suite(.whenThePoolResponds, .enabled(if: RedisTestEnvironment.hasRedis, "redis-server is not installed (apt-get install redis-server): Redis client tests skipped"))
struct RedisClientTests {
    @Test func commandsRoundTripBinarySafeKeysAndValues() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let client = RedisClient(configuration: RedisTestEnvironment.clientConfiguration(port: server.port))
        #expect(await client.ping())
        let key = Data([0, 1, 2, 13, 10, 0xFF])
        let value = Data((0..<1024).map { UInt8($0 % 256) })
        #expect(try await client.send(.set(key, value)) == .simpleString("OK"))
        #expect(try await client.send(.get(key)) == .bulkString(value))
        #expect(try await client.send(.exists([key, Data("absent".utf8)])) == .integer(1))
        #expect(try await client.send(.unlink([key])) == .integer(1))
        #expect(try await client.send(.get(key)) == .null)
        #expect(try await client.send(.del([key])) == .integer(0))
        // A refused command is a value, and the connection stays usable.
        let refused = try await client.send(RedisCommand("NOSUCHCOMMAND", text: "x"))
        #expect(refused.isError)
        #expect(await client.ping())
        #expect(client.statistics.connectionsOpened == 1)
    }

    @Test func aPipelineIsOneRoundTrip() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let client = RedisClient(configuration: RedisTestEnvironment.clientConfiguration(port: server.port))
        let keys = (0..<200).map { Data("pipeline:\($0)".utf8) }
        // An hour: a full parallel run may keep this task waiting more than a minute between the
        // pipeline and the PTTL below (a 60 s expiry once ran out there, issue 38).
        let commands = keys.map { RedisCommand.set($0, $0 + Data("-value".utf8), expiresInMilliseconds: 3_600_000) } + keys.map { RedisCommand.get($0) }
        let replies = try await client.pipeline(commands)
        #expect(replies.count == 400)
        #expect(replies.prefix(200).allSatisfy { $0 == .simpleString("OK") })
        for (index, key) in keys.enumerated() {
            #expect(replies[200 + index] == .bulkString(key + Data("-value".utf8)))
        }
        #expect(client.statistics.roundTrips == 1)
        let ttl = try await client.send(.pttl(keys[0])).integer ?? -1
        #expect(ttl > 0 && ttl <= 3_600_000)
        #expect(try await client.pipeline([]) == [])
    }

    @Test func scanWalksTheKeyspace() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let client = RedisClient(configuration: RedisTestEnvironment.clientConfiguration(port: server.port))
        _ = try await client.pipeline((0..<50).map { RedisCommand.set(Data("scan:\($0)".utf8), Data("v".utf8)) } + [.set(Data("other".utf8), Data("v".utf8))])
        var cursor = "0"
        var found = Set<Data>()
        repeat {
            let reply = try #require(try await client.send(.scan(cursor: cursor, match: Data("scan:*".utf8), count: 7)).array)
            cursor = try #require(reply[0].string)
            for key in try #require(reply[1].array) { found.insert(try #require(key.data)) }
        } while cursor != "0"
        #expect(found.count == 50)
        #expect(!found.contains(Data("other".utf8)))
    }

    @Test func authWithThePasswordAndRefusalWithout() async throws {
        let server = try await RedisServerProcess.start(extraArguments: ["--requirepass", "s3cret"])
        defer { server.stop() }
        var configuration = RedisTestEnvironment.clientConfiguration(port: server.port)
        configuration.password = "s3cret"
        #expect(await RedisClient(configuration: configuration).ping())

        // No AUTH: the server answers commands with an error reply.
        let anonymous = RedisClient(configuration: RedisTestEnvironment.clientConfiguration(port: server.port))
        let reply = try await anonymous.send(.get(Data("k".utf8)))
        #expect(reply.string == nil && reply.isError && reply.description.contains("NOAUTH"))

        // A wrong password: the handshake is refused, the round trip throws.
        configuration.password = "wrong"
        let refused = RedisClient(configuration: configuration)
        let error = await #expect(throws: WebImageError.self) { try await refused.send(.ping) }
        #expect(error?.code == .cacheFailure)
        #expect((error?.underlyingError as? RedisClientError)?.kind == .handshakeRejected)
        #expect(error?.message.contains("AUTH") == true)
        #expect(refused.statistics.connectFailures == 1)
    }

    @Test func authWithAnACLUser() async throws {
        let server = try await RedisServerProcess.start(extraArguments: ["--user", "alice", "on", ">pw", "~*", "&*", "+@all"])
        defer { server.stop() }
        var configuration = RedisTestEnvironment.clientConfiguration(port: server.port)
        configuration.username = "alice"
        configuration.password = "pw"
        let client = RedisClient(configuration: configuration)
        #expect(try await client.send(.set(Data("k".utf8), Data("v".utf8))) == .simpleString("OK"))
        configuration.password = "nope"
        let error = await #expect(throws: WebImageError.self) { try await RedisClient(configuration: configuration).send(.ping) }
        #expect((error?.underlyingError as? RedisClientError)?.kind == .handshakeRejected)
    }

    @Test func selectKeepsDatabasesApart() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        var configuration = RedisTestEnvironment.clientConfiguration(port: server.port)
        let zero = RedisClient(configuration: configuration)
        configuration.database = 3
        let three = RedisClient(configuration: configuration)
        let key = Data("shared-name".utf8)
        _ = try await zero.send(.set(key, Data("zero".utf8)))
        _ = try await three.send(.set(key, Data("three".utf8)))
        #expect(try await zero.send(.get(key)) == .bulkString(Data("zero".utf8)))
        #expect(try await three.send(.get(key)) == .bulkString(Data("three".utf8)))

        configuration.database = 99  // the server has 16
        let error = await #expect(throws: WebImageError.self) { try await RedisClient(configuration: configuration).send(.ping) }
        #expect((error?.underlyingError as? RedisClientError)?.kind == .handshakeRejected)
        #expect(error?.message.contains("SELECT") == true)
    }

    @Test func thePoolNeverOpensMoreThanItsLimit() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let client = RedisClient(configuration: RedisTestEnvironment.clientConfiguration(port: server.port, maxConnections: 2))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask { () async throws -> Void in
                    for step in 0..<10 {
                        let key = Data("pool:\(task):\(step)".utf8)
                        #expect(try await client.send(.set(key, key)) == .simpleString("OK"))
                        #expect(try await client.send(.get(key)) == .bulkString(key))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(client.statistics.connectionsOpened <= 2)
        #expect(client.statistics.roundTrips == 320)
        let clients = try await client.send(RedisCommand("CLIENT", text: "LIST")).string ?? ""
        #expect(clients.split(separator: "\n").count <= 2)
    }

    @Test func aReplyOverTheLimitIsAProtocolViolation() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let writer = RedisClient(configuration: RedisTestEnvironment.clientConfiguration(port: server.port))
        _ = try await writer.send(.set(Data("big".utf8), Data(count: 10_000)))
        var configuration = RedisTestEnvironment.clientConfiguration(port: server.port, initialReconnectDelay: 0)
        configuration.maxReplySize = 4096
        let limited = RedisClient(configuration: configuration)
        let error = await #expect(throws: WebImageError.self) { try await limited.send(.get(Data("big".utf8))) }
        #expect((error?.underlyingError as? RedisClientError)?.kind == .protocolViolation)
        #expect(error?.message.contains("over the reply limit of 4096 bytes") == true)
        // The connection was dropped (the rest of the reply is unread); a new one works.
        #expect(await limited.ping())
        #expect(limited.statistics.connectionsOpened == 2)
    }

    @Test func aRestartedServerIsReconnectedWithoutAFailure() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let client = RedisClient(configuration: RedisTestEnvironment.clientConfiguration(port: server.port))
        #expect(await client.ping())
        try await server.restart()
        // The pooled connection was closed by the old server: noticed before use and replaced.
        #expect(await client.ping())
        #expect(client.statistics.staleConnectionsReplaced == 1)
        #expect(client.statistics.connectionsOpened == 2)
        #expect(client.statistics.connectionErrors == 0)
    }

    @Test func shutdownRefusesLaterRoundTrips() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let client = RedisClient(configuration: RedisTestEnvironment.clientConfiguration(port: server.port))
        #expect(await client.ping())
        client.shutdown()
        let error = await #expect(throws: WebImageError.self) { try await client.send(.ping) }
        #expect((error?.underlyingError as? RedisClientError)?.kind == .shutDown)
    }
}
