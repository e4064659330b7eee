import WebImageCore

/// The server's own memory tier of encoded results: least recently used entries go first once
/// the total cost passes the capacity. Lookups take one lock and move the entry to the front
/// (O(1)); the hit path of a repeated URL is this lookup and nothing else.
///
/// Thread-safety: every method may be called from any thread.
final class ResultMemoryTier: Sendable {
    private struct Node {
        var key: String
        var value: EncodedResult
        var previous: Int
        var next: Int
    }

    private struct State {
        var index: [String: Int] = [:]
        var nodes: [Node] = []
        var free: [Int] = []
        var head = -1
        var tail = -1
        var cost = 0

        mutating func unlink(_ slot: Int) {
            let node = nodes[slot]
            if node.previous >= 0 { nodes[node.previous].next = node.next } else { head = node.next }
            if node.next >= 0 { nodes[node.next].previous = node.previous } else { tail = node.previous }
        }

        mutating func pushFront(_ slot: Int) {
            nodes[slot].previous = -1
            nodes[slot].next = head
            if head >= 0 { nodes[head].previous = slot }
            head = slot
            if tail < 0 { tail = slot }
        }

        mutating func remove(_ slot: Int) {
            unlink(slot)
            cost -= nodes[slot].value.cost
            index[nodes[slot].key] = nil
            nodes[slot].key = ""
            nodes[slot].value.bytes = .init()
            free.append(slot)
        }
    }

    /// The most bytes held.
    let capacity: Int
    private let state = Locked(State())

    /// A tier of `capacity` bytes (0 holds nothing).
    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The entry for `key`, made the most recently used.
    func value(forKey key: String) -> EncodedResult? {
        guard capacity > 0 else { return nil }
        return state.withLock { state in
            guard let slot = state.index[key] else { return nil }
            if state.head != slot {
                state.unlink(slot)
                state.pushFront(slot)
            }
            return state.nodes[slot].value
        }
    }

    /// Stores `value` under `key` (replacing an older entry), then drops the least recently used
    /// entries until the total is within the capacity. An entry larger than the capacity is not kept.
    func set(_ value: EncodedResult, forKey key: String) {
        guard value.cost <= capacity else { return }
        state.withLock { state in
            if let slot = state.index[key] { state.remove(slot) }
            let node = Node(key: key, value: value, previous: -1, next: -1)
            let slot: Int
            if let reused = state.free.popLast() {
                state.nodes[reused] = node
                slot = reused
            } else {
                state.nodes.append(node)
                slot = state.nodes.count - 1
            }
            state.index[key] = slot
            state.pushFront(slot)
            state.cost += value.cost
            while state.cost > capacity, state.tail >= 0, state.tail != slot {
                state.remove(state.tail)
            }
        }
    }

    /// The number of entries and their total cost.
    var usage: (count: Int, cost: Int) {
        state.withLock { ($0.index.count, $0.cost) }
    }
}
