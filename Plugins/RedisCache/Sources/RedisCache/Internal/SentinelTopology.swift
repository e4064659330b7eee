/// What a Sentinel-managed client knows of its servers, and the decisions that follow from it:
/// which master to use, when to ask the Sentinels again, which replica serves the next read.
/// Addresses only, no sockets: ``SentinelRouting`` keeps one under its lock, maps the addresses
/// to ``RedisNode``s and does what the mutating methods return.
///
/// - **Versions.** Each change of master bumps ``version``. A round trip remembers the version
///   of the master it used; an answer of the Sentinels remembers the version it was asked at.
///   So a failed round trip whose master has been replaced meanwhile is retried on the new one
///   without asking again, and an answer asked before a `+switch-master` message arrived
///   cannot switch the client back to the old master.
/// - **Asking after failures** is throttled: when the Sentinels answered less than
///   ``minimumAskInterval`` ago, a failure does not ask them again (during an outage every
///   round trip fails at once; the Sentinels learn of a failover in seconds, not milliseconds).
/// - **Replicas** are fetched when first needed, after every change of master, and at most once
///   per ``replicaRefreshInterval`` otherwise; reads go to them round robin.
struct SentinelTopology: Sendable {
    /// How the master changed after an answer or a message.
    enum Change: Equatable, Sendable {
        /// The client had no master yet: now it has this one (not a failover).
        case first(RedisEndpoint)
        /// The master moved (a failover): `from` is to be shut down.
        case switched(from: RedisEndpoint, to: RedisEndpoint)
        /// The same master as before.
        case unchanged
        /// An answer asked before the master last changed: ignored.
        case stale
    }

    /// What a round trip that failed on the master does next.
    enum AfterFailure: Equatable, Sendable {
        /// The master changed since the round trip began: send it once more, to this one.
        case retry(on: RedisEndpoint)
        /// Ask the Sentinels (or join the question under way), then retry if the master changed.
        case ask
        /// Nothing new to learn now: the round trip fails.
        case giveUp
    }

    /// The shortest time between two questions to the Sentinels caused by failures.
    let minimumAskInterval: Duration
    /// The longest a replica list is used before it is fetched again.
    let replicaRefreshInterval: Duration

    /// The master's address, once the Sentinels have named one.
    private(set) var master: RedisEndpoint?
    /// Bumped at each change of master (0 before the first).
    private(set) var version = 0
    /// The replicas reads may go to (never the master).
    private(set) var replicas: [RedisEndpoint] = []
    private var lastAnswerAt: ContinuousClock.Instant?
    private var replicasFetchedAt: ContinuousClock.Instant?
    private var replicaFetchInFlight = false
    private var nextReplica = 0

    /// A topology that knows no server yet.
    /// - Parameters:
    ///   - minimumAskInterval: See ``minimumAskInterval`` (default 100 ms).
    ///   - replicaRefreshInterval: See ``replicaRefreshInterval`` (default 5 s).
    init(minimumAskInterval: Duration = .milliseconds(100), replicaRefreshInterval: Duration = .seconds(5)) {
        self.minimumAskInterval = minimumAskInterval
        self.replicaRefreshInterval = replicaRefreshInterval
    }

    // MARK: The master

    /// The Sentinels named `endpoint` as the master, asked when the version was `askedAt`.
    mutating func masterAnswered(_ endpoint: RedisEndpoint, askedAt: Int, now: ContinuousClock.Instant) -> Change {
        guard askedAt == version else { return .stale }
        lastAnswerAt = now
        return setMaster(endpoint)
    }

    /// A Sentinel announced `+switch-master` to `endpoint`.
    mutating func masterSwitched(to endpoint: RedisEndpoint) -> Change {
        setMaster(endpoint)
    }

    /// What a round trip does after failing on the master of version `used` (a connection-level
    /// failure, or a `READONLY` or `MASTERDOWN` reply).
    /// - Parameters:
    ///   - used: The version of the master the round trip used.
    ///   - asking: Whether a question to the Sentinels is under way (it is joined, never throttled).
    ///   - now: The time now.
    func afterFailure(ofVersion used: Int, asking: Bool, now: ContinuousClock.Instant) -> AfterFailure {
        if used != version, let master { return .retry(on: master) }
        if asking { return .ask }
        if let lastAnswerAt, now - lastAnswerAt < minimumAskInterval { return .giveUp }
        return .ask
    }

    private mutating func setMaster(_ endpoint: RedisEndpoint) -> Change {
        guard let old = master else {
            master = endpoint
            version += 1
            replicas.removeAll { $0 == endpoint }
            return .first(endpoint)
        }
        guard old != endpoint else { return .unchanged }
        master = endpoint
        version += 1
        // The promoted replica is the master now; the others follow it after a resync: ask
        // for the list again on the next read.
        replicas.removeAll { $0 == endpoint }
        replicasFetchedAt = nil
        return .switched(from: old, to: endpoint)
    }

    // MARK: Replicas

    /// Whether the caller should fetch the replica list now (it is due and no one else is
    /// fetching it); if so, the fetch is marked under way until ``replicasAnswered(_:now:)`` or
    /// ``replicaFetchFailed(now:)``.
    mutating func beginReplicaFetchIfDue(now: ContinuousClock.Instant) -> Bool {
        guard !replicaFetchInFlight else { return false }
        if let fetchedAt = replicasFetchedAt, now - fetchedAt < replicaRefreshInterval { return false }
        replicaFetchInFlight = true
        return true
    }

    /// The Sentinels listed `endpoints` as the usable replicas.
    mutating func replicasAnswered(_ endpoints: [RedisEndpoint], now: ContinuousClock.Instant) {
        replicaFetchInFlight = false
        replicasFetchedAt = now
        var unique: [RedisEndpoint] = []
        for endpoint in endpoints where endpoint != master && !unique.contains(endpoint) {
            unique.append(endpoint)
        }
        replicas = unique
    }

    /// No Sentinel gave the replica list: the old one stays, asked again after the interval.
    mutating func replicaFetchFailed(now: ContinuousClock.Instant) {
        replicaFetchInFlight = false
        replicasFetchedAt = now
    }

    /// The replica for the next read (round robin), or `nil` when there is none.
    mutating func nextReadReplica() -> RedisEndpoint? {
        guard !replicas.isEmpty else { return nil }
        let index = nextReplica % replicas.count
        nextReplica = index + 1
        return replicas[index]
    }
}
