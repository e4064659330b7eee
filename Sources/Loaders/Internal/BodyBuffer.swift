#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The body of one download as it arrives: one malloc'ed buffer, sized from the declared
/// length when there is one (so the bytes are copied once, from libcurl's buffer into it), grown
/// by `realloc` otherwise (glibc moves a large block by remapping it, not copying it, so growth
/// never holds two copies), and handed to the caller as `Data` without a copy; the buffer goes
/// back to the ``BodyBufferPool`` when that `Data` is released.
///
/// `@unchecked Sendable`: used only under the lock of its ``DownloadTransfer``'s state.
final class BodyBuffer: @unchecked Sendable {
    private let pool: BodyBufferPool
    private var buffer: BodyBufferPool.Buffer?
    /// The bytes received so far.
    private(set) var count = 0
    /// The body once handed over (``take()``).
    private var taken: Data?

    /// A buffer for a body of `expected` bytes, if declared.
    init(pool: BodyBufferPool, expected: Int?) {
        self.pool = pool
        if let expected, expected > 0 { buffer = pool.take(expected) }
    }

    deinit {
        if let buffer { pool.recycle(buffer) }
    }

    var isEmpty: Bool { count == 0 }

    /// Appends `bytes`; `false` when out of memory.
    func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        guard taken == nil else { return false }
        let needed = count + bytes.count
        if needed > buffer?.capacity ?? 0 {
            guard grow(to: needed) else { return false }
        }
        guard let buffer else { return false }
        (buffer.pointer + count).copyMemory(from: base, byteCount: bytes.count)
        count = needed
        return true
    }

    /// At least doubles the capacity (64 KiB at first), to `needed` at least.
    private func grow(to needed: Int) -> Bool {
        let capacity = BodyBufferPool.capacity(for: max(needed, (buffer?.capacity ?? 0) * 2, 64 << 10))
        guard let old = buffer else {
            guard let new = pool.take(capacity) else { return false }
            buffer = new
            return true
        }
        guard let pointer = realloc(old.pointer, capacity) else { return false }
        buffer = BodyBufferPool.Buffer(pointer: pointer, capacity: capacity)
        return true
    }

    /// A copy of the bytes so far (for a progressive decode).
    func snapshot() -> Data {
        if let taken { return taken }
        guard let buffer, count > 0 else { return Data() }
        return Data(bytes: buffer.pointer, count: count)
    }

    /// The body, without a copy; the buffer returns to the pool when the `Data` is released.
    /// Later calls return the same `Data`.
    func take() -> Data {
        if let taken { return taken }
        let data: Data
        if let buffer, count > 0 {
            let pool = pool
            data = Data(bytesNoCopy: buffer.pointer, count: count, deallocator: .custom { _, _ in pool.recycle(buffer) })
        } else {
            data = Data()
            if let buffer { pool.recycle(buffer) }
        }
        buffer = nil
        taken = data
        return data
    }
}
