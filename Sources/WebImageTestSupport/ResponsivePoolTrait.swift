public import Testing

/// Holds a suite (or a test function) until Swift's cooperative pool answers promptly, then
/// runs it (``ResponsivePool``):
///
/// ```swift
/// @Suite(.timeLimit(.minutes(1)), .whenThePoolResponds) struct DownloaderSchedulingTests { ... }
/// ```
///
/// For suites with a time limit whose tests take many sequential steps on the pool: their
/// limit then measures their own work, not the first seconds of the run, when every test's
/// `await` waits behind the first steps of all the others. What the tests check is unchanged.
///
/// The wait happens around the whole suite (or test function), outside every test case's time
/// limit: Swift Testing starts that clock in `Runner._runTestCase`, under the suite's and the
/// function's scopes (swift-testing 6.3, `Runner.swift`).
public struct ResponsivePoolTrait: SuiteTrait, TestTrait, TestScoping {
    /// Not applied to each test of a suite again: the suite waits once.
    public var isRecursive: Bool { false }

    /// The trait itself for the suite or test function it is on, nothing for single test cases:
    /// a scope on a test case would run inside the case's time limit.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? self : nil
    }

    /// Waits for ``ResponsivePool/shared``, then runs `function`.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        await ResponsivePool.shared.wait()
        try await function()
    }
}

extension Trait where Self == ResponsivePoolTrait {
    /// Starts the suite's tests once the cooperative pool answers promptly
    /// (``ResponsivePoolTrait``).
    public static var whenThePoolResponds: Self { Self() }
}
