import Testing
@testable import WebImageCore

/// The subscribers of one run of shared work (issue 32): join unless closed, leave once,
/// served in the order they joined.
@Suite struct WorkSubscribersTests {
    @Test func subscribersJoinUntilClosedAndLeaveOnce() {
        var subscribers = WorkSubscribers<String>()
        let first = subscribers.insert("b", id: 2)
        let second = subscribers.insert("a", id: 1)
        #expect(first == 1 && second == 2 && subscribers.ordered == ["a", "b"])
        let left = subscribers.remove(id: 2)
        let again = subscribers.remove(id: 2)
        #expect(left == "b" && again == nil && !subscribers.isAbandoned)
        let closed = subscribers.close()
        let late = subscribers.insert("c", id: 3)
        #expect(closed == ["a"] && late == nil && subscribers.isAbandoned)
    }

    @Test func removeAllTakesThePickedInOrder() {
        var subscribers = WorkSubscribers<Int>()
        for id in [5, 1, 4, 2, 3] as [UInt64] { _ = subscribers.insert(Int(id), id: id) }
        let odd = subscribers.removeAll { $0 % 2 == 1 }
        #expect(odd == [1, 3, 5] && subscribers.ordered == [2, 4] && !subscribers.isClosed)
    }
}
