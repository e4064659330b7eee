/// The subscribers of one run of shared work, by id, as a value kept in its owner's locked
/// state: every shared work of the framework keeps its waiters in one of these (the flights of
/// ``SharedWorkTable``, the downloader's requesters of one transfer).
///
/// Its rules: a subscriber is added unless the run is *closed*; whoever takes a subscriber out
/// (it leaves, or is served) is the one that resumes it, exactly once, after the lock;
/// ``close()`` takes every subscriber out and refuses newcomers (the run delivered its result,
/// or was abandoned). Ids are the owner's (unique, increasing in the order subscribers came),
/// so "in the order they joined" is the order of ids.
package struct WorkSubscribers<Subscriber: Sendable>: Sendable {
    private var byID: [UInt64: Subscriber] = [:]
    /// Whether the run takes no more subscribers.
    package private(set) var isClosed = false

    /// No subscriber, open.
    package init() {}

    /// The number of subscribers.
    package var count: Int { byID.count }
    /// Whether no subscriber waits.
    package var isEmpty: Bool { byID.isEmpty }
    /// Closed with no subscriber left: nobody waits for the run any more.
    package var isAbandoned: Bool { isClosed && byID.isEmpty }
    /// The subscribers' ids, in no particular order.
    package var ids: Dictionary<UInt64, Subscriber>.Keys { byID.keys }
    /// The subscribers, in no particular order.
    package var values: Dictionary<UInt64, Subscriber>.Values { byID.values }
    /// The subscribers in the order they joined.
    package var ordered: [Subscriber] { byID.sorted { $0.key < $1.key }.map(\.value) }

    /// The subscriber `id`, if it waits.
    package subscript(id: UInt64) -> Subscriber? { byID[id] }

    /// Adds subscriber `id` unless the run is closed.
    /// - Returns: The number of subscribers now, or `nil` when closed (nothing was added).
    package mutating func insert(_ subscriber: Subscriber, id: UInt64) -> Int? {
        guard !isClosed else { return nil }
        byID[id] = subscriber
        return byID.count
    }

    /// Takes subscriber `id` out, or `nil` when it does not wait (served or left already).
    package mutating func remove(id: UInt64) -> Subscriber? {
        byID.removeValue(forKey: id)
    }

    /// Takes out every subscriber `shouldRemove` picks, in the order they joined.
    package mutating func removeAll(where shouldRemove: (Subscriber) -> Bool) -> [Subscriber] {
        let picked = byID.filter { shouldRemove($0.value) }.sorted { $0.key < $1.key }
        for (id, _) in picked { byID[id] = nil }
        return picked.map(\.value)
    }

    /// Closes the run to newcomers and takes every subscriber out, in the order they joined.
    package mutating func close() -> [Subscriber] {
        isClosed = true
        defer { byID = [:] }
        return ordered
    }
}
