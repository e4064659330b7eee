import Dispatch

/// One place in a connection pool: a serial queue where the blocking socket work of one
/// round trip runs (never on the Swift concurrency pool), and the connection it keeps open.
///
/// `@unchecked Sendable`: `connection` is only read and written by work items on `queue`
/// (a serial queue), and the pool lends a slot to one round trip at a time, so no two threads
/// ever touch it at once.
final class PoolSlot: @unchecked Sendable {
    let queue: DispatchQueue
    var connection: RedisConnection?

    init(endpoint: RedisEndpoint, index: Int) {
        queue = DispatchQueue(label: "RedisCache.RedisClient.\(endpoint).connection-\(index)")
    }

    /// Closes the connection, on the slot's queue.
    func closeConnection() {
        queue.async { [self] in
            connection?.close()
            connection = nil
        }
    }
}
