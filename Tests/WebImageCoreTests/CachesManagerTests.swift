import Foundation
import Testing
import WebImageTestSupport
import WebImageCore

/// Every policy for every operation of `CachesManager`, with three members:
/// `low` (added first), `middle`, `high` (added last, asked first).
@Suite struct CachesManagerTests {
    enum Operation: String, CaseIterable, Sendable {
        case query, store, remove, contains, clear
    }

    static func setPolicy(_ policy: CachesManager.Policy, for operation: Operation, on manager: CachesManager) {
        switch operation {
        case .query: manager.queryPolicy = policy
        case .store: manager.storePolicy = policy
        case .remove: manager.removePolicy = policy
        case .contains: manager.containsPolicy = policy
        case .clear: manager.clearPolicy = policy
        }
    }

    static func perform(_ operation: Operation, on manager: CachesManager) async throws {
        switch operation {
        case .query: _ = await manager.queryImage(forKey: "k")
        case .store: try await manager.store(TestImages.still(), data: nil, forKey: "k")
        case .remove: await manager.removeImage(forKey: "k", cacheType: .all)
        case .contains: _ = await manager.containsImage(forKey: "k", cacheType: .all)
        case .clear: await manager.clear(cacheType: .all)
        }
    }

    @Test func defaultPoliciesAreSDWebImages() {
        let manager = CachesManager()
        #expect(manager.queryPolicy == .serial)
        #expect(manager.storePolicy == .highestOnly)
        #expect(manager.removePolicy == .concurrent)
        #expect(manager.containsPolicy == .serial)
        #expect(manager.clearPolicy == .concurrent)
    }

    @Test(arguments: Operation.allCases)
    func highestOnlyUsesTheLastAddedMember(_ operation: Operation) async throws {
        let (low, middle, high) = (MockImageCache(name: "low"), MockImageCache(name: "middle"), MockImageCache(name: "high"))
        let manager = CachesManager([low, middle, high])
        Self.setPolicy(.highestOnly, for: operation, on: manager)
        try await Self.perform(operation, on: manager)
        #expect(high.calls.count == 1)
        #expect(middle.calls.count == 0)
        #expect(low.calls.count == 0)
    }

    @Test(arguments: Operation.allCases)
    func lowestOnlyUsesTheFirstAddedMember(_ operation: Operation) async throws {
        let (low, middle, high) = (MockImageCache(name: "low"), MockImageCache(name: "middle"), MockImageCache(name: "high"))
        let manager = CachesManager([low, middle, high])
        Self.setPolicy(.lowestOnly, for: operation, on: manager)
        try await Self.perform(operation, on: manager)
        #expect(low.calls.count == 1)
        #expect(middle.calls.count == 0)
        #expect(high.calls.count == 0)
    }

    /// Serial: the highest member is held at a gate; nobody else is asked until it finishes;
    /// then every member is asked (no member has the key, so query and contains go on).
    @Test(arguments: Operation.allCases)
    func serialAsksOneMemberAfterAnotherHighestFirst(_ operation: Operation) async throws {
        let gate = AsyncGate()
        let (low, middle, high) = (MockImageCache(name: "low"), MockImageCache(name: "middle"), MockImageCache(name: "high", gate: gate))
        let manager = CachesManager([low, middle, high])
        Self.setPolicy(.serial, for: operation, on: manager)
        let running = Task { try await Self.perform(operation, on: manager) }
        await gate.waitForArrivals(1)
        #expect(high.calls.count == 1)
        #expect(middle.calls.count == 0)
        #expect(low.calls.count == 0)
        gate.open()
        try await running.value
        #expect(middle.calls.count == 1)
        #expect(low.calls.count == 1)
    }

    /// Concurrent: all three members are in flight at the same time (all arrive at one gate).
    @Test(arguments: Operation.allCases)
    func concurrentAsksEveryMemberAtOnce(_ operation: Operation) async throws {
        let gate = AsyncGate()
        let members = ["low", "middle", "high"].map { MockImageCache(name: $0, gate: gate) }
        let manager = CachesManager(members)
        Self.setPolicy(.concurrent, for: operation, on: manager)
        let running = Task { try await Self.perform(operation, on: manager) }
        await gate.waitForArrivals(3)
        #expect(members.allSatisfy { $0.calls.count == 1 })
        gate.open()
        try await running.value
    }

    @Test func serialQueryFirstHitWinsAndStopsThere() async throws {
        let (low, middle, high) = (MockImageCache(name: "low"), MockImageCache(name: "middle"), MockImageCache(name: "high"))
        low.preload(TestImages.still(width: 1, height: 1), forKey: "k")
        middle.preload(TestImages.still(width: 2, height: 2), forKey: "k")
        let manager = CachesManager([low, middle, high])
        let hit = try #require(await manager.queryImage(forKey: "k"))
        #expect(hit.image?.pixelSize == PixelSize(width: 2, height: 2))
        #expect(high.queryCount == 1)
        #expect(middle.queryCount == 1)
        #expect(low.queryCount == 0)
    }

    @Test func concurrentQueryReturnsTheFirstHitToArriveAndCancelsTheRest() async throws {
        let stuck = AsyncGate()
        let slow = MockImageCache(name: "slow", gate: stuck)  // highest, never answers on its own
        let fast = MockImageCache(name: "fast")
        fast.preload(TestImages.still(width: 3, height: 3), forKey: "k")
        let manager = CachesManager([fast, slow])
        manager.queryPolicy = .concurrent
        let hit = try #require(await manager.queryImage(forKey: "k"))
        #expect(hit.image?.pixelSize == PixelSize(width: 3, height: 3))
        #expect(slow.queryCount == 1)
    }

    @Test func containsSerialReportsTheFirstMemberThatHasTheKey() async throws {
        let (low, high) = (MockImageCache(name: "low"), MockImageCache(name: "high"))
        low.preload(TestImages.still(), forKey: "k", cacheType: .disk)
        let manager = CachesManager([low, high])
        #expect(await manager.containsImage(forKey: "k", cacheType: .all) == .disk)
        #expect(await manager.containsImage(forKey: "absent", cacheType: .all) == .none)
        manager.containsPolicy = .concurrent
        #expect(await manager.containsImage(forKey: "k", cacheType: .all) == .disk)
        #expect(await manager.containsImage(forKey: "absent", cacheType: .all) == .none)
    }

    @Test func storeErrorIsThrownAfterEveryMemberWasTried() async throws {
        let (low, middle, high) = (MockImageCache(name: "low"), MockImageCache(name: "middle"), MockImageCache(name: "high"))
        middle.storeError = WebImageError(.cacheFailure, "middle is full")
        let manager = CachesManager([low, middle, high])
        manager.storePolicy = .serial
        let error = try await #require(throws: WebImageError.self) {
            try await manager.store(TestImages.still(), data: nil, forKey: "k")
        }
        #expect(error.message == "middle is full")
        #expect(low.keys(in: .all) == ["k"])
        #expect(high.keys(in: .all) == ["k"])
    }

    @Test func emptyManagerMissesAndStoresNothing() async throws {
        let manager = CachesManager()
        #expect(await manager.queryImage(forKey: "k") == nil)
        try await manager.store(TestImages.still(), data: nil, forKey: "k")
        #expect(await manager.containsImage(forKey: "k", cacheType: .all) == .none)
        await manager.removeImage(forKey: "k", cacheType: .all)
        await manager.clear(cacheType: .all)
    }

    @Test func cacheTypeIsPassedToMembers() async throws {
        let member = MockImageCache()
        let manager = CachesManager([member])
        manager.storePolicy = .serial
        try await manager.store(TestImages.still(), data: Data([1]), forKey: "k", options: [], context: WebImageContext(), cacheType: .disk)
        _ = await manager.queryImage(forKey: "k", options: [], context: WebImageContext(), cacheType: .memory)
        #expect(member.calls.all == [
            .store(key: "k", cacheType: .disk, hasImage: true, hasData: true),
            .query(key: "k", cacheType: .memory),
        ])
    }

    @Test func removeMember() async throws {
        let (low, high) = (MockImageCache(name: "low"), MockImageCache(name: "high"))
        let manager = CachesManager([low, high])
        manager.remove(high)
        try await manager.store(TestImages.still(), data: nil, forKey: "k")
        #expect(low.storeCount == 1)
        #expect(high.storeCount == 0)
    }
}
