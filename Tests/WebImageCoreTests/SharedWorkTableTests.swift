import Testing
import WebImageTestSupport
@testable import WebImageCore

/// The bookkeeping under every kind of shared work (issue 32), as a plain value: no task, no
/// lock, no cache.
@Suite struct SharedWorkTableTests {
    typealias Table = SharedWorkTable<String, String, Int>

    @Test func theFirstSubscriberStartsAFlightAndLaterOnesJoinIt() {
        var table = Table()
        let a = table.makeID(), b = table.makeID()
        guard case .started(let generation) = table.join("k", id: a, subscriber: "a", extra: { 1 }) else {
            Issue.record("the first subscriber starts the flight"); return
        }
        guard case .joined(let flight) = table.join("k", id: b, subscriber: "b", extra: { 99 }, update: { $0 += 1 }) else {
            Issue.record("the second subscriber joins"); return
        }
        #expect(flight.generation == generation && flight.extra == 2)
        #expect(flight.orderedSubscribers == ["a", "b"])
        #expect(table.flightCount == 1 && table.subscriberCount == 2 && table.joinCount == 1)
        #expect(table.key(of: b) == "k")
    }

    @Test func theLastSubscriberLeavingAbandonsTheFlightAndALaterOneStartsAnew() {
        var table = Table()
        let a = table.makeID(), b = table.makeID()
        guard case .started(let first) = table.join("k", id: a, subscriber: "a", extra: { 0 }) else { Issue.record("started"); return }
        _ = table.join("k", id: b, subscriber: "b", extra: { 0 })
        let task = Task<Void, Never> {}
        let attached = table.attach(task, to: "k", generation: first)
        #expect(attached)

        let firstLeave = table.leave(id: a)
        #expect(firstLeave?.subscriber == "a" && firstLeave?.abandoned == false)
        let again = table.leave(id: a)
        #expect(again == nil, "a subscriber leaves once")
        let lastLeave = table.leave(id: b)
        #expect(lastLeave?.abandoned == true && lastLeave?.flight.task != nil)
        #expect(table.flightCount == 0 && table.subscriberCount == 0)

        let c = table.makeID()
        guard case .started(let second) = table.join("k", id: c, subscriber: "c", extra: { 0 }) else { Issue.record("a new flight"); return }
        #expect(second != first)
        let stale = table.attach(task, to: "k", generation: first)
        #expect(!stale, "an old generation's task is refused")
    }

    @Test func keepsAbandonedLeavesTheFlightRunningForALaterSubscriber() {
        var table = Table(keepsAbandoned: true)
        let a = table.makeID(), b = table.makeID()
        guard case .started(let generation) = table.join("k", id: a, subscriber: "a", extra: { 0 }) else { Issue.record("started"); return }
        let left = table.leave(id: a)
        #expect(left?.abandoned == false && table.flightCount == 1)
        guard case .joined(let flight) = table.join("k", id: b, subscriber: "b", extra: { 0 }) else { Issue.record("joins the kept flight"); return }
        #expect(flight.generation == generation)
    }

    @Test func aClosedFlightTakesNoSubscriberUntilItEnds() {
        var table = Table()
        let a = table.makeID(), b = table.makeID(), c = table.makeID()
        guard case .started(let generation) = table.join("k", id: a, subscriber: "a", extra: { 0 }) else { Issue.record("started"); return }
        let closed = table.close("k", generation: generation) { $0 = 7 }
        #expect(closed?.orderedSubscribers == ["a"] && table.subscriberCount == 0)
        let closedAgain = table.close("k", generation: generation)
        #expect(closedAgain == nil, "closed once")
        guard case .closed(let flight) = table.join("k", id: b, subscriber: "b", extra: { 0 }) else { Issue.record("refused"); return }
        #expect(flight.extra == 7 && flight.isClosed)
        let deliveredLeave = table.leave(id: a)
        #expect(deliveredLeave == nil, "a delivered subscriber has nothing to leave")
        let ended = table.end("k", generation: generation)
        #expect(ended?.subscribers.isEmpty == true)
        guard case .started = table.join("k", id: c, subscriber: "c", extra: { 0 }) else { Issue.record("after the end"); return }
    }

    @Test func endAllOpenLeavesClosedFlightsToFinish() {
        var table = Table()
        let a = table.makeID(), b = table.makeID(), c = table.makeID()
        guard case .started(let open) = table.join("open", id: a, subscriber: "a", extra: { 0 }),
              case .started(let closing) = table.join("closing", id: b, subscriber: "b", extra: { 0 }) else { Issue.record("started"); return }
        _ = table.join("open", id: c, subscriber: "c", extra: { 0 })
        _ = table.close("closing", generation: closing)
        let ended = table.endAllOpen()
        #expect(ended.map(\.generation) == [open] && ended.first?.orderedSubscribers == ["a", "c"])
        #expect(table.flightCount == 1 && table.subscriberCount == 0)
        #expect(table.flight("closing", generation: closing)?.isClosed == true)
    }

    @Test(.onOwnThreads) func tenThousandSubscribersJoinAndLeaveInOrder() {
        var table = SharedWorkTable<Int, Int, Void>()
        var ids: [UInt64] = []
        for index in 0..<10_000 {
            let id = table.makeID()
            ids.append(id)
            _ = table.join(index % 2, id: id, subscriber: index, extra: {})
        }
        #expect(table.flightCount == 2 && table.subscriberCount == 10_000 && table.joinCount == 9_998)
        #expect(table.flight(0)?.orderedSubscribers == Array(stride(from: 0, to: 10_000, by: 2)))
        var abandoned = 0
        for id in ids where table.leave(id: id)?.abandoned == true { abandoned += 1 }
        #expect(abandoned == 2 && table.flightCount == 0)
    }
}
