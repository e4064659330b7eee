import Foundation
import Testing
@testable import RedisCache

/// The Sentinel client's decisions without sockets: which master, when to ask the Sentinels
/// again, which replica reads.
@Suite struct SentinelTopologyTests {
    let a = RedisEndpoint(host: "10.0.0.1", port: 6379)
    let b = RedisEndpoint(host: "10.0.0.2", port: 6379)
    let c = RedisEndpoint(host: "10.0.0.3", port: 6379)
    let start = ContinuousClock.now

    @Test func theFirstAnswerIsNoFailoverAndAChangeIs() {
        var topology = SentinelTopology()
        #expect(topology.master == nil)
        let step1 = topology.masterAnswered(a, askedAt: 0, now: start)
        #expect(step1 == .first(a))
        #expect(topology.version == 1)
        let step2 = topology.masterAnswered(a, askedAt: 1, now: start)
        #expect(step2 == .unchanged)
        let step3 = topology.masterSwitched(to: b)
        #expect(step3 == .switched(from: a, to: b))
        #expect(topology.master == b)
        #expect(topology.version == 2)
        let step4 = topology.masterSwitched(to: b)
        #expect(step4 == .unchanged)
    }

    @Test func anAnswerAskedBeforeASwitchCannotSwitchBack() {
        var topology = SentinelTopology()
        _ = topology.masterAnswered(a, askedAt: 0, now: start)
        // Asked at version 1; meanwhile +switch-master moved the client to b.
        let step5 = topology.masterSwitched(to: b)
        #expect(step5 == .switched(from: a, to: b))
        let step6 = topology.masterAnswered(a, askedAt: 1, now: start)
        #expect(step6 == .stale)
        #expect(topology.master == b)
    }

    @Test func aFailureRetriesOnANewerMasterWithoutAsking() {
        var topology = SentinelTopology()
        _ = topology.masterAnswered(a, askedAt: 0, now: start)
        _ = topology.masterSwitched(to: b)
        #expect(topology.afterFailure(ofVersion: 1, asking: false, now: start) == .retry(on: b))
    }

    @Test func failuresAskTheSentinelsAtMostOncePerInterval() {
        var topology = SentinelTopology(minimumAskInterval: .milliseconds(100))
        _ = topology.masterAnswered(a, askedAt: 0, now: start)
        #expect(topology.afterFailure(ofVersion: 1, asking: false, now: start + .milliseconds(50)) == .giveUp)
        // A question under way is joined, never throttled.
        #expect(topology.afterFailure(ofVersion: 1, asking: true, now: start + .milliseconds(50)) == .ask)
        #expect(topology.afterFailure(ofVersion: 1, asking: false, now: start + .milliseconds(100)) == .ask)
    }

    @Test func replicasAreFetchedWhenDueAndReadRoundRobin() {
        var topology = SentinelTopology(replicaRefreshInterval: .seconds(5))
        _ = topology.masterAnswered(a, askedAt: 0, now: start)
        let step7 = topology.beginReplicaFetchIfDue(now: start)
        #expect(step7)
        // One fetch at a time.
        let step8 = topology.beginReplicaFetchIfDue(now: start)
        #expect(!step8)
        topology.replicasAnswered([b, a, c, b], now: start)
        #expect(topology.replicas == [b, c], "never the master, no duplicates")
        let step9 = topology.beginReplicaFetchIfDue(now: start + .seconds(4))
        #expect(!step9)
        let reads = (0..<3).map { _ in topology.nextReadReplica() }
        #expect(reads == [b, c, b])
        let step10 = topology.beginReplicaFetchIfDue(now: start + .seconds(5))
        #expect(step10)
        topology.replicaFetchFailed(now: start + .seconds(5))
        #expect(topology.replicas == [b, c], "a failed fetch keeps the list")
        let step11 = topology.beginReplicaFetchIfDue(now: start + .seconds(6))
        #expect(!step11)
    }

    @Test func aFailoverDropsThePromotedReplicaAndRefetchesTheList() {
        var topology = SentinelTopology()
        _ = topology.masterAnswered(a, askedAt: 0, now: start)
        _ = topology.beginReplicaFetchIfDue(now: start)
        topology.replicasAnswered([b, c], now: start)
        let step12 = topology.masterSwitched(to: b)
        #expect(step12 == .switched(from: a, to: b))
        #expect(topology.replicas == [c])
        let step13 = topology.beginReplicaFetchIfDue(now: start + .milliseconds(1))
        #expect(step13)
    }

    @Test func noReplicaMeansTheMaster() {
        var topology = SentinelTopology()
        let step14 = topology.nextReadReplica()
        #expect(step14 == nil)
    }
}
