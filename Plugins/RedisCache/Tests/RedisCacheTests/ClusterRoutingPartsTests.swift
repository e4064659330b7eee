import Foundation
import Testing
import WebImageCore
@testable import RedisCache

/// How a pipeline is split for a cluster, and how its replies come back together.
@Suite struct ClusterPipelinePlanTests {
    private func key(_ text: String) -> Data { Data(text.utf8) }

    @Test func singleKeyCommandsGoToTheirKeysSlot() {
        let plan = ClusterPipelinePlan([.get(key("foo")), .set(key("bar"), key("v")), .pttl(key("foo")), RedisCommand("TTL", [key("x")]), RedisCommand("strlen", [key("{foo}y")])])
        #expect(plan.parts.map(\.slot) == [12182, 5061, 12182, RedisHashSlot.slot(of: key("x")), 12182])
        #expect(plan.merges == (0..<5).map { .single($0) })
    }

    @Test func keylessCommandsGoToAnyMaster() {
        let plan = ClusterPipelinePlan([.ping, RedisCommand("INFO", text: "server"), .scan(cursor: "0"), RedisCommand("GET")])
        #expect(plan.parts.allSatisfy { $0.slot == nil })
    }

    @Test func multiKeyCommandsAreSplitPerSlotAndSummed() {
        let keys = ["{a}1", "{b}1", "{a}2", "{c}1", "{b}2"].map(key)
        let plan = ClusterPipelinePlan([.get(key("first")), .unlink(keys), .exists([key("{a}x"), key("{a}y")]), .del([key("solo")])])
        #expect(plan.parts.count == 1 + 3 + 1 + 1)
        #expect(plan.parts[1].command == .unlink([key("{a}1"), key("{a}2")]))
        #expect(plan.parts[2].command == .unlink([key("{b}1"), key("{b}2")]))
        #expect(plan.parts[3].command == .unlink([key("{c}1")]))
        #expect(plan.parts[4].command == .exists([key("{a}x"), key("{a}y")]))
        #expect(plan.merges == [.single(0), .sum(1..<4), .single(4), .single(5)])
        let replies = plan.replies(from: [.bulkString(key("v")), .integer(2), .integer(1), .integer(0), .integer(2), .integer(1)])
        #expect(replies == [.bulkString(key("v")), .integer(3), .integer(2), .integer(1)])
        // An error reply of a part is the reply.
        let failed = plan.replies(from: [.null, .integer(2), .error("ERR boom"), .integer(0), .integer(0), .integer(0)])
        #expect(failed[1] == .error("ERR boom"))
    }
}

/// Slot maps from `CLUSTER SLOTS`, and the redirections of error replies.
@Suite struct ClusterSlotMapTests {
    private let node = RedisEndpoint(host: "10.0.0.1", port: 7000)

    private func range(_ first: Int, _ last: Int, _ host: String, _ port: Int) -> RedisValue {
        .array([.integer(first), .integer(last), .array([.bulkString(Data(host.utf8)), .integer(port), .bulkString(Data("id".utf8)), .array([])]),
                .array([.bulkString(Data("10.9.9.9".utf8)), .integer(9999)])])
    }

    @Test func aClusterSlotsReplyBecomesAMapOfMasters() throws {
        let reply = RedisValue.array([range(0, 5460, "10.0.0.1", 7000), range(5461, 10922, "10.0.0.2", 7001), range(10923, 16383, "", 7002)])
        let map = try ClusterSlotMap(clusterSlotsReply: reply, askedAt: node)
        #expect(map.master(ofSlot: 0) == RedisEndpoint(host: "10.0.0.1", port: 7000))
        #expect(map.master(ofSlot: 10922) == RedisEndpoint(host: "10.0.0.2", port: 7001))
        // An empty host is the node that answered.
        #expect(map.master(ofSlot: 16383) == RedisEndpoint(host: "10.0.0.1", port: 7002))
        #expect(map.masters.count == 3)
        #expect(map.assignedSlotCount == 16384)
        #expect(!map.masters.contains(RedisEndpoint(host: "10.9.9.9", port: 9999)), "replicas are not masters")
    }

    @Test func movedReassignsOneSlot() throws {
        var map = try ClusterSlotMap(clusterSlotsReply: .array([range(0, 16383, "10.0.0.1", 7000)]), askedAt: node)
        let other = RedisEndpoint(host: "10.0.0.2", port: 7001)
        map.assign(slot: 42, to: other)
        #expect(map.master(ofSlot: 42) == other)
        #expect(map.master(ofSlot: 41) == node)
        #expect(map.masters == [node, other])
    }

    @Test func unassignedAndUnknownRangesHaveNoMaster() throws {
        let map = try ClusterSlotMap(clusterSlotsReply: .array([range(0, 99, "10.0.0.1", 7000), range(100, 199, "?", 7001)]), askedAt: node)
        #expect(map.master(ofSlot: 150) == nil)
        #expect(map.master(ofSlot: 5000) == nil)
        #expect(map.assignedSlotCount == 100)
        #expect(ClusterSlotMap().isEmpty)
    }

    @Test(arguments: [
        RedisValue.error("ERR This instance has cluster support disabled"),
        .simpleString("OK"),
        .array([.array([.integer(0), .integer(16384), .array([.bulkString(Data("h".utf8)), .integer(1)])])]),
        .array([.array([.integer(5), .integer(1), .array([.bulkString(Data("h".utf8)), .integer(1)])])]),
        .array([.array([.integer(0), .integer(1)])]),
    ])
    func badRepliesAreRefused(_ reply: RedisValue) {
        #expect(throws: RedisClientError.self) { try ClusterSlotMap(clusterSlotsReply: reply, askedAt: node) }
    }

    @Test func redirectionsAreParsed() {
        #expect(ClusterRedirection(.error("MOVED 3999 127.0.0.1:6381"), from: node) == .moved(slot: 3999, to: RedisEndpoint(host: "127.0.0.1", port: 6381)))
        #expect(ClusterRedirection(.error("ASK 3999 10.1.2.3:6381"), from: node) == .ask(slot: 3999, to: RedisEndpoint(host: "10.1.2.3", port: 6381)))
        #expect(ClusterRedirection(.error("MOVED 1 :7005"), from: node) == .moved(slot: 1, to: RedisEndpoint(host: "10.0.0.1", port: 7005)))
        #expect(ClusterRedirection(.error("MOVED 1 fe80::1:7005"), from: node) == .moved(slot: 1, to: RedisEndpoint(host: "fe80::1", port: 7005)))
        #expect(ClusterRedirection(.error("TRYAGAIN Multiple keys request during rehashing of slot"), from: node) == .tryAgain)
        #expect(ClusterRedirection(.error("CLUSTERDOWN The cluster is down"), from: node) == .tryAgain)
        #expect(ClusterRedirection(.error("ERR unknown command"), from: node) == nil)
        #expect(ClusterRedirection(.error("MOVED 99999 h:1"), from: node) == nil)
        #expect(ClusterRedirection(.bulkString(Data("MOVED 1 h:1".utf8)), from: node) == nil)
    }

    @Test func aDatabaseOtherThanZeroIsAConfigurationError() async {
        var configuration = RedisClient.Configuration(topology: .cluster(.init(seeds: [RedisEndpoint(host: "127.0.0.1", port: 1)])))
        configuration.database = 2
        let error = await #expect(throws: WebImageError.self) { try await RedisClient(configuration: configuration).send(.ping) }
        #expect((error?.underlyingError as? RedisClientError)?.kind == .handshakeRejected)
        #expect(error?.message.contains("database 0 only") == true)
    }
}

/// One slot map refresh at a time, and who gets which outcome.
@Suite struct ClusterMapRefreshTests {
    @Test func oneRefreshAtATimeAndOnlyLaterOutcomesAnswer() throws {
        var refresh = ClusterMapRefresh()
        let first = refresh.request()
        #expect(first.start && refresh.isRunning)
        let joined = refresh.request()
        #expect(!joined.start, "a second caller joins the refresh under way")
        #expect(joined.generation == first.generation)
        #expect(refresh.outcome(after: first.generation) == nil, "nothing until it completes")

        var map = ClusterSlotMap()
        map.assign(slots: 0...16383, to: RedisEndpoint(host: "10.0.0.1", port: 7000))
        #expect(refresh.finish(.success(map)).isEmpty)
        #expect(!refresh.isRunning && refresh.completed == 1)
        #expect(try refresh.outcome(after: first.generation)?.get() == map)

        // A caller after that completion waits for a new refresh, not the old outcome.
        let later = refresh.request()
        #expect(later.start && later.generation == 1)
        #expect(refresh.outcome(after: later.generation) == nil)
        let failure = RedisClientError(.connectFailed, "no node answered")
        _ = refresh.finish(.failure(failure))
        #expect(refresh.outcome(after: later.generation) == .failure(failure))
    }
}
