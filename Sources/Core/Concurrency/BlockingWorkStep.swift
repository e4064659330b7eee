/// One step of work chained across executors by
/// ``BlockingWorkExecutor/run(steps:)``: the end value, or the next step and the executor it
/// runs on.
///
/// ```swift
/// let image = try await BlockingWorkExecutor.fileIO.run(steps: {
///     let data = try read(file)
///     return .next(on: .processing) { .done(try decode(data)) }
/// })
/// ```
public enum BlockingWorkStep<Value: Sendable>: Sendable {
    /// The work is done: the caller gets `value`.
    case done(Value)
    /// Run `work` next, on `executor`, within that executor's width. The thread that ran this
    /// step hands it over directly (no trip through the Swift concurrency pool).
    case next(on: BlockingWorkExecutor, work: @Sendable () throws -> BlockingWorkStep<Value>)
}
