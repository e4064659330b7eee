import Testing
@testable import WebImageCore

/// The one observer list of the manager's and the downloader's events (issue 32).
@Suite struct ObserverListTests {
    @Test func eventsAreMadeOnlyWhenObservedAndReachObserversInOrder() {
        let list = ObserverList<Int>()
        let made = Locked(0), seen = Locked<[String]>([])
        list.emit(made.withLock { $0 += 1; return 1 })
        #expect(!list.isObserved && made.withLock { $0 } == 0, "no observer: no event is made")
        let first = list.add { value in seen.withLock { $0.append("a\(value)") } }
        _ = list.add { value in seen.withLock { $0.append("b\(value)") } }
        list.emit(2)
        list.emitIfObserved { nil }
        list.remove(first)
        list.remove(first)
        list.emit(3)
        #expect(seen.withLock { $0 } == ["a2", "b2", "b3"])
        #expect(list.isObserved)
    }
}
