import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCore

/// ``CachesManager/queryImageImmediately(forKey:options:context:cacheType:)`` gives the answer
/// its suspending query would give, under each query policy, or `.unknown`.
@Suite struct CachesManagerImmediateQueryTests {
    let lowest = ScriptedImmediateCache()
    let highest = ScriptedImmediateCache()
    let manager: CachesManager

    init() {
        // The cache added last is the highest and is asked first.
        manager = CachesManager([lowest, highest])
    }

    static func hit(_ width: Int) -> ImmediateCacheAnswer {
        .hit(ImageCacheResult(image: TestImages.still(width: width, height: 1), cacheType: .memory))
    }

    /// The answer, as a label: the hit's width, "miss" or "unknown".
    func answer(_ policy: CachesManager.Policy, highest: ImmediateCacheAnswer, lowest: ImmediateCacheAnswer) -> String {
        self.highest.immediate = highest
        self.lowest.immediate = lowest
        manager.queryPolicy = policy
        switch manager.queryImageImmediately(forKey: "k", options: [], context: WebImageContext(), cacheType: .all) {
        case .hit(let hit): return "\(hit.image?.pixelSize.width ?? 0)"
        case .miss: return "miss"
        case .unknown: return "unknown"
        }
    }

    @Test func serialTakesTheFirstHitPastMissesAndStopsAtAnUnknown() {
        #expect(answer(.serial, highest: Self.hit(2), lowest: Self.hit(1)) == "2")
        #expect(answer(.serial, highest: .miss, lowest: Self.hit(1)) == "1")
        #expect(answer(.serial, highest: .unknown, lowest: Self.hit(1)) == "unknown", "the highest might hit when it is queried")
        #expect(answer(.serial, highest: .miss, lowest: .miss) == "miss")
        #expect(answer(.serial, highest: .miss, lowest: .unknown) == "unknown")
    }

    @Test func concurrentTakesAnyHitElseUnknownElseMiss() {
        #expect(answer(.concurrent, highest: .unknown, lowest: Self.hit(1)) == "1")
        #expect(answer(.concurrent, highest: .unknown, lowest: .miss) == "unknown")
        #expect(answer(.concurrent, highest: .miss, lowest: .miss) == "miss")
    }

    @Test func highestAndLowestOnlyAskTheirMember() {
        #expect(answer(.highestOnly, highest: .miss, lowest: Self.hit(1)) == "miss")
        #expect(answer(.lowestOnly, highest: Self.hit(2), lowest: .unknown) == "unknown")
        #expect(answer(.lowestOnly, highest: Self.hit(2), lowest: Self.hit(1)) == "1")
    }

    @Test func noMemberIsAMiss() {
        let empty = CachesManager()
        let answer = empty.queryImageImmediately(forKey: "k", options: [], context: WebImageContext(), cacheType: .all)
        guard case .miss = answer else { Issue.record("expected a miss, got \(answer)"); return }
    }

    @Test func aCacheThatDoesNotSayAnswersUnknown() {
        let answer = MockImageCache().queryImageImmediately(forKey: "k", options: [], context: WebImageContext(), cacheType: .all)
        guard case .unknown = answer else { Issue.record("expected unknown, got \(answer)"); return }
    }
}
