
/// Delivers a completion exactly once: the first `deliver` wins, later ones are dropped.
/// Used where a result and a cancellation race to complete the same request.
final class CompletionOnce<Value: Sendable>: Sendable {
    private let handler: Locked<(@Sendable (Value) -> Void)?>
    private let queue: CallbackQueue

    init(queue: CallbackQueue, _ handler: @escaping @Sendable (Value) -> Void) {
        self.handler = Locked(handler)
        self.queue = queue
    }

    /// Calls the handler with `value` (on the callback queue) unless it was called before.
    func deliver(_ value: Value) {
        guard let handler = handler.withLock({ stored -> (@Sendable (Value) -> Void)? in
            defer { stored = nil }
            return stored
        }) else { return }
        queue.execute { handler(value) }
    }
}
