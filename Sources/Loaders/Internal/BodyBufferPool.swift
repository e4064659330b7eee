#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import WebImageCore

/// The large body buffers (128 KiB and more) of one ``Downloader``'s finished downloads, kept
/// for its next downloads when their owners let them go.
///
/// Why: glibc serves an allocation of a size it has just freed by `mmap` again (its dynamic
/// mmap threshold only moves past sizes it has seen), so each 1 MB body was a fresh mapping
/// whose 256 pages faulted in one by one (and were zeroed) while the body was copied into it,
/// then unmapped: most of the downloader's CPU per megabyte. A body handed to the caller as
/// `Data` returns its buffer here when the last copy of that `Data` is gone.
///
/// Bounded: at most ``maximumBytes`` kept, none larger than ``maximumBufferBytes``; a buffer
/// that does not fit is freed. Thread-safety: a lock; buffers come back on any thread.
final class BodyBufferPool: Sendable {
    /// An owned malloc'ed buffer.
    struct Buffer: @unchecked Sendable {
        // @unchecked Sendable: the pointer is owned by whoever holds the value, one at a time.
        let pointer: UnsafeMutableRawPointer
        let capacity: Int
    }

    /// Allocations from this size on go through the pool (smaller ones glibc serves from
    /// its heap without faults).
    static let minimumBufferBytes = 128 << 10
    /// The largest buffer kept.
    static let maximumBufferBytes = 8 << 20
    /// The most bytes kept in all.
    static let maximumBytes = 16 << 20

    private let kept = Locked<(buffers: [Buffer], bytes: Int)>(([], 0))

    deinit {
        kept.withLock { kept in
            for buffer in kept.buffers { free(buffer.pointer) }
            kept.buffers = []
        }
    }

    /// The capacity a request for `bytes` is given: a multiple of 64 KiB from the pool's
    /// minimum on, so that bodies of nearby sizes share buffers.
    static func capacity(for bytes: Int) -> Int {
        guard bytes >= minimumBufferBytes else { return max(bytes, 1) }
        let unit = 64 << 10
        return (bytes + unit - 1) / unit * unit
    }

    /// A buffer of at least `bytes` (exactly ``capacity(for:)``'s), kept or new; `nil` when
    /// out of memory.
    func take(_ bytes: Int) -> Buffer? {
        let capacity = Self.capacity(for: bytes)
        if capacity >= Self.minimumBufferBytes {
            let reused = kept.withLock { kept -> Buffer? in
                // The smallest kept buffer that is large enough, and not more than a quarter
                // larger; of equal ones, the one kept last (its lines are the likeliest to be
                // still in the cache: the body is copied into it as it arrives).
                var best: Int?
                for (index, buffer) in kept.buffers.enumerated().reversed() where buffer.capacity >= capacity && buffer.capacity <= capacity + capacity / 4 {
                    if best.map({ buffer.capacity < kept.buffers[$0].capacity }) ?? true { best = index }
                }
                guard let best else { return nil }
                let buffer = kept.buffers.remove(at: best)
                kept.bytes -= buffer.capacity
                return buffer
            }
            if let reused { return reused }
        }
        guard let pointer = malloc(capacity) else { return nil }
        return Buffer(pointer: pointer, capacity: capacity)
    }

    /// Takes a buffer back: keeps it if it fits, frees it otherwise.
    func recycle(_ buffer: Buffer) {
        guard buffer.capacity >= Self.minimumBufferBytes, buffer.capacity <= Self.maximumBufferBytes else {
            free(buffer.pointer)
            return
        }
        let keep = kept.withLock { kept -> Bool in
            guard kept.bytes + buffer.capacity <= Self.maximumBytes else { return false }
            kept.buffers.append(buffer)
            kept.bytes += buffer.capacity
            return true
        }
        if !keep { free(buffer.pointer) }
    }
}
