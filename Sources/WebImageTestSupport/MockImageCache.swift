public import Foundation
public import WebImageCore

/// An in-memory ``/WebImageCore/ImageCache`` that records its calls and can be scripted and suspended.
///
/// It keeps what is stored in a dictionary and honours the cache type as a two-tier cache
/// would: `.memory` and `.disk` are separate tiers, `.all` is both.
public final class MockImageCache: ImageCache {
    /// One call the mock received.
    public enum Call: Sendable, Equatable {
        /// `queryImage` for `key` in tier `cacheType`.
        case query(key: String, cacheType: ImageCacheType)
        /// `store` of `key` in tier `cacheType`, with or without an image and data.
        case store(key: String, cacheType: ImageCacheType, hasImage: Bool, hasData: Bool)
        /// `removeImage` of `key` from tier `cacheType`.
        case remove(key: String, cacheType: ImageCacheType)
        /// `containsImage` for `key` in tier `cacheType`.
        case contains(key: String, cacheType: ImageCacheType)
        /// `clear` of tier `cacheType`.
        case clear(cacheType: ImageCacheType)
    }

    private struct Entry: Sendable {
        var image: WebImage?
        var data: Data?
    }

    private struct State {
        var memory: [String: Entry] = [:]
        var disk: [String: Entry] = [:]
    }

    /// A name for messages and for telling mocks apart in tests.
    public let name: String
    /// Every call, in order.
    public let calls = CallRecorder<Call>()
    /// When set, every operation waits at this gate before it does anything.
    public let gate: AsyncGate?
    private let state = Locked(State())
    private let storeErrorValue = Locked<WebImageError?>(nil)

    /// An empty mock cache.
    /// - Parameters:
    ///   - name: A name for messages.
    ///   - gate: Suspend every operation until this gate opens.
    public init(name: String = "mock", gate: AsyncGate? = nil) {
        self.name = name
        self.gate = gate
    }

    /// When set, `store` throws this error and stores nothing.
    public var storeError: WebImageError? {
        get { storeErrorValue.withLock { $0 } }
        set { storeErrorValue.withLock { $0 = newValue } }
    }

    /// The number of calls of one kind.
    public func count(of kind: (Call) -> Bool) -> Int {
        calls.all.filter(kind).count
    }

    /// The number of queries.
    public var queryCount: Int { count { if case .query = $0 { true } else { false } } }
    /// The number of stores.
    public var storeCount: Int { count { if case .store = $0 { true } else { false } } }

    /// Puts an entry in place without recording a call (test setup).
    public func preload(_ image: WebImage?, data: Data? = nil, forKey key: String, cacheType: ImageCacheType = .all) {
        state.withLock { state in
            let entry = Entry(image: image, data: data)
            if cacheType.includesMemory { state.memory[key] = entry }
            if cacheType.includesDisk { state.disk[key] = entry }
        }
    }

    /// The keys held in a tier (test inspection).
    public func keys(in cacheType: ImageCacheType) -> Set<String> {
        state.withLock { state in
            var keys = Set<String>()
            if cacheType.includesMemory { keys.formUnion(state.memory.keys) }
            if cacheType.includesDisk { keys.formUnion(state.disk.keys) }
            return keys
        }
    }

    /// Records a ``Call/query(key:cacheType:)``; answers from the tiers `cacheType` names.
    public func queryImage(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async -> ImageCacheResult? {
        calls.record(.query(key: key, cacheType: cacheType))
        await gate?.wait()
        if Task.isCancelled { return nil }
        return state.withLock { state in
            if cacheType.includesMemory, let entry = state.memory[key] {
                return ImageCacheResult(image: entry.image, data: entry.data, cacheType: .memory)
            }
            if cacheType.includesDisk, let entry = state.disk[key] {
                return ImageCacheResult(image: entry.image, data: entry.data, cacheType: .disk)
            }
            return nil
        }
    }

    /// Records a ``Call/store(key:cacheType:hasImage:hasData:)`` and keeps the image and data in the tiers named.
    public func store(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async throws {
        calls.record(.store(key: key, cacheType: cacheType, hasImage: image != nil, hasData: data != nil))
        await gate?.wait()
        if let error = storeError { throw error }
        preload(image, data: data, forKey: key, cacheType: cacheType)
    }

    /// Records a ``Call/remove(key:cacheType:)`` and forgets the key in the tiers named.
    public func removeImage(forKey key: String, cacheType: ImageCacheType) async {
        calls.record(.remove(key: key, cacheType: cacheType))
        await gate?.wait()
        state.withLock { state in
            if cacheType.includesMemory { state.memory[key] = nil }
            if cacheType.includesDisk { state.disk[key] = nil }
        }
    }

    /// Records a ``Call/contains(key:cacheType:)``; the tier that holds the key, or `.none`.
    public func containsImage(forKey key: String, cacheType: ImageCacheType) async -> ImageCacheType {
        calls.record(.contains(key: key, cacheType: cacheType))
        await gate?.wait()
        return state.withLock { state in
            let inMemory = cacheType.includesMemory && state.memory[key] != nil
            let onDisk = cacheType.includesDisk && state.disk[key] != nil
            switch (inMemory, onDisk) {
            case (true, true): return .all
            case (true, false): return .memory
            case (false, true): return .disk
            case (false, false): return .none
            }
        }
    }

    /// Records a ``Call/clear(cacheType:)`` and empties the tiers named.
    public func clear(cacheType: ImageCacheType) async {
        calls.record(.clear(cacheType: cacheType))
        await gate?.wait()
        state.withLock { state in
            if cacheType.includesMemory { state.memory.removeAll() }
            if cacheType.includesDisk { state.disk.removeAll() }
        }
    }
}
