/// The key-to-slot index of ``LRUStorage``: open addressing with linear probing over a
/// power-of-two table of 64-bit hashes, so that a lookup hashes the key's UTF-8 bytes eight at
/// a time with no `Hasher` set-up, probes one or two cache lines, and compares the key once.
/// This is the hot path of a memory cache hit (about twice as fast as `[String: Int]`).
///
/// The hash is seeded per process at random, so that keys crafted to collide (URLs are input
/// from the network) cannot be prepared in advance. Deleted buckets are tombstones; the table
/// is rebuilt when live plus deleted buckets pass half its size.
///
/// Each bucket keeps its key (a second reference to the storage's string, so that a lookup
/// compares in place without touching reference counts). Not thread-safe on its own.
struct KeyIndex {
    private static let empty: UInt64 = 0
    private static let deleted: UInt64 = 1
    /// A per-process random seed.
    private static let seed = UInt64.random(in: 0...UInt64.max) | 1

    private var hashes: [UInt64]
    private var slots: [Int]
    private var bucketKeys: [String]
    private var mask: Int
    private(set) var count = 0
    private var tombstones = 0

    init() {
        hashes = [UInt64](repeating: Self.empty, count: 16)
        slots = [Int](repeating: 0, count: 16)
        bucketKeys = [String](repeating: "", count: 16)
        mask = 15
    }

    /// The hash of `key` (never `empty` or `deleted`).
    static func hash(_ key: String) -> UInt64 {
        let raw = key.utf8.withContiguousStorageIfAvailable(hashBytes) ?? {
            var copy = key
            return copy.withUTF8(hashBytes)
        }()
        return raw < 2 ? raw + 2 : raw
    }

    /// Eight bytes at a time through a multiply-xorshift step, then MurmurHash3's finalizer.
    private static func hashBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = bytes.count
        var state = seed ^ (UInt64(count) &* 0x9E37_79B9_7F4A_7C15)
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return state }
        var offset = 0
        while offset + 8 <= count {
            state = mix(state ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var last: UInt64 = 0
        var shift: UInt64 = 0
        while offset < count {
            last |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        state = mix(state ^ last)
        state ^= state >> 33
        state = state &* 0xFF51_AFD7_ED55_8CCD
        state ^= state >> 33
        state = state &* 0xC4CE_B9FE_1A85_EC53
        state ^= state >> 33
        return state
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        let product = value &* 0x9E37_79B9_7F4A_7C15
        return product ^ (product >> 29)
    }

    /// The slot of `key`, whose hash is `hash`, or `nil`.
    func find(_ key: String, hash: UInt64) -> Int? {
        var bucket = Int(truncatingIfNeeded: hash) & mask
        while true {
            let stored = hashes[bucket]
            if stored == Self.empty { return nil }
            if stored == hash, bucketKeys[bucket] == key { return slots[bucket] }
            bucket = (bucket + 1) & mask
        }
    }

    /// Adds `slot` for `key`, whose hash is `hash` and which is not in the index.
    mutating func insert(_ key: String, slot: Int, hash: UInt64) {
        if (count + tombstones + 1) * 2 > hashes.count { rebuild(capacity: max(16, (count + 1) * 4)) }
        var bucket = Int(truncatingIfNeeded: hash) & mask
        while hashes[bucket] > Self.deleted { bucket = (bucket + 1) & mask }
        if hashes[bucket] == Self.deleted { tombstones -= 1 }
        hashes[bucket] = hash
        slots[bucket] = slot
        bucketKeys[bucket] = key
        count += 1
    }

    /// Removes `key`, whose hash is `hash`.
    /// - Returns: Its slot, or `nil` if absent.
    mutating func remove(_ key: String, hash: UInt64) -> Int? {
        var bucket = Int(truncatingIfNeeded: hash) & mask
        while true {
            let stored = hashes[bucket]
            if stored == Self.empty { return nil }
            if stored == hash, bucketKeys[bucket] == key {
                hashes[bucket] = Self.deleted
                bucketKeys[bucket] = ""
                tombstones += 1
                count -= 1
                return slots[bucket]
            }
            bucket = (bucket + 1) & mask
        }
    }

    /// Rebuilds the table at `capacity` (rounded up to a power of two), dropping tombstones.
    private mutating func rebuild(capacity: Int) {
        var size = 16
        while size < capacity { size <<= 1 }
        let oldHashes = hashes
        let oldSlots = slots
        let oldKeys = bucketKeys
        hashes = [UInt64](repeating: Self.empty, count: size)
        slots = [Int](repeating: 0, count: size)
        bucketKeys = [String](repeating: "", count: size)
        mask = size - 1
        tombstones = 0
        count = 0
        for (bucket, hash) in oldHashes.enumerated() where hash > Self.deleted {
            var target = Int(truncatingIfNeeded: hash) & mask
            while hashes[target] != Self.empty { target = (target + 1) & mask }
            hashes[target] = hash
            slots[target] = oldSlots[bucket]
            bucketKeys[target] = oldKeys[bucket]
            count += 1
        }
    }
}
