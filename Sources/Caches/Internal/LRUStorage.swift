/// Least-recently-used storage with O(1) get, set and eviction: a dictionary from key to a
/// slot in an array of nodes, the nodes forming a doubly linked list by index (most recently
/// used at the head). Index links instead of node objects mean no allocation per entry and no
/// reference counting on the hot path; freed slots are reused.
///
/// Not thread-safe on its own: ``MemoryCache`` keeps it inside a `Mutex`. Methods that drop
/// values return them, so that the caller can let them go (and run their deinitializers, which
/// may be user code) after releasing the lock.
struct LRUStorage<Value> {
    private struct Node {
        var key: String
        var value: Value?
        var cost: Int
        var previous: Int
        var next: Int
    }

    private static var none: Int { -1 }

    private var slots: [String: Int] = [:]
    private var nodes: [Node] = []
    private var freeSlots: [Int] = []
    /// The most recently used node.
    private var head = LRUStorage.none
    /// The least recently used node: the next to be evicted.
    private var tail = LRUStorage.none

    /// The sum of the costs of every entry.
    private(set) var totalCost = 0

    /// The number of entries.
    var count: Int { slots.count }

    /// The value for `key`, which becomes the most recently used.
    mutating func value(forKey key: String) -> Value? {
        guard let slot = slots[key] else { return nil }
        moveToHead(slot)
        return nodes[slot].value
    }

    /// The value for `key` without changing the order.
    func peek(forKey key: String) -> Value? {
        guard let slot = slots[key] else { return nil }
        return nodes[slot].value
    }

    /// Whether `key` is held, without changing the order.
    func contains(_ key: String) -> Bool {
        slots[key] != nil
    }

    /// Stores `value` as the most recently used entry.
    /// - Returns: The value it replaced, if any.
    @discardableResult
    mutating func set(_ value: Value, forKey key: String, cost: Int) -> Value? {
        if let slot = slots[key] {
            let old = nodes[slot].value
            totalCost += cost - nodes[slot].cost
            nodes[slot].value = value
            nodes[slot].cost = cost
            moveToHead(slot)
            return old
        }
        let node = Node(key: key, value: value, cost: cost, previous: Self.none, next: head)
        let slot: Int
        if let reused = freeSlots.popLast() {
            slot = reused
            nodes[slot] = node
        } else {
            slot = nodes.count
            nodes.append(node)
        }
        if head != Self.none { nodes[head].previous = slot }
        head = slot
        if tail == Self.none { tail = slot }
        slots[key] = slot
        totalCost += cost
        return nil
    }

    /// Removes `key`.
    /// - Returns: The removed value, if any.
    @discardableResult
    mutating func removeValue(forKey key: String) -> Value? {
        guard let slot = slots.removeValue(forKey: key) else { return nil }
        return release(slot)
    }

    /// Removes the least recently used entry.
    /// - Returns: Its value, or `nil` when empty.
    mutating func removeLeastRecentlyUsed() -> Value? {
        guard tail != Self.none else { return nil }
        let slot = tail
        slots.removeValue(forKey: nodes[slot].key)
        return release(slot)
    }

    /// The keys from the least recently used (next to be evicted) to the most recently used.
    var keysFromLeastRecentlyUsed: [String] {
        var keys: [String] = []
        keys.reserveCapacity(count)
        var slot = tail
        while slot != Self.none {
            keys.append(nodes[slot].key)
            slot = nodes[slot].previous
        }
        return keys
    }

    private mutating func release(_ slot: Int) -> Value? {
        unlink(slot)
        totalCost -= nodes[slot].cost
        let value = nodes[slot].value
        nodes[slot].value = nil
        nodes[slot].key = ""
        nodes[slot].cost = 0
        freeSlots.append(slot)
        return value
    }

    private mutating func unlink(_ slot: Int) {
        let previous = nodes[slot].previous
        let next = nodes[slot].next
        if previous != Self.none { nodes[previous].next = next } else { head = next }
        if next != Self.none { nodes[next].previous = previous } else { tail = previous }
        nodes[slot].previous = Self.none
        nodes[slot].next = Self.none
    }

    private mutating func moveToHead(_ slot: Int) {
        guard slot != head else { return }
        unlink(slot)
        nodes[slot].next = head
        if head != Self.none { nodes[head].previous = slot }
        head = slot
        if tail == Self.none { tail = slot }
    }
}
