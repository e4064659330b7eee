
/// Links an operation to its own completion handler, which may run before the code that
/// created the operation has recorded it.
final class OperationHolder: Sendable {
    private let state = Locked<(operation: ImageOperation?, finished: Bool)>((nil, false))

    /// Records the operation; returns `true` if its completion already ran.
    func set(_ operation: ImageOperation) -> Bool {
        state.withLock { state in
            state.operation = operation
            return state.finished
        }
    }

    /// Marks the completion as run; returns the operation if it was recorded already.
    func finish() -> ImageOperation? {
        state.withLock { state in
            state.finished = true
            return state.operation
        }
    }
}
