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
}
