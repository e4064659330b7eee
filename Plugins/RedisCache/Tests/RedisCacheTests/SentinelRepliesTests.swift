import Foundation
import Testing
@testable import RedisCache

/// Reading what Sentinels answer and announce.
@Suite struct SentinelRepliesTests {
    @Test func theMasterAddress() {
        let reply = RedisValue.array([.bulkString(Data("10.0.0.1".utf8)), .bulkString(Data("6380".utf8))])
        #expect(SentinelReplies.masterAddress(reply) == RedisEndpoint(host: "10.0.0.1", port: 6380))
        #expect(SentinelReplies.masterAddress(.null) == nil)
        #expect(SentinelReplies.masterAddress(.error("ERR no such master")) == nil)
        #expect(SentinelReplies.masterAddress(.array([.bulkString(Data("h".utf8)), .bulkString(Data("0".utf8))])) == nil)
    }

    @Test func replicasSkipTheDownAndDisconnectedOnes() {
        func replica(_ port: Int, _ flags: String) -> RedisValue {
            .array(["name", "10.0.0.9:\(port)", "ip", "10.0.0.9", "port", String(port), "flags", flags].map { .bulkString(Data($0.utf8)) })
        }
        let reply = RedisValue.array([
            replica(7001, "slave"), replica(7002, "s_down,slave"), replica(7003, "slave,o_down"),
            replica(7004, "slave,disconnected"), replica(7005, "slave"),
        ])
        #expect(SentinelReplies.replicas(reply)?.map(\.port) == [7001, 7005])
        #expect(SentinelReplies.replicas(.error("ERR")) == nil)
        #expect(SentinelReplies.replicas(.array([])) == [])
    }

    @Test(arguments: [
        ("mymaster 127.0.0.1 7000 127.0.0.1 7001", "mymaster", RedisEndpoint(host: "127.0.0.1", port: 7001)),
        ("other 127.0.0.1 7000 127.0.0.1 7001", "mymaster", nil),
        ("mymaster ::1 7000 ::1 7001", "mymaster", RedisEndpoint(host: "::1", port: 7001)),
        ("mymaster 127.0.0.1 7000", "mymaster", nil),
    ] as [(String, String, RedisEndpoint?)])
    func switchMasterMessages(payload: String, name: String, expected: RedisEndpoint?) {
        let message = RedisValue.array(["message", "+switch-master", payload].map { .bulkString(Data($0.utf8)) })
        #expect(SentinelReplies.switchedMaster(message, masterName: name) == expected)
    }

    @Test func subscriptionAndErrorReplies() {
        #expect(SentinelReplies.isSubscribed(.array([.bulkString(Data("subscribe".utf8)), .bulkString(Data("+switch-master".utf8)), .integer(1)])))
        #expect(!SentinelReplies.isSubscribed(.error("NOAUTH")))
        #expect(SentinelReplies.saysNotMaster(.error("READONLY You can't write against a read only replica.")))
        #expect(SentinelReplies.saysNotMaster(.error("MASTERDOWN Link with MASTER is down")))
        #expect(!SentinelReplies.saysNotMaster(.error("ERR wrong number of arguments")))
        #expect(!SentinelReplies.saysNotMaster(.simpleString("READONLY")))
        #expect(SentinelReplies.saysReplicaUnavailable(.error("LOADING Redis is loading the dataset in memory")))
    }
}
