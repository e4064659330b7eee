/// The bookkeeping of shared work, as a value kept inside its owner's locked state (like
/// ``WaiterTable``): one flight per key, each with the subscribers that wait for it, the task
/// that runs it and a generation that tells a flight from a later one of the same key.
///
/// It holds the rules every kind of shared work of the framework follows, so that each owner
/// only adds what is its own (how a subscriber is resumed, events, priority):
/// - **Join:** a subscriber joins the flight of its key, or starts one (the owner then starts
///   the work and ``attach(_:to:generation:)``es its task). A *closed* flight (its result
///   delivered, still finishing) takes no subscriber: the joiner is told so.
/// - **Leave:** a subscriber that leaves is taken out; when it was the last one of an open
///   flight, the flight is *abandoned*: removed (its task returned for the owner to cancel), or,
///   with `keepsAbandoned`, left to run with no subscriber (a later one joins it).
/// - **Close and end:** ``close(_:generation:)`` takes the subscribers out to be resumed with
///   the result and refuses new ones; ``end(_:generation:)`` forgets the flight.
///
/// Every method is a plain mutation: the owner calls it under its lock and resumes
/// subscribers, cancels tasks and calls user code after the lock is released.
package struct SharedWorkTable<Key: Hashable & Sendable, Subscriber: Sendable, Extra: Sendable>: Sendable {
    /// One run of shared work.
    package struct Flight: Sendable {
        /// Tells this flight from earlier and later ones of the same key.
        package let generation: UInt64
        /// The task running the work, once attached.
        package var task: Task<Void, Never>?
        /// Whether the flight takes no more subscribers (its result was delivered).
        package var isClosed: Bool { subscribers.isClosed }
        /// The owner's own state of the flight (event sinks, priority, the delivered result).
        package var extra: Extra
        /// The subscribers waiting for it.
        package fileprivate(set) var subscribers = WorkSubscribers<Subscriber>()

        /// The subscribers in the order they joined.
        package var orderedSubscribers: [Subscriber] { subscribers.ordered }
    }

    /// What ``join(_:id:subscriber:extra:)`` did.
    package enum Join: Sendable {
        /// Joined the running flight; the flight's state as it is now.
        case joined(Flight)
        /// Started a new flight: the owner starts the work and attaches its task.
        case started(generation: UInt64)
        /// The flight is closed (its result delivered): nothing was registered.
        case closed(Flight)
    }

    /// What ``leave(id:)`` did.
    package struct Leave: Sendable {
        /// The key of the flight the subscriber left.
        package let key: Key
        /// The subscriber, taken out (to be resumed by the owner).
        package let subscriber: Subscriber
        /// The flight as it is now (after the subscriber left).
        package let flight: Flight
        /// Whether the flight was abandoned and removed: the owner cancels its task.
        package let abandoned: Bool
    }

    /// Whether an abandoned flight stays (running with no subscriber) instead of being removed.
    package let keepsAbandoned: Bool
    private var flights: [Key: Flight] = [:]
    private var owners: [UInt64: Key] = [:]
    private var nextID: UInt64 = 0
    /// How many times a subscriber joined a running flight.
    package private(set) var joinCount = 0

    /// An empty table.
    /// - Parameter keepsAbandoned: Leave a flight running when its last subscriber leaves
    ///   (default `false`: it is removed and its task cancelled).
    package init(keepsAbandoned: Bool = false) {
        self.keepsAbandoned = keepsAbandoned
    }

    /// A new id, for subscribers (and anything else the owner numbers); never reused.
    package mutating func makeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    /// The number of flights (running, or closed and finishing).
    package var flightCount: Int { flights.count }

    /// The number of subscribers waiting, over every flight.
    package var subscriberCount: Int { owners.count }

    /// Every flight.
    package var allFlights: [Flight] { Array(flights.values) }

    /// The flight of `key`, when it is generation `generation` (any generation when `nil`).
    package func flight(_ key: Key, generation: UInt64? = nil) -> Flight? {
        guard let flight = flights[key], generation == nil || flight.generation == generation else { return nil }
        return flight
    }

    /// The key whose flight subscriber `id` waits for.
    package func key(of id: UInt64) -> Key? { owners[id] }

    /// Changes the owner's state of the flight `generation` of `key`.
    /// - Returns: What `change` returns; `nil` when there is no such flight.
    @discardableResult
    package mutating func updateExtra<Result>(_ key: Key, generation: UInt64? = nil, _ change: (inout Extra) -> Result) -> Result? {
        guard var flight = flights[key], generation == nil || flight.generation == generation else { return nil }
        let result = change(&flight.extra)
        flights[key] = flight
        return result
    }

    /// Subscriber `id` joins the flight of `key`, or starts one with `extra()` as its state.
    /// - Parameters:
    ///   - update: Runs on the flight's state when the subscriber joins a running flight.
    package mutating func join(
        _ key: Key, id: UInt64, subscriber: Subscriber,
        extra: () -> Extra, update: (inout Extra) -> Void = { _ in }
    ) -> Join {
        if var flight = flights[key] {
            guard flight.subscribers.insert(subscriber, id: id) != nil else { return .closed(flight) }
            update(&flight.extra)
            flights[key] = flight
            owners[id] = key
            joinCount += 1
            return .joined(flight)
        }
        let generation = makeID()
        var flight = Flight(generation: generation, extra: extra())
        _ = flight.subscribers.insert(subscriber, id: id)
        flights[key] = flight
        owners[id] = key
        return .started(generation: generation)
    }

    /// Hands the flight `generation` of `key` its task.
    /// - Returns: `false` when the flight is gone (every subscriber left) or closed: the owner
    ///   cancels the task when the flight is gone.
    package mutating func attach(_ task: Task<Void, Never>, to key: Key, generation: UInt64) -> Bool {
        guard var flight = flights[key], flight.generation == generation, !flight.isClosed else { return false }
        flight.task = task
        flights[key] = flight
        return true
    }

    /// Takes subscriber `id` out.
    /// - Returns: What happened, or `nil` when it waits for nothing (it was resumed already or
    ///   never joined).
    package mutating func leave(id: UInt64) -> Leave? {
        guard let key = owners.removeValue(forKey: id), var flight = flights[key],
              let subscriber = flight.subscribers.remove(id: id) else { return nil }
        if flight.subscribers.isEmpty, !flight.isClosed, !keepsAbandoned {
            flights[key] = nil
            return Leave(key: key, subscriber: subscriber, flight: flight, abandoned: true)
        }
        flights[key] = flight
        return Leave(key: key, subscriber: subscriber, flight: flight, abandoned: false)
    }

    /// Closes the flight `generation` of `key` to new subscribers and takes its subscribers
    /// out (to be resumed with its result); the flight stays until ``end(_:generation:)``.
    /// - Parameter update: Runs on the flight's state (to keep the result, say).
    /// - Returns: The flight as it was (with its subscribers), or `nil` when it is gone or
    ///   closed already.
    package mutating func close(_ key: Key, generation: UInt64, update: (inout Extra) -> Void = { _ in }) -> Flight? {
        guard var flight = flights[key], flight.generation == generation, !flight.isClosed else { return nil }
        let closed = flight
        for id in flight.subscribers.ids { owners[id] = nil }
        _ = flight.subscribers.close()
        update(&flight.extra)
        flights[key] = flight
        return closed
    }

    /// Forgets the flight `generation` of `key`.
    /// - Returns: The flight, with the subscribers still waiting (to be resumed by the owner),
    ///   or `nil` when it is gone already.
    package mutating func end(_ key: Key, generation: UInt64) -> Flight? {
        guard let flight = flights[key], flight.generation == generation else { return nil }
        flights[key] = nil
        for id in flight.subscribers.ids { owners[id] = nil }
        return flight
    }

    /// Forgets every open flight (closed ones finish on their own).
    /// - Returns: The flights, with their subscribers and tasks.
    package mutating func endAllOpen() -> [Flight] {
        var ended: [Flight] = []
        for (key, flight) in flights where !flight.isClosed {
            ended.append(flight)
            flights[key] = nil
            for id in flight.subscribers.ids { owners[id] = nil }
        }
        return ended
    }
}
