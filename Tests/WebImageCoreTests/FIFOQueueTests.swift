import Testing
@testable import WebImageCore

/// The one FIFO queue of the executors and the download scheduler (issue 32).
@Suite struct FIFOQueueTests {
    final class Box {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test func firstInFirstOutAndFromTheBackAndRemoval() {
        var queue = FIFOQueue<Int>()
        for value in 0..<5 { queue.append(value) }
        #expect(queue.popFirst() == 0 && queue.popLast() == 4 && queue.count == 3)
        #expect(queue.remove { $0 == 2 } == 2 && queue.remove { $0 == 9 } == nil)
        #expect(queue.popFirst() == 1 && queue.popFirst() == 3 && queue.popFirst() == nil && queue.isEmpty)
    }

    @Test func aTakenElementIsReleasedAndTheQueueStaysCompact() {
        var queue = FIFOQueue<Box>()
        weak var first: Box?
        do {
            let box = Box(0)
            first = box
            queue.append(box)
        }
        for value in 1...1000 { queue.append(Box(value)) }
        _ = queue.popFirst()
        #expect(first == nil, "the queue no longer holds what it gave out")
        var taken: [Int] = []
        while let box = queue.popFirst() { taken.append(box.value) }
        #expect(taken == Array(1...1000))
    }

    /// A long queue, as the download scheduler's: after enough takes from the front that the
    /// array was compacted, removals from the middle and takes from both ends keep the order.
    @Test func removalAndBothEndsKeepTheOrderAfterCompaction() {
        var queue = FIFOQueue<Int>()
        for value in 0..<200 { queue.append(value) }
        var taken = (0..<80).compactMap { _ in queue.popFirst() }
        #expect(taken == Array(0..<80))
        #expect(queue.count == 120)
        #expect(queue.remove { $0 == 150 } == 150 && queue.remove { $0 == 80 } == 80 && queue.remove { $0 == 199 } == 199)
        #expect(queue.remove { $0 == 10 } == nil, "taken already")
        #expect(queue.popLast() == 198)
        for value in 200..<210 { queue.append(value) }
        taken = []
        while let value = queue.popFirst() { taken.append(value) }
        #expect(taken == Array(81..<150) + Array(151..<198) + Array(200..<210))
    }
}
