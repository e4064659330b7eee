import Dispatch
import WebImageCore

/// ``RedisRouting`` to a Redis Cluster: keys are sharded over the masters by hash slot
/// (``RedisHashSlot``), and the routing keeps the slot map (``ClusterSlotMap``) and a
/// ``RedisNode`` per master.
///
/// - **Slot map.** Asked with `CLUSTER SLOTS` of the seeds in order, then of the masters known
///   from the last map (each but the last given half the time left, so that a silent node
///   does not use it all). Asked at the first round trip, and again when a `MOVED` contradicts
///   the map (without waiting for it), when a node fails at the connection level, and when a
///   key walk begins (``primaries(deadline:)``). At most one refresh runs at a time, in a task
///   of its own; whoever needs one while it runs waits for it, until their deadline. Each is
///   counted in ``RedisClient/Statistics/topologyRefreshes`` (the first map is not a refresh).
///   A node no longer in the map is shut down; a new one is made on demand.
/// - **Routing.** ``ClusterPipelinePlan`` gives each command its slot, splitting the multi-key
///   ones per slot. The commands of a pipeline are grouped by node and each group sent in one
///   round trip, all groups at once; the replies are put back in the caller's order.
/// - **Redirections.** `-MOVED slot host:port`: the slot is assigned to that node in the map, a
///   refresh begins (unless the map said so already), and the command goes there.
///   `-ASK slot host:port`: `ASKING` and the command go there, pipelined, and the map stays.
///   Both count in ``RedisClient/Statistics/redirections``; after ``maximumRedirections`` of
///   one command its last reply is its reply. `-TRYAGAIN` and `-CLUSTERDOWN`: the command is
///   sent again after a short wait (5 ms doubling up to 100 ms), while the deadline leaves time
///   for it.
/// - **Failures.** A node failing at the connection level (refused, broken, timed out, backing
///   off) makes the routing refresh the map and send that node's commands to the slot's new
///   master, if it has one (a failover, a slot moved); otherwise the round trip fails with
///   the node's error.
/// - **Database.** A cluster has database 0 only: with ``RedisClient/Configuration/database``
///   other than 0 every round trip fails with ``RedisClientError/Kind/handshakeRejected``
///   saying so. The handshake is AUTH only.
///
/// Everything a round trip does, refreshes and waits included, ends by its deadline.
final class ClusterRouting: RedisRouting {
    /// The most `MOVED` and `ASK` redirections one command follows.
    static let maximumRedirections = 5
    /// The most times one command is sent again after `-TRYAGAIN` or `-CLUSTERDOWN`.
    static let maximumRetries = 50
    /// The most times one command is sent again after its node failed at the connection level.
    static let maximumFailovers = 2

    private struct State {
        var map = ClusterSlotMap()
        /// The masters of `map`, kept with it (the map computes them slot by slot).
        var masters: [RedisEndpoint] = []
        var nodes: [RedisEndpoint: RedisNode] = [:]
        var isShutDown = false
        var refresh = ClusterMapRefresh()
    }

    /// One command of the plan on its way: where it goes next and what it went through.
    private struct Pending {
        /// Its index in the plan's parts.
        let index: Int
        /// Where a redirection sent it; `nil`: where the map says.
        var redirect: RedisEndpoint?
        /// Whether `redirect` came from `-ASK` (send `ASKING` first).
        var asking = false
        var redirections = 0
        var retries = 0
        var failovers = 0
    }

    private let seeds: [RedisEndpoint]
    private let configuration: RedisClient.Configuration
    private let handshake: [RedisCommand]
    private let counters: Locked<RedisClient.Statistics>
    private let parser: RESPParser
    private let state = Locked(State())

    /// A routing to the cluster `cluster` names, with the pool, timeouts and AUTH of
    /// `configuration` for each master. Connects to nothing yet.
    init(_ cluster: RedisClient.ClusterConfiguration, configuration: RedisClient.Configuration, counters: Locked<RedisClient.Statistics>, parser: RESPParser) {
        var seeds: [RedisEndpoint] = []
        for seed in cluster.seeds where !seeds.contains(seed) { seeds.append(seed) }
        self.seeds = seeds
        self.configuration = configuration
        var dataConfiguration = configuration
        dataConfiguration.database = 0
        self.handshake = RedisNode.dataHandshake(dataConfiguration)
        self.counters = counters
        self.parser = parser
    }

    // MARK: RedisRouting

    func pipeline(_ commands: [RedisCommand], what: String, deadline: Deadline) async throws -> [RedisValue] {
        try checkUsable()
        if state.withLock({ $0.masters.isEmpty }) {
            _ = try await refreshedMap(deadline: deadline)
        }
        let plan = ClusterPipelinePlan(commands)
        var replies = [RedisValue?](repeating: nil, count: plan.parts.count)
        var pending = plan.parts.indices.map { Pending(index: $0) }
        var retryRound = 0
        while !pending.isEmpty {
            let groups = try route(pending, plan: plan)
            let outcomes = try await send(groups, plan: plan, what: what, deadline: deadline)
            var next: [Pending] = []
            var failed: [(endpoint: RedisEndpoint, error: RedisClientError, parts: [Pending])] = []
            var waits = false
            for (group, outcome) in zip(groups, outcomes) {
                switch outcome {
                case .success(let values):
                    for (part, value) in zip(group.parts, values) {
                        switch redirection(of: part, reply: value, from: group.endpoint, retryRound: retryRound, deadline: deadline) {
                        case .some(let redirected):
                            if redirected.retries > part.retries { waits = true }
                            next.append(redirected)
                        case .none:
                            replies[part.index] = value
                        }
                    }
                case .failure(let error):
                    failed.append((group.endpoint, error, group.parts))
                }
            }
            if !failed.isEmpty {
                next += try await failOver(failed, plan: plan, deadline: deadline)
            }
            if waits, !next.isEmpty {
                try await Task.sleep(for: Self.retryWait(round: retryRound))
                retryRound += 1
            }
            pending = next
        }
        return plan.replies(from: replies.map { $0 ?? .null })
    }

    func primaries(deadline: Deadline) async throws -> [RedisNode] {
        try checkUsable()
        let map = try await refreshedMap(deadline: deadline)
        return map.masters.map { node(for: $0) }
    }

    var nodes: [(node: RedisNode, role: RedisClient.NodeRole)] {
        state.withLock { $0.masters }.map { (node(for: $0), .master) }
    }

    func shutdown() {
        let (nodes, waiters) = state.withLock { state in
            state.isShutDown = true
            defer { state.nodes = [:] }
            return (Array(state.nodes.values), state.refresh.waiters.removeAll())
        }
        for node in nodes { node.shutdown() }
        for waiter in waiters { waiter.resume(throwing: RedisClientError(.shutDown, "the client of the cluster via \(seedList) was shut down")) }
    }

    // MARK: Routing and sending

    /// The commands bound for one node in one round trip.
    private struct Group {
        let endpoint: RedisEndpoint
        let node: RedisNode
        var parts: [Pending]
    }

    /// Groups `pending` by the node each goes to: its redirection, its slot's master, or (no
    /// slot, or a slot no master serves) one master picked at random for the round.
    private func route(_ pending: [Pending], plan: ClusterPipelinePlan) throws(RedisClientError) -> [Group] {
        let (map, masters) = state.withLock { ($0.map, $0.masters) }
        guard let anyMaster = masters.randomElement() else {
            throw RedisClientError(.connectFailed, "the slot map of the cluster via \(seedList) has no master")
        }
        var groups: [Group] = []
        var groupIndex: [RedisEndpoint: Int] = [:]
        for part in pending {
            let endpoint = part.redirect ?? plan.parts[part.index].slot.flatMap { map.master(ofSlot: $0) } ?? anyMaster
            if let index = groupIndex[endpoint] {
                groups[index].parts.append(part)
            } else {
                groupIndex[endpoint] = groups.count
                groups.append(Group(endpoint: endpoint, node: node(for: endpoint), parts: [part]))
            }
        }
        return groups
    }

    /// Sends each group in one round trip to its node, all at once, and returns each group's
    /// replies (one per part; the replies to `ASKING` left out) or its node's failure.
    /// - Throws: `CancellationError` only.
    private func send(_ groups: [Group], plan: ClusterPipelinePlan, what: String, deadline: Deadline) async throws -> [Result<[RedisValue], RedisClientError>] {
        if groups.count == 1 {
            return [try await send(groups[0], plan: plan, what: what, deadline: deadline)]
        }
        return try await withThrowingTaskGroup(of: (Int, Result<[RedisValue], RedisClientError>).self) { taskGroup in
            for (index, group) in groups.enumerated() {
                taskGroup.addTask {
                    (index, try await self.send(group, plan: plan, what: what, deadline: deadline))
                }
            }
            var outcomes = [Result<[RedisValue], RedisClientError>?](repeating: nil, count: groups.count)
            for try await (index, outcome) in taskGroup {
                outcomes[index] = outcome
            }
            return outcomes.map { $0 ?? .failure(RedisClientError(.connectionClosed, "no outcome")) }
        }
    }

    /// One group's round trip.
    private func send(_ group: Group, plan: ClusterPipelinePlan, what: String, deadline: Deadline) async throws -> Result<[RedisValue], RedisClientError> {
        var commands: [RedisCommand] = []
        commands.reserveCapacity(group.parts.count)
        var asked: [Bool] = []
        for part in group.parts {
            if part.asking {
                commands.append(Self.asking)
            }
            commands.append(plan.parts[part.index].command)
            asked.append(part.asking)
        }
        do {
            let values = try await group.node.roundTrip(commands, what: what, deadline: deadline)
            guard asked.contains(true) else { return .success(values) }
            var replies: [RedisValue] = []
            replies.reserveCapacity(group.parts.count)
            var position = 0
            for asking in asked {
                if asking { position += 1 }
                replies.append(values[position])
                position += 1
            }
            return .success(replies)
        } catch let error as RedisClientError {
            return .failure(error)
        }
    }

    /// Where `part` goes next after `reply` from `endpoint`, or `nil` when `reply` is its reply:
    /// not a redirection, or one too many, or a retry the deadline leaves no time for.
    private func redirection(of part: Pending, reply: RedisValue, from endpoint: RedisEndpoint, retryRound: Int, deadline: Deadline) -> Pending? {
        guard let redirection = ClusterRedirection(reply, from: endpoint) else { return nil }
        var next = part
        switch redirection {
        case .moved(let slot, let target):
            guard part.redirections < Self.maximumRedirections else { return nil }
            let changed = state.withLock { state in
                guard state.map.master(ofSlot: slot) != target else { return false }
                state.map.assign(slot: slot, to: target)
                if !state.masters.contains(target) { state.masters = state.map.masters }
                return true
            }
            // A MOVED the map agrees with (a command whose key is not known to the plan)
            // says nothing new about the cluster.
            if changed { startRefresh() }
            next.redirect = target
            next.asking = false
            next.redirections += 1
        case .ask(_, let target):
            guard part.redirections < Self.maximumRedirections else { return nil }
            next.redirect = target
            next.asking = true
            next.redirections += 1
        case .tryAgain:
            guard part.retries < Self.maximumRetries,
                  deadline.secondsLeft > Self.retryWait(round: retryRound).seconds else { return nil }
            next.redirect = nil
            next.asking = false
            next.retries += 1
            return next
        }
        counters.withLock { $0.redirections += 1 }
        return next
    }

    /// After nodes failed at the connection level: refreshes the map and returns their
    /// commands bound for the new masters of their slots (or, without a slot, another master).
    /// - Throws: The first node's error when the deadline has passed, a command has failed over
    ///   too often or would go to the node that failed again, or the map cannot be refreshed;
    ///   ``RedisClientError/Kind/shutDown`` after ``shutdown()``.
    private func failOver(_ failed: [(endpoint: RedisEndpoint, error: RedisClientError, parts: [Pending])], plan: ClusterPipelinePlan, deadline: Deadline) async throws -> [Pending] {
        try checkUsable()
        let first = failed[0].error
        guard !deadline.hasPassed, failed.allSatisfy({ $0.parts.allSatisfy { $0.failovers < Self.maximumFailovers } }) else { throw first }
        let map: ClusterSlotMap
        if failed.allSatisfy({ $0.error.kind == .shutDown }) {
            // Nodes dropped by a refresh that ran meanwhile: the map is new already.
            map = state.withLock { $0.map }
        } else {
            do {
                map = try await refreshedMap(deadline: deadline)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw first
            }
        }
        let masters = map.masters
        var next: [Pending] = []
        for (endpoint, error, parts) in failed {
            for part in parts {
                let target = plan.parts[part.index].slot.map { map.master(ofSlot: $0) } ?? masters.first { $0 != endpoint }
                guard let target, target != endpoint || error.kind == .shutDown else { throw error }
                var retried = part
                retried.redirect = nil
                retried.asking = false
                retried.failovers += 1
                next.append(retried)
            }
        }
        return next
    }

    /// The node of `endpoint`, made on demand (shut down at once after ``shutdown()``).
    private func node(for endpoint: RedisEndpoint) -> RedisNode {
        let (node, isShutDown) = state.withLock { state -> (RedisNode, Bool) in
            if let node = state.nodes[endpoint] { return (node, false) }
            let node = RedisNode(endpoint: endpoint, configuration: configuration, handshake: handshake, counters: counters, parser: parser)
            if !state.isShutDown { state.nodes[endpoint] = node }
            return (node, state.isShutDown)
        }
        if isShutDown { node.shutdown() }
        return node
    }

    // MARK: The slot map

    /// The map after a refresh (joining the one under way, if any), waited for until `deadline`.
    /// - Throws: ``RedisClientError``: no node answered, or `deadline` passed first (the
    ///   refresh goes on for the others); `CancellationError`.
    private func refreshedMap(deadline: Deadline) async throws -> ClusterSlotMap {
        let generation = startRefresh()
        return try await state.waitThrowing(in: \.refresh.waiters, until: { [seedList] state, _ in
            if state.isShutDown { throw RedisClientError(.shutDown, "the client of the cluster via \(seedList) was shut down") }
            return try state.refresh.outcome(after: generation)?.get()
        }, whenWaiting: { id in
            DispatchQueue.global().asyncAfter(deadline: .now() + deadline.secondsLeft) { [weak self] in
                self?.expireRefreshWaiter(id)
            }
        })
    }

    /// Starts a refresh unless one is under way (``ClusterMapRefresh``), without waiting for it.
    /// - Returns: The number of refreshes completed before: a refresh that completes later
    ///   began after this call, or joined.
    @discardableResult
    private func startRefresh() -> Int {
        let (generation, starts) = state.withLock { state in
            let (generation, start) = state.refresh.request()
            return (generation, start && !state.isShutDown)
        }
        if starts {
            Task { [self] in
                let result: Result<ClusterSlotMap, RedisClientError>
                do {
                    result = .success(try await loadMap())
                } catch let error as RedisClientError {
                    result = .failure(error)
                } catch {
                    result = .failure(RedisClientError(.connectFailed, "the slot map of the cluster via \(seedList) was not loaded: \(error)"))
                }
                finishRefresh(result)
            }
        }
        return generation
    }

    /// Records the outcome of the refresh and hands it to everyone waiting for it.
    private func finishRefresh(_ result: Result<ClusterSlotMap, RedisClientError>) {
        let waiters = state.withLock { $0.refresh.finish(result) }
        for waiter in waiters { waiter.resume(with: result.mapError { $0 as any Error }) }
    }

    /// Fails the refresh waiter `id` if it is still waiting when its deadline passes.
    private func expireRefreshWaiter(_ id: UInt64) {
        guard let waiter = state.withLock({ $0.refresh.waiters.remove(id: id) }) else { return }
        waiter.resume(throwing: RedisClientError(.timedOut, "the slot map of the cluster via \(seedList) did not come within the command timeout"))
    }

    /// Asks the seeds in order, then the masters of the current map, for `CLUSTER SLOTS`
    /// until one answers with a map, and installs it; within the command timeout.
    /// - Throws: ``RedisClientError`` (``RedisClientError/Kind/connectFailed``) naming what
    ///   each node answered when none did.
    private func loadMap() async throws -> ClusterSlotMap {
        let deadline = Deadline.after(seconds: configuration.commandTimeout)
        let known = state.withLock { $0.masters }
        if !known.isEmpty {
            counters.withLock { $0.topologyRefreshes += 1 }
        }
        var candidates = seeds
        for endpoint in known where !candidates.contains(endpoint) { candidates.append(endpoint) }
        var failures: [String] = []
        for (position, endpoint) in candidates.enumerated() {
            if deadline.hasPassed {
                failures.append("the command timeout passed")
                break
            }
            // A silent node must leave time for the others: half of what is left, all of it
            // for the last.
            let attemptDeadline = position == candidates.count - 1 ? deadline : min(deadline, Deadline.after(seconds: deadline.secondsLeft / 2))
            do {
                let reply = try await node(for: endpoint).roundTrip([Self.clusterSlots], what: "CLUSTER SLOTS", deadline: attemptDeadline)[0]
                let map = try ClusterSlotMap(clusterSlotsReply: reply, askedAt: endpoint)
                guard !map.isEmpty else {
                    failures.append("\(endpoint) serves no slot")
                    continue
                }
                install(map)
                return map
            } catch let error as RedisClientError {
                failures.append(error.message)
            }
        }
        throw RedisClientError(.connectFailed, "no node of the cluster via \(seedList) answered CLUSTER SLOTS: \(failures.joined(separator: "; "))")
    }

    /// Makes `map` the current map and shuts down the nodes that are not its masters.
    private func install(_ map: ClusterSlotMap) {
        let masters = map.masters
        let dropped = state.withLock { state -> [RedisNode] in
            state.map = map
            state.masters = masters
            let kept = Set(masters)
            let dropped = state.nodes.filter { !kept.contains($0.key) }
            for endpoint in dropped.keys { state.nodes[endpoint] = nil }
            return Array(dropped.values)
        }
        for node in dropped { node.shutdown() }
    }

    // MARK: Helpers

    /// Throws when no round trip may start: after ``shutdown()``, or with a database other than 0.
    private func checkUsable() throws(RedisClientError) {
        if configuration.database != 0 {
            throw RedisClientError(.handshakeRejected, "a Redis Cluster has database 0 only, but the configuration selects database \(configuration.database): set database to 0 for the cluster via \(seedList)")
        }
        if state.withLock({ $0.isShutDown }) {
            throw RedisClientError(.shutDown, "the client of the cluster via \(seedList) was shut down")
        }
    }

    /// The seeds, for messages.
    private var seedList: String {
        seeds.map(\.description).joined(separator: ",")
    }

    /// The wait before the `round`th resend after `-TRYAGAIN` or `-CLUSTERDOWN`: 5 ms doubling, at
    /// most 100 ms.
    static func retryWait(round: Int) -> Duration {
        .milliseconds(min(100, 5 << min(round, 5)))
    }

    private static let asking = RedisCommand("ASKING")
    private static let clusterSlots = RedisCommand("CLUSTER", text: "SLOTS")
}

extension Duration {
    /// The duration in seconds.
    fileprivate var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
