import Foundation
public import WebImageCore
#if canImport(Glibc)
import Glibc
import CMalloc
#elseif canImport(Musl)
import Musl
#endif

/// The memory an image server may use, and the decodes admitted against it.
///
/// The budget has two parts:
/// - **fixed** (``fixedBytes``): what the server holds whatever the traffic: the capacities of
///   its memory tiers (decoded originals, reduced copies, encoded results) and the process's own
///   baseline (code, threads, libraries, the allocator's slack, transforms in progress);
/// - **decodes** (``decodeCapacity``, the rest of ``limit``): the bitmaps of sources being
///   decoded or waiting for their transform. A decode reserves its bitmap's bytes (width x
///   height x 4 x frames, read from the image's headers) before it allocates them, and keeps
///   the reservation until the request that asked for it has rendered its result
///   (``releaseDecode(of:)``); a decoded original the memory tier keeps is then counted in the
///   tier's fixed part.
///
/// A decode that does not fit waits for others to release theirs (on its decode thread, woken
/// as soon as bytes are released), until its request is cancelled (its deadline, its client
/// gone) or ``maximumWait`` has passed; it is then refused with
/// ``/WebImageCore/WebImageError/Code/imageTooLarge`` whose underlying error is
/// ``Exhausted`` (the image server answers `503` with `Retry-After`). A decode larger than the
/// whole ``decodeCapacity`` is refused at once (`422`: no wait can make it fit).
///
/// Decision: a reservation no request claims (a load that finished after every requester left)
/// is released after ``unclaimedLifetime``, so a lost one cannot shrink the budget for ever.
/// Decision: when at least ``trimThreshold`` bytes have been released since the allocator
/// last gave memory back, the budget calls glibc's `malloc_trim` (at most once a second, on a
/// background queue), so that freed bitmaps do not stay in the process's arenas.
///
/// Thread-safety: every member may be called from any thread.
public final class MemoryBudget: Sendable {
    /// Why a decode was refused after waiting: the budget stayed spent for ``MemoryBudget/maximumWait``.
    public struct Exhausted: Error, Sendable, CustomStringConvertible {
        /// The bytes the decode asked for.
        public let requestedBytes: Int
        /// The bytes reserved by other decodes when it gave up.
        public let reservedBytes: Int
        /// The decodes' capacity.
        public let capacity: Int

        /// The refusal in words.
        public var description: String {
            "the memory budget for decodes is spent (\(reservedBytes) of \(capacity) bytes reserved; \(requestedBytes) more asked for)"
        }
    }

    /// A decode's hold on the budget, given back by ``release()`` (once; later calls do nothing).
    public final class Reservation: Sendable {
        /// The bytes held.
        public let bytes: Int
        private let budget: MemoryBudget
        private let released = Locked(false)

        fileprivate init(bytes: Int, budget: MemoryBudget) {
            self.bytes = bytes
            self.budget = budget
        }

        /// Gives the bytes back and wakes the decodes that wait for them.
        public func release() {
            if takeRelease() { budget.give(bytes) }
        }

        /// Marks the reservation released; `true` for the first call only.
        fileprivate func takeRelease() -> Bool {
            released.withLock { released -> Bool in
                defer { released = true }
                return !released
            }
        }
    }

    /// What the budget's use looks like at one moment (for `/metrics`).
    public struct Usage: Sendable, Equatable {
        /// The bytes decodes hold now.
        public var reservedBytes = 0
        /// The most they held at once.
        public var peakReservedBytes = 0
        /// Decodes that had to wait.
        public var waits = 0
        /// Decodes refused (too large for the budget, or waited too long).
        public var refusals = 0
        /// Decodes holding a reservation now.
        public var reservations = 0
    }

    /// The whole budget, in bytes.
    public let limit: Int
    /// The part of ``limit`` the memory tiers and the process's baseline take.
    public let fixedBytes: Int
    /// How long a decode waits for the budget before it is refused.
    public let maximumWait: Duration
    /// How long a reservation waits to be claimed by a request (see ``releaseDecode(of:)``).
    public let unclaimedLifetime: Duration
    /// Released bytes after which the allocator is asked to give memory back (0: never).
    public let trimThreshold: Int

    /// Called on the waiting thread when a decode starts to wait (a test hook).
    package let waitStarted = Locked<(@Sendable () -> Void)?>(nil)

    /// The bytes decodes may hold at once: ``limit`` minus ``fixedBytes``.
    public var decodeCapacity: Int { max(0, limit - fixedBytes) }

    private struct Claim {
        let reservation: Reservation
        let made: ContinuousClock.Instant
    }

    private struct State {
        var usage = Usage()
        var waiting = 0
        /// Reservations of finished decodes, by the address of their image's pixels.
        var claims: [UInt: [Claim]] = [:]
        var releasedSinceTrim = 0
        var trimScheduled = false
        var lastTrim: ContinuousClock.Instant?
    }

    private let condition = NSCondition()
    // nonisolated(unsafe): `state` is only read and written while `condition` is locked.
    private nonisolated(unsafe) var state = State()

    /// A budget of `limit` bytes of which `fixedBytes` are taken by the memory tiers and the
    /// process's baseline.
    /// - Parameters:
    ///   - limit: The whole budget (`webimage serve --memory-limit`).
    ///   - fixedBytes: The memory tiers' capacities plus the baseline.
    ///   - maximumWait: How long a decode may wait for room (default 30 s; a request's deadline
    ///     stops the wait sooner).
    ///   - unclaimedLifetime: How long an unclaimed reservation is kept (default 60 s).
    ///   - trimThreshold: Released bytes after which `malloc_trim` runs (default 64 MiB; 0 never).
    public init(limit: Int, fixedBytes: Int, maximumWait: Duration = .seconds(30), unclaimedLifetime: Duration = .seconds(60), trimThreshold: Int = 64 << 20) {
        self.limit = max(0, limit)
        self.fixedBytes = max(0, fixedBytes)
        self.maximumWait = maximumWait
        self.unclaimedLifetime = unclaimedLifetime
        self.trimThreshold = max(0, trimThreshold)
    }

    /// The use now.
    public var usage: Usage {
        condition.locked { state.usage }
    }

    /// Reserves `bytes` for a decode, waiting (on the calling thread) while the budget is spent.
    ///
    /// The wait ends when room is released, when the calling job of a
    /// ``/WebImageCore/BlockingWorkExecutor`` is cancelled, or after ``maximumWait``.
    /// - Parameters:
    ///   - bytes: The bytes the decode's bitmaps will take.
    ///   - subject: What is decoded, for the error's message.
    /// - Throws: ``/WebImageCore/WebImageError/Code/imageTooLarge`` when `bytes` is over
    ///   ``decodeCapacity`` (at once) or the wait ran out (underlying error ``Exhausted``);
    ///   ``/WebImageCore/WebImageError/Code/cancelled`` when the job was cancelled while waiting.
    public func reserve(_ bytes: Int, for subject: @autoclosure () -> String) throws(WebImageError) -> Reservation {
        let bytes = max(0, bytes)
        let capacity = decodeCapacity
        guard bytes <= capacity else {
            condition.locked { state.usage.refusals += 1 }
            throw WebImageError(.imageTooLarge, "\(subject()) needs \(bytes) bytes to decode, over the server's memory budget for decodes (\(capacity) bytes of a \(limit)-byte limit)")
        }
        let deadline = ContinuousClock.now + maximumWait
        var waited = false
        condition.lock()
        defer { condition.unlock() }
        sweepUnclaimed(now: .now)
        while state.usage.reservedBytes + bytes > capacity {
            if !waited {
                waited = true
                state.usage.waits += 1
                waitStarted.withLock { $0 }?()
            }
            if BlockingWorkExecutor.isCurrentJobCancelled {
                throw WebImageError(.cancelled, "\(subject()): cancelled while waiting for the memory budget")
            }
            let now = ContinuousClock.now
            guard now < deadline else {
                state.usage.refusals += 1
                let exhausted = Exhausted(requestedBytes: bytes, reservedBytes: state.usage.reservedBytes, capacity: capacity)
                throw WebImageError(.imageTooLarge, "\(subject()): \(exhausted)", underlyingError: exhausted)
            }
            // Woken by every release; the slice bounds how late a cancellation is seen.
            state.waiting += 1
            condition.wait(atMost: min(deadline - now, .milliseconds(50)))
            state.waiting -= 1
            sweepUnclaimed(now: .now)
        }
        state.usage.reservedBytes += bytes
        state.usage.reservations += 1
        state.usage.peakReservedBytes = max(state.usage.peakReservedBytes, state.usage.reservedBytes)
        return Reservation(bytes: bytes, budget: self)
    }

    /// Reserves `bytes` that are already allocated (a decode whose size could not be read
    /// before it ran), without waiting: the decodes after it wait for them.
    public func forceReserve(_ bytes: Int) -> Reservation {
        let bytes = max(0, bytes)
        return condition.locked {
            state.usage.reservedBytes += bytes
            state.usage.reservations += 1
            state.usage.peakReservedBytes = max(state.usage.peakReservedBytes, state.usage.reservedBytes)
            return Reservation(bytes: bytes, budget: self)
        }
    }

    /// Keeps `reservation` until a request renders `image` (``releaseDecode(of:)``), or for
    /// ``unclaimedLifetime``.
    public func hold(_ reservation: Reservation, until image: WebImage) {
        let address = Self.address(of: image)
        condition.locked {
            state.claims[address, default: []].append(Claim(reservation: reservation, made: .now))
        }
    }

    /// Releases the reservations of the decodes that made `image` (nothing when there are none:
    /// the image came from a memory tier, or another request released them already).
    public func releaseDecode(of image: WebImage) {
        let address = Self.address(of: image)
        let claims = condition.locked { state.claims.removeValue(forKey: address) } ?? []
        for claim in claims { claim.reservation.release() }
    }

    /// A coder that decodes with `coder` under this budget (reserving each decode's bytes, read
    /// from the data's headers) and encodes with it unchanged.
    public func budgeting(_ coder: any ImageCoder) -> any ImageCoder {
        MemoryBudgetedCoder(base: coder, budget: self)
    }

    /// This process's resident memory now, in bytes (`/proc/self/statm`), or `nil` when it
    /// cannot be read.
    public static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    // MARK: - Internal

    /// The identity of an image's pixels: the address of its first frame's bytes (copies of
    /// the image share them).
    static func address(of image: WebImage) -> UInt {
        image.bitmap.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    /// Gives `bytes` back (from ``Reservation/release()``).
    fileprivate func give(_ bytes: Int) {
        let trim = condition.locked { giveLocked(bytes) }
        if trim { scheduleTrim() }
    }

    /// Gives `bytes` back with the lock held; `true` when the allocator should be trimmed.
    private func giveLocked(_ bytes: Int) -> Bool {
        state.usage.reservedBytes -= bytes
        state.usage.reservations -= 1
        state.releasedSinceTrim += bytes
        if state.waiting > 0 { condition.broadcast() }
        guard trimThreshold > 0, state.releasedSinceTrim >= trimThreshold, !state.trimScheduled else { return false }
        state.trimScheduled = true
        state.releasedSinceTrim = 0
        return true
    }

    /// Where `malloc_trim` runs: a serial queue, off the Swift pool's threads.
    private static let trimQueue = DispatchQueue(label: "WebImageServer.MemoryBudget.trim")

    /// Runs `malloc_trim` on a background queue, at most once a second.
    private func scheduleTrim() {
        let delay = condition.locked { () -> Duration in
            guard let last = state.lastTrim else { return .zero }
            return max(.zero, .seconds(1) - (ContinuousClock.now - last))
        }
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        Self.trimQueue.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [self] in
            #if canImport(Glibc)
            _ = malloc_trim(0)
            #endif
            condition.locked {
                state.trimScheduled = false
                state.lastTrim = .now
            }
        }
    }

    /// Releases the claims older than ``unclaimedLifetime`` (the condition's lock is held).
    private func sweepUnclaimed(now: ContinuousClock.Instant) {
        guard !state.claims.isEmpty else { return }
        var trim = false
        for (address, claims) in state.claims {
            let expired = claims.filter { now - $0.made >= unclaimedLifetime }
            guard !expired.isEmpty else { continue }
            let kept = claims.filter { now - $0.made < unclaimedLifetime }
            state.claims[address] = kept.isEmpty ? nil : kept
            for claim in expired where claim.reservation.takeRelease() {
                trim = giveLocked(claim.reservation.bytes) || trim
            }
        }
        if trim {
            // scheduleTrim takes the lock: run it once this call has let go.
            Self.trimQueue.async { [self] in scheduleTrim() }
        }
    }
}

extension NSCondition {
    /// `body` with the condition locked.
    fileprivate func locked<Value>(_ body: () throws -> Value) rethrows -> Value {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits for a signal for at most `duration` (the lock is held).
    fileprivate func wait(atMost duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        _ = wait(until: Date(timeIntervalSinceNow: max(0, seconds)))
    }
}
