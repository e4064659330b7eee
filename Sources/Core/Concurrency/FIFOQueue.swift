/// A first-in first-out queue in an array, taken from the front in constant time: the slots
/// before `head` are emptied (so that a taken element, and what it holds, is released at once)
/// and the array is compacted when they are more than half of it. The blocking-work executors
/// and the downloader's scheduler queue their jobs and transfers in it.
package struct FIFOQueue<Element> {
    /// `nil` before `head`, never `nil` from `head` on.
    private var slots: [Element?] = []
    private var head = 0

    /// An empty queue.
    package init() {}

    /// Whether nothing is queued.
    package var isEmpty: Bool { head == slots.count }
    /// How many elements are queued.
    package var count: Int { slots.count - head }

    /// Adds `element` at the back.
    package mutating func append(_ element: Element) {
        slots.append(element)
    }

    /// Takes the element at the front (the oldest), or `nil`.
    package mutating func popFirst() -> Element? {
        guard head < slots.count else { return nil }
        let element = slots[head]
        slots[head] = nil
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= slots.count {
            slots.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Takes the element at the back (the newest), or `nil`.
    package mutating func popLast() -> Element? {
        guard head < slots.count else { return nil }
        return slots.removeLast()
    }

    /// Takes the first queued element `matches` picks, or `nil`.
    package mutating func remove(where matches: (Element) -> Bool) -> Element? {
        guard let index = slots[head...].firstIndex(where: { $0.map(matches) ?? false }) else { return nil }
        return slots.remove(at: index)
    }
}
