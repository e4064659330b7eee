import WebImageCore

/// ``RedisRouting`` to a master watched by Redis Sentinels.
///
/// - **Finding the master.** The first round trip asks the Sentinels, in the configured order,
///   `SENTINEL get-master-addr-by-name`; the first address wins, a Sentinel that is down, or
///   answers null or an error, passes to the next. The question runs within that round trip's
///   deadline, and concurrent round trips share it. Then the master's ``RedisNode`` is kept.
/// - **Following failovers.** A ``SentinelSubscriber`` (started with the first master) switches
///   to the new master on `+switch-master`, without waiting for a failure. And a round trip
///   that fails on the master at the connection level, or gets `READONLY` or `MASTERDOWN`,
///   asks the Sentinels again; if the master changed, it is sent once more to the new one,
///   within the same deadline. Either way the old master's node is shut down. The decisions
///   are ``SentinelTopology``'s.
/// - **Replicas.** With ``RedisClient/SentinelConfiguration/readFromReplicas``, a pipeline made
///   only of read-only commands (``SentinelReplies/readOnlyCommands``) goes to a replica
///   (`SENTINEL replicas`, round robin), and to the master when there is none or the replica
///   fails.
///
/// Thread-safety: the state sits in one ``Locked``; nodes are shut down and tasks started after
/// the lock is released.
final class SentinelRouting: RedisRouting {
    /// A question to the Sentinels for the master, shared by the round trips that need the
    /// answer by a later deadline than its own.
    private struct Question {
        let task: Task<(node: RedisNode, version: Int), any Error>
        let deadline: Deadline
    }

    private struct State {
        var topology = SentinelTopology()
        var master: RedisNode?
        var replicas: [RedisEndpoint: RedisNode] = [:]
        var question: Question?
        var isSubscriberStarted = false
        var isShutDown = false
    }

    private let sentinel: RedisClient.SentinelConfiguration
    private let configuration: RedisClient.Configuration
    private let counters: Locked<RedisClient.Statistics>
    private let parser: RESPParser
    /// One node per Sentinel, in the configured order (AUTH only with the Sentinels' password).
    private let sentinels: [RedisNode]
    private let state = Locked(State())
    private let subscriber: SentinelSubscriber
    private let followsSwitchMessages: Bool

    /// A routing that has asked nothing yet: the first round trip asks the Sentinels.
    /// - Parameters:
    ///   - sentinel: The Sentinels and the master's name.
    ///   - configuration: Pool size, timeouts, backoff and handshake of the data servers (the
    ///     Sentinels get the same pool settings).
    ///   - counters: The client's counters.
    ///   - parser: The client's reply parser.
    ///   - followsSwitchMessages: Whether to subscribe to `+switch-master` (default `true`;
    ///     `false` for tests of the other way failovers are found: asking after a failure).
    ///   - subscriptionKeepAlive: The subscriber's keep-alive interval in seconds (see
    ///     ``SentinelSubscriber``; shorter in tests).
    init(
        _ sentinel: RedisClient.SentinelConfiguration,
        configuration: RedisClient.Configuration,
        counters: Locked<RedisClient.Statistics>,
        parser: RESPParser,
        followsSwitchMessages: Bool = true,
        subscriptionKeepAlive: Double = SentinelSubscriber.defaultKeepAliveInterval
    ) {
        self.sentinel = sentinel
        self.followsSwitchMessages = followsSwitchMessages
        self.configuration = configuration
        self.counters = counters
        self.parser = parser
        let handshake = Self.sentinelHandshake(sentinel)
        sentinels = sentinel.sentinels.map {
            RedisNode(endpoint: $0, configuration: configuration, handshake: handshake, counters: counters, parser: parser)
        }
        subscriber = SentinelSubscriber(
            sentinels: sentinel.sentinels,
            masterName: sentinel.masterName,
            handshake: handshake,
            connectTimeout: configuration.connectTimeout,
            parser: parser,
            keepAliveInterval: subscriptionKeepAlive
        )
    }

    /// The handshake for a Sentinel: `AUTH` when the Sentinels have a password, never `SELECT`.
    static func sentinelHandshake(_ sentinel: RedisClient.SentinelConfiguration) -> [RedisCommand] {
        sentinel.password.map { [.auth(username: sentinel.username, password: $0)] } ?? []
    }

    // MARK: RedisRouting

    func pipeline(_ commands: [RedisCommand], what: String, deadline: Deadline) async throws -> [RedisValue] {
        if sentinel.readFromReplicas, commands.allSatisfy({ SentinelReplies.readOnlyCommands.contains($0.name) }),
           let replies = try await onReplica(commands, what: what, deadline: deadline) {
            return replies
        }
        return try await onMaster(commands, what: what, deadline: deadline)
    }

    func primaries(deadline: Deadline) async throws -> [RedisNode] {
        [try await master(deadline: deadline).node]
    }

    var nodes: [(node: RedisNode, role: RedisClient.NodeRole)] {
        let (master, replicas) = state.withLock { state in
            (state.master, state.topology.replicas.compactMap { state.replicas[$0] })
        }
        return sentinels.map { ($0, .sentinel) } + (master.map { [($0, .master)] } ?? []) + replicas.map { ($0, .replica) }
    }

    func shutdown() {
        let (master, replicas) = state.withLock { state -> (RedisNode?, [RedisNode]) in
            state.isShutDown = true
            defer {
                state.master = nil
                state.replicas = [:]
            }
            return (state.master, Array(state.replicas.values))
        }
        subscriber.stop()
        master?.shutdown()
        for node in replicas + sentinels { node.shutdown() }
    }

    // MARK: The master

    /// Sends `commands` to the master; after a failure that may be a failover, once more to
    /// the new master.
    private func onMaster(_ commands: [RedisCommand], what: String, deadline: Deadline) async throws -> [RedisValue] {
        let master = try await master(deadline: deadline)
        let outcome: Result<[RedisValue], RedisClientError>
        do {
            outcome = .success(try await master.node.roundTrip(commands, what: what, deadline: deadline))
        } catch let error as RedisClientError {
            outcome = .failure(error)
        }
        if case .success(let replies) = outcome, !replies.contains(where: SentinelReplies.saysNotMaster) {
            return replies
        }
        guard !deadline.hasPassed, let next = await masterAfterFailure(ofVersion: master.version, deadline: deadline) else {
            return try outcome.get()
        }
        return try await next.roundTrip(commands, what: what, deadline: deadline)
    }

    /// The master's node and version: the one known, or the Sentinels' answer.
    private func master(deadline: Deadline) async throws -> (node: RedisNode, version: Int) {
        let known = try state.withLock { state throws(RedisClientError) -> (node: RedisNode, version: Int)? in
            if state.isShutDown { throw shutDownError }
            return state.master.map { ($0, state.topology.version) }
        }
        if let known { return known }
        return try await ask(deadline: deadline, isRefresh: false)
    }

    /// The master to send a failed round trip to once more, or `nil` when it is the same one
    /// (or the Sentinels cannot say).
    private func masterAfterFailure(ofVersion used: Int, deadline: Deadline) async -> RedisNode? {
        let step = state.withLock { state -> SentinelTopology.AfterFailure? in
            state.isShutDown ? nil : state.topology.afterFailure(ofVersion: used, asking: state.question != nil, now: .now)
        }
        switch step {
        case .retry:
            return state.withLock { $0.master }
        case .ask:
            guard let answer = try? await ask(deadline: deadline, isRefresh: true), answer.version != used else { return nil }
            return answer.node
        case .giveUp, nil:
            return nil
        }
    }

    /// Asks the Sentinels where the master is, or joins the question under way when it ends
    /// by `deadline`; applies the answer.
    /// - Parameter isRefresh: Whether the master was asked for before (counted in
    ///   ``RedisClient/Statistics/topologyRefreshes``).
    private func ask(deadline: Deadline, isRefresh: Bool) async throws -> (node: RedisNode, version: Int) {
        let (task, isNew) = try state.withLock { state throws(RedisClientError) -> (Task<(node: RedisNode, version: Int), any Error>, Bool) in
            if state.isShutDown { throw shutDownError }
            if let question = state.question, question.deadline <= deadline { return (question.task, false) }
            let askedAt = state.topology.version
            let task = Task { [self] in
                defer { forget(deadline: deadline) }
                let endpoint = try await askSentinels(deadline: deadline)
                return try apply(endpoint, askedAt: askedAt)
            }
            // A round trip with an earlier deadline than the question under way asks on its
            // own, and is not joined (rare: it began before, and failed after, the one that asks).
            if state.question == nil { state.question = Question(task: task, deadline: deadline) }
            return (task, true)
        }
        if isRefresh, isNew { counters.withLock { $0.topologyRefreshes += 1 } }
        return try await task.value
    }

    /// Forgets the shared question that ends at `deadline`, as it ends.
    private func forget(deadline: Deadline) {
        state.withLock { state in
            if state.question?.deadline == deadline { state.question = nil }
        }
    }

    /// The first address a Sentinel gives for the master, by `deadline`.
    /// - Throws: ``RedisClientError/Kind/connectFailed`` naming the master and what each
    ///   Sentinel said.
    private func askSentinels(deadline: Deadline) async throws(RedisClientError) -> RedisEndpoint {
        var said: [String] = []
        for node in sentinels {
            if deadline.hasPassed {
                said.append("\(node.endpoint): not asked, the command timeout passed")
                continue
            }
            do {
                let reply = try await node.roundTrip([.sentinelMasterAddress(sentinel.masterName)], what: "SENTINEL get-master-addr-by-name", deadline: deadline)[0]
                if let endpoint = SentinelReplies.masterAddress(reply) { return endpoint }
                said.append("\(node.endpoint): " + (reply == .null ? "no such master" : "answered \(reply)"))
            } catch let error as RedisClientError {
                said.append("\(node.endpoint): \(error.message)")
            } catch {
                said.append("\(node.endpoint): cancelled")
            }
        }
        let tried = said.isEmpty ? "none is configured" : said.joined(separator: "; ")
        throw RedisClientError(.connectFailed, "no Sentinel gave the address of master '\(sentinel.masterName)': \(tried)")
    }

    /// Applies an answer of the Sentinels asked at version `askedAt`: the master's node and
    /// version afterwards.
    private func apply(_ endpoint: RedisEndpoint, askedAt: Int) throws(RedisClientError) -> (node: RedisNode, version: Int) {
        try change { $0.masterAnswered(endpoint, askedAt: askedAt, now: .now) }
    }

    /// Reports of the subscriber.
    private func handle(_ event: SentinelSubscriber.Event) {
        switch event {
        case .switched(let endpoint):
            _ = try? change { $0.masterSwitched(to: endpoint) }
        case .resubscribed:
            // A +switch-master may have been missed while the subscription was down.
            Task { [self] in _ = try? await ask(deadline: .after(seconds: configuration.commandTimeout), isRefresh: true) }
        }
    }

    /// Runs one change of the topology and makes the nodes follow: a new master node (the
    /// replica's, when it was one), the old one shut down, a failover counted, the subscriber
    /// started with the first master.
    private func change(_ update: (inout SentinelTopology) -> SentinelTopology.Change) throws(RedisClientError) -> (node: RedisNode, version: Int) {
        var retired: RedisNode?
        var startsSubscriber = false
        var isFailover = false
        let current = try state.withLock { state throws(RedisClientError) -> (node: RedisNode, version: Int) in
            if state.isShutDown { throw shutDownError }
            switch update(&state.topology) {
            case .first(let endpoint), .switched(_, let endpoint):
                retired = state.master
                isFailover = retired != nil
                state.master = state.replicas.removeValue(forKey: endpoint) ?? makeNode(endpoint)
                if followsSwitchMessages, !state.isSubscriberStarted {
                    state.isSubscriberStarted = true
                    startsSubscriber = true
                }
            case .unchanged, .stale:
                break
            }
            guard let master = state.master else {
                // A stale answer before any master: cannot happen (the version only moves
                // with a master), but answer honestly.
                throw RedisClientError(.connectFailed, "the Sentinels have not named master '\(sentinel.masterName)' yet")
            }
            return (master, state.topology.version)
        }
        if isFailover { counters.withLock { $0.failovers += 1 } }
        retired?.shutdown()
        if startsSubscriber {
            // Weakly: the subscriber's thread does not keep the routing alive.
            subscriber.start { [weak self] event in self?.handle(event) }
        }
        return current
    }

    // MARK: Replicas

    /// Sends read-only `commands` to a replica; `nil` when there is none or it fails (the
    /// master gets them then).
    private func onReplica(_ commands: [RedisCommand], what: String, deadline: Deadline) async throws -> [RedisValue]? {
        guard let replica = await readReplica(deadline: deadline) else { return nil }
        do {
            let replies = try await replica.roundTrip(commands, what: what, deadline: deadline)
            return replies.contains(where: SentinelReplies.saysReplicaUnavailable) ? nil : replies
        } catch is RedisClientError {
            return nil
        }
    }

    /// The replica for the next read, fetching the list first when it is due.
    private func readReplica(deadline: Deadline) async -> RedisNode? {
        let fetches = state.withLock { state in
            !state.isShutDown && state.topology.beginReplicaFetchIfDue(now: .now)
        }
        if fetches {
            let endpoints = await fetchReplicas(deadline: deadline)
            var retired: [RedisNode] = []
            state.withLock { state in
                if let endpoints {
                    state.topology.replicasAnswered(endpoints, now: .now)
                } else {
                    state.topology.replicaFetchFailed(now: .now)
                }
                let listed = Set(state.topology.replicas)
                for (endpoint, node) in state.replicas where !listed.contains(endpoint) {
                    retired.append(node)
                    state.replicas[endpoint] = nil
                }
            }
            for node in retired { node.shutdown() }
        }
        return state.withLock { state -> RedisNode? in
            guard !state.isShutDown, let endpoint = state.topology.nextReadReplica() else { return nil }
            if let node = state.replicas[endpoint] { return node }
            let node = makeNode(endpoint)
            state.replicas[endpoint] = node
            return node
        }
    }

    /// The usable replicas from the first Sentinel that lists them, or `nil` when none does.
    private func fetchReplicas(deadline: Deadline) async -> [RedisEndpoint]? {
        for node in sentinels where !deadline.hasPassed {
            guard let reply = try? await node.roundTrip([.sentinelReplicas(sentinel.masterName)], what: "SENTINEL replicas", deadline: deadline)[0] else { continue }
            if let endpoints = SentinelReplies.replicas(reply) { return endpoints }
        }
        return nil
    }

    // MARK: Helpers

    /// A node for a data server (the master or a replica): the data handshake.
    private func makeNode(_ endpoint: RedisEndpoint) -> RedisNode {
        RedisNode(endpoint: endpoint, configuration: configuration, handshake: RedisNode.dataHandshake(configuration), counters: counters, parser: parser)
    }

    private var shutDownError: RedisClientError {
        RedisClientError(.shutDown, "the client of \(configuration.endpoint) was shut down")
    }
}
