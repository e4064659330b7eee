public import Testing

/// Runs the tests of a suite (or the cases of a test function) on
/// ``OwnThreadsExecutor/shared`` instead of Swift's cooperative pool:
///
/// ```swift
/// @Suite(.onOwnThreads) struct JPEGScaleDownTests { ... }
/// ```
///
/// For suites whose tests spend their time in synchronous CPU work (coders, transformers, pixel
/// comparisons): that work then no longer stands in the pool's queue in front of every other
/// test's `await` (see ``OwnThreadsExecutor`` for why that matters). The test bodies run in the
/// same tasks as before, with the executor as their task executor preference, so `#expect`,
/// `#require` and task-locals work as usual, and child tasks (`async let`, task groups, the
/// cases of a parameterized test) follow them. Work the code under test starts in unstructured
/// tasks and actors with executors of their own still runs where it always does.
///
/// Not for tests that wait on timers of the code under test (timeouts, deadlines): their
/// resumptions would queue behind the heavy work here.
///
/// The scope is set up around the whole suite (or the whole test function), outside every
/// test case's time limit: Swift Testing starts a case's `.timeLimit` clock inside
/// `Runner._runTestCase`, under the suite's and function's scopes.
public struct OwnThreadsTrait: SuiteTrait, TestTrait, TestScoping {
    /// Not applied to each test of a suite again: the suite's scope covers them.
    public var isRecursive: Bool { false }

    /// The trait itself for the suite or test function it is on, nothing for single test cases:
    /// the scope wraps all of them at once.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? self : nil
    }

    /// Runs `function` with ``OwnThreadsExecutor/shared`` as the task executor preference.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(OwnThreadsExecutor.shared) {
            try await function()
        }
    }
}

extension Trait where Self == OwnThreadsTrait {
    /// Runs the suite's tests on threads of their own, off Swift's cooperative pool
    /// (``OwnThreadsTrait``).
    public static var onOwnThreads: Self { Self() }
}
