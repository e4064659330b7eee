import Foundation

/// The running load of each (target, operation key), and the URL each target shows: the
/// Linux stand-in for the associated objects `UIImageView+WebCache` keeps on a view.
///
/// Entries are keyed by the target's `ObjectIdentifier` and removed when their load ends, so
/// the table holds only running loads. (If a target is freed while its load runs and a new
/// object reuses its address, the new object's first load cancels the old one: harmless,
/// since the old target is gone.)
final class ImageTargetRegistry: Sendable {
    static let shared = ImageTargetRegistry()

    struct Key: Hashable {
        let target: ObjectIdentifier
        let operationKey: String
    }

    private struct Entry {
        let operation: ImageOperation
        let url: URL?
    }

    private let entries = Locked<[Key: Entry]>([:])

    /// Records `operation` for `key`, returning the operation it replaces (to cancel).
    func replace(_ key: Key, with operation: ImageOperation, url: URL?) -> ImageOperation? {
        entries.withLock { $0.updateValue(Entry(operation: operation, url: url), forKey: key)?.operation }
    }

    /// Removes and returns the operation of `key`.
    func remove(_ key: Key) -> ImageOperation? {
        entries.withLock { $0.removeValue(forKey: key)?.operation }
    }

    /// Removes the entry of `key` if it still holds `operation`.
    func finish(_ key: Key, operation: ImageOperation) {
        entries.withLock { entries in
            if entries[key]?.operation === operation { entries[key] = nil }
        }
    }

    /// The URL of the load running for `key`.
    func url(for key: Key) -> URL? {
        entries.withLock { $0[key]?.url }
    }
}
