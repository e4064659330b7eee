public import Foundation

/// A cache made of caches (SDWebImage's `SDImageCachesManager`), with a policy per operation
/// that says which members take part and how.
///
/// Members are ordered by registration; the cache added LAST is the HIGHEST and is asked
/// first. Defaults, as SDWebImage: query ``Policy/serial`` (first hit wins), store
/// ``Policy/highestOnly``, remove ``Policy/concurrent``, contains ``Policy/serial``, clear
/// ``Policy/concurrent``.
///
/// Members and policies can be changed at any time from any thread; each call works on a
/// snapshot and calls no member while holding a lock.
public final class CachesManager: ImageCache {
    /// How an operation uses the members.
    public enum Policy: Sendable, Hashable, CaseIterable {
        /// One member after another, highest first. Query and contains stop at the first hit;
        /// store, remove and clear go through all.
        case serial
        /// All members at once. Query and contains return the first hit to arrive (and cancel
        /// the rest); store, remove and clear wait for all.
        case concurrent
        /// Only the highest member (the one added last).
        case highestOnly
        /// Only the lowest member (the one added first).
        case lowestOnly
    }

    private struct Policies {
        var query = Policy.serial
        var store = Policy.highestOnly
        var remove = Policy.concurrent
        var contains = Policy.serial
        var clear = Policy.concurrent
    }

    private let list: RegistrationList<any ImageCache>
    private let policies = Locked(Policies())

    /// A manager with `caches`, in registration order (the last one is the highest).
    public init(_ caches: [any ImageCache] = []) {
        list = RegistrationList(caches)
    }

    /// The members in registration order (the last one is the highest). Setting replaces all.
    public var caches: [any ImageCache] {
        get { list.members }
        set { list.replaceAll(with: newValue) }
    }

    /// Adds `cache` as the new highest member.
    public func add(_ cache: any ImageCache) {
        list.add(cache)
    }

    /// Removes the members `shouldRemove` picks (the predicate runs with no lock held).
    public func removeAll(where shouldRemove: (any ImageCache) throws -> Bool) rethrows {
        try list.removeAll(where: shouldRemove)
    }

    /// Removes `cache` (compared by identity).
    public func remove(_ cache: some ImageCache & AnyObject) {
        list.removeAll { ($0 as AnyObject) === cache }
    }

    /// The policy of `queryImage` (default ``Policy/serial``).
    public var queryPolicy: Policy {
        get { policies.withLock { $0.query } }
        set { policies.withLock { $0.query = newValue } }
    }
    /// The policy of `store` (default ``Policy/highestOnly``).
    public var storePolicy: Policy {
        get { policies.withLock { $0.store } }
        set { policies.withLock { $0.store = newValue } }
    }
    /// The policy of `removeImage` (default ``Policy/concurrent``).
    public var removePolicy: Policy {
        get { policies.withLock { $0.remove } }
        set { policies.withLock { $0.remove = newValue } }
    }
    /// The policy of `containsImage` (default ``Policy/serial``).
    public var containsPolicy: Policy {
        get { policies.withLock { $0.contains } }
        set { policies.withLock { $0.contains = newValue } }
    }
    /// The policy of `clear` (default ``Policy/concurrent``).
    public var clearPolicy: Policy {
        get { policies.withLock { $0.clear } }
        set { policies.withLock { $0.clear = newValue } }
    }

    /// The members an operation with `policy` uses, in the order they are asked.
    private func participants(_ policy: Policy) -> [any ImageCache] {
        let ordered = list.byPriority
        switch policy {
        case .serial, .concurrent: return ordered
        case .highestOnly: return ordered.first.map { [$0] } ?? []
        case .lowestOnly: return ordered.last.map { [$0] } ?? []
        }
    }

    // MARK: ImageCache

    public func queryImage(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async -> ImageCacheResult? {
        let policy = queryPolicy
        return await firstHit(in: participants(policy), concurrently: policy == .concurrent) { cache in
            await cache.queryImage(forKey: key, options: options, context: context, cacheType: cacheType)
        }
    }

    /// What the members can answer at once, under the query policy, so that the answer is
    /// the one ``queryImage(forKey:options:context:cacheType:)`` would give:
    /// - ``Policy/serial``: members in order; the first hit, past members that miss; the first
    ///   member that cannot answer at once makes the answer ``ImmediateCacheAnswer/unknown``
    ///   (a later member's hit might not be the one the query returns).
    /// - ``Policy/concurrent``: the first hit in member order (a hit at once is the first to
    ///   arrive); else `.unknown` if a member cannot answer at once; else a miss.
    /// - ``Policy/highestOnly``, ``Policy/lowestOnly``: that member's answer.
    /// The first member's memory hit, in query order (the member a plain query asks first); `nil`
    /// when it has none, and the manager asks the usual way.
    public func memoryHit(forKey key: String) -> WebImage? {
        participants(queryPolicy).first?.memoryHit(forKey: key)
    }

    public func queryImageImmediately(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) -> ImmediateCacheAnswer {
        let policy = queryPolicy
        var undecided = false
        for cache in participants(policy) {
            switch cache.queryImageImmediately(forKey: key, options: options, context: context, cacheType: cacheType) {
            case .hit(let hit):
                return .hit(hit)
            case .miss:
                continue
            case .unknown:
                if policy != .concurrent { return .unknown }
                undecided = true
            }
        }
        return undecided ? .unknown : .miss
    }

    /// Stores in the members the store policy names. Every member is tried; the first error
    /// (in member order), if any, is thrown after all have finished.
    public func store(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async throws {
        try await beginStore(image, data: data, forKey: key, options: options, context: context, cacheType: cacheType)()
    }

    /// Starts the members' stores as the store policy says, so that the members that take the
    /// store first have their memory tiers written when this returns: ``Policy/highestOnly``
    /// and ``Policy/lowestOnly`` start their member; ``Policy/concurrent`` starts every member,
    /// and the rest runs their remainders at once; ``Policy/serial`` starts the highest member,
    /// and the rest finishes it, then stores in the next members one after another (as
    /// SDWebImage's serial chain: a member starts when the one before has finished).
    /// - Returns: The rest; it throws the first error in member order after every member finished.
    public func beginStore(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) -> @Sendable () async throws -> Void {
        let policy = storePolicy
        let members = participants(policy)
        guard let first = members.first else { return {} }
        let begin = { @Sendable (cache: any ImageCache) in
            cache.beginStore(image, data: data, forKey: key, options: options, context: context, cacheType: cacheType)
        }
        let rests: [@Sendable () async throws -> Void] = switch policy {
        case .serial: [begin(first)] + members.dropFirst().map { cache in { try await begin(cache)() } }
        case .concurrent, .highestOnly, .lowestOnly: members.map(begin)
        }
        return {
            let errors = await self.forEach(in: rests, concurrently: policy == .concurrent) { rest -> (any Error)? in
                do {
                    try await rest()
                    return nil
                } catch {
                    return error
                }
            }
            if let error = errors.compactMap({ $0 }).first { throw error }
        }
    }

    public func removeImage(forKey key: String, cacheType: ImageCacheType) async {
        let policy = removePolicy
        _ = await forEach(in: participants(policy), concurrently: policy == .concurrent) { cache in
            await cache.removeImage(forKey: key, cacheType: cacheType)
        }
    }

    public func containsImage(forKey key: String, cacheType: ImageCacheType) async -> ImageCacheType {
        let policy = containsPolicy
        let found = await firstHit(in: participants(policy), concurrently: policy == .concurrent) { cache -> ImageCacheType? in
            let type = await cache.containsImage(forKey: key, cacheType: cacheType)
            return type == .none ? nil : type
        }
        return found ?? .none
    }

    public func clear(cacheType: ImageCacheType) async {
        let policy = clearPolicy
        _ = await forEach(in: participants(policy), concurrently: policy == .concurrent) { cache in
            await cache.clear(cacheType: cacheType)
        }
    }

    // MARK: Strategies

    /// The first non-nil answer: in order (serial), or the first to arrive (concurrent, the
    /// rest are cancelled). Stops early when the calling task is cancelled.
    private func firstHit<Answer: Sendable>(
        in caches: [any ImageCache],
        concurrently: Bool,
        _ ask: @escaping @Sendable (any ImageCache) async -> Answer?
    ) async -> Answer? {
        guard concurrently, caches.count > 1 else {
            for cache in caches {
                if Task.isCancelled { return nil }
                if let answer = await ask(cache) { return answer }
            }
            return nil
        }
        return await withTaskGroup(of: Answer?.self) { group in
            for cache in caches { group.addTask { await ask(cache) } }
            for await answer in group {
                if let answer {
                    group.cancelAll()
                    return answer
                }
            }
            return nil
        }
    }

    /// Runs `work` on every element (a member, or a member's started store), one after
    /// another or all at once, and returns the answers in the elements' order.
    private func forEach<Element: Sendable, Answer: Sendable>(
        in elements: [Element],
        concurrently: Bool,
        _ work: @escaping @Sendable (Element) async -> Answer
    ) async -> [Answer] {
        guard concurrently, elements.count > 1 else {
            var answers: [Answer] = []
            for element in elements { answers.append(await work(element)) }
            return answers
        }
        return await withTaskGroup(of: (Int, Answer).self) { group in
            for (index, element) in elements.enumerated() { group.addTask { (index, await work(element)) } }
            var answers = [(Int, Answer)]()
            for await answer in group { answers.append(answer) }
            return answers.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }
}
