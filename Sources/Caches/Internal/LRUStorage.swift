/// Least-recently-used storage with O(1) get, set and eviction: a hash index from key to a
/// slot (``KeyIndex``), and a doubly linked list of slots by index (most recently used at the head). Index
/// links in parallel arrays instead of node objects mean no allocation per entry, no
/// reference counting on the hot path and one uniqueness check per operation; freed slots are
/// reused.
///
/// Not thread-safe on its own: ``MemoryCache`` (and the image server's memory tiers, hence
/// `package`) keep it inside a lock. Methods that drop
/// values return them, so that the caller can let them go (and run their deinitializers, which
/// may be user code) after releasing the lock.
package struct LRUStorage<Value> {
    /// The links of one slot.
    private struct Link {
        var previous: Int
        var next: Int
    }

    private static var none: Int { -1 }

    private var index = KeyIndex()
    private var links: [Link] = []
    private var keys: [String] = []
    private var values: [Value?] = []
    private var costs: [Int] = []
    private var freeSlots: [Int] = []
    /// The most recently used slot.
    private var head = LRUStorage.none
    /// The least recently used slot: the next to be evicted.
    private var tail = LRUStorage.none

    /// The sum of the costs of every entry.
    package private(set) var totalCost = 0

    /// Empty storage.
    package init() {}

    /// The number of entries.
    package var count: Int { index.count }

    /// Makes `key` the most recently used entry.
    /// - Returns: Its slot (for ``subscript(slot:)``), or `nil` on a miss.
    mutating func touch(_ key: String) -> Int? {
        guard let slot = index.find(key, hash: KeyIndex.hash(key)) else { return nil }
        moveToHead(slot)
        return slot
    }

    /// The value in a slot ``touch(_:)`` returned.
    subscript(slot slot: Int) -> Value? {
        values[slot]
    }

    /// The value for `key`, which becomes the most recently used.
    package mutating func value(forKey key: String) -> Value? {
        touch(key).flatMap { values[$0] }
    }

    /// Whether `key` is held, without changing the order.
    func contains(_ key: String) -> Bool {
        index.find(key, hash: KeyIndex.hash(key)) != nil
    }

    /// Stores `value` as the most recently used entry.
    /// - Returns: The value it replaced, if any.
    @discardableResult
    package mutating func set(_ value: Value, forKey key: String, cost: Int) -> Value? {
        let hash = KeyIndex.hash(key)
        if let slot = index.find(key, hash: hash) {
            let old = values[slot]
            totalCost += cost - costs[slot]
            values[slot] = value
            costs[slot] = cost
            moveToHead(slot)
            return old
        }
        let slot: Int
        if let reused = freeSlots.popLast() {
            slot = reused
            keys[slot] = key
            values[slot] = value
            costs[slot] = cost
            links[slot] = Link(previous: Self.none, next: head)
        } else {
            slot = links.count
            keys.append(key)
            values.append(value)
            costs.append(cost)
            links.append(Link(previous: Self.none, next: head))
        }
        if head != Self.none { links[head].previous = slot }
        head = slot
        if tail == Self.none { tail = slot }
        index.insert(key, slot: slot, hash: hash)
        totalCost += cost
        return nil
    }

    /// Removes `key`.
    /// - Returns: The removed value, if any.
    @discardableResult
    package mutating func removeValue(forKey key: String) -> Value? {
        guard let slot = index.remove(key, hash: KeyIndex.hash(key)) else { return nil }
        return release(slot)
    }

    /// Removes the least recently used entry.
    /// - Returns: Its value, or `nil` when empty.
    package mutating func removeLeastRecentlyUsed() -> Value? {
        guard tail != Self.none else { return nil }
        let slot = tail
        let key = keys[slot]
        _ = index.remove(key, hash: KeyIndex.hash(key))
        return release(slot)
    }

    /// The keys from the least recently used (next to be evicted) to the most recently used.
    var keysFromLeastRecentlyUsed: [String] {
        var ordered: [String] = []
        ordered.reserveCapacity(count)
        var slot = tail
        while slot != Self.none {
            ordered.append(keys[slot])
            slot = links[slot].previous
        }
        return ordered
    }

    private mutating func release(_ slot: Int) -> Value? {
        var head = self.head
        var tail = self.tail
        links.withUnsafeMutableBufferPointer { links in
            Self.unlink(slot, links, head: &head, tail: &tail)
        }
        self.head = head
        self.tail = tail
        totalCost -= costs[slot]
        let value = values[slot]
        values[slot] = nil
        keys[slot] = ""
        costs[slot] = 0
        freeSlots.append(slot)
        return value
    }

    private mutating func moveToHead(_ slot: Int) {
        guard slot != head else { return }
        var head = self.head
        var tail = self.tail
        links.withUnsafeMutableBufferPointer { links in
            Self.unlink(slot, links, head: &head, tail: &tail)
            links[slot].next = head
            if head != Self.none { links[head].previous = slot }
            head = slot
            if tail == Self.none { tail = slot }
        }
        self.head = head
        self.tail = tail
    }

    private static func unlink(_ slot: Int, _ links: UnsafeMutableBufferPointer<Link>, head: inout Int, tail: inout Int) {
        let previous = links[slot].previous
        let next = links[slot].next
        if previous != none { links[previous].next = next } else { head = next }
        if next != none { links[next].previous = previous } else { tail = previous }
        links[slot] = Link(previous: none, next: none)
    }
}
