import Testing
import WebImageTestSupport

/// The `.onOwnThreads` trait: the suite's test bodies, the cases of its parameterized tests and
/// their child tasks run on `OwnThreadsExecutor.shared`, and expectations still belong to the
/// test that runs them.
@Suite(.onOwnThreads) struct OwnThreadsTraitTests {
    @Test func aSynchronousTestRunsOnTheExecutor() {
        #expect(OwnThreadsExecutor.shared.isCurrent)
    }

    @Test(arguments: 0..<4)
    func everyCaseOfAParameterizedTestRunsOnTheExecutor(_ index: Int) async {
        #expect(OwnThreadsExecutor.shared.isCurrent, "case \(index)")
        await Task.yield()
        #expect(OwnThreadsExecutor.shared.isCurrent, "case \(index) after a suspension")
    }

    @Test func childTasksFollow() async {
        async let child = OwnThreadsExecutor.shared.isCurrent
        let inGroup = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<3 { group.addTask { OwnThreadsExecutor.shared.isCurrent } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(await child)
        #expect(inGroup == [true, true, true])
    }

    @Test func anExpectationThatFailsThereIsRecordedForTheTest() {
        withKnownIssue {
            #expect(Bool(false), "recorded on the executor's thread, for this test")
        }
    }

    @Suite struct NestedSuite {
        @Test func aNestedSuiteRunsOnTheExecutorToo() {
            #expect(OwnThreadsExecutor.shared.isCurrent)
        }
    }
}

@Suite struct OwnThreadsExecutorTests {
    @Test func aSuiteWithoutTheTraitRunsOnThePool() {
        #expect(!OwnThreadsExecutor.shared.isCurrent)
    }

    @Test(.onOwnThreads) func theTraitOnOneTestMovesThatTest() {
        #expect(OwnThreadsExecutor.shared.isCurrent)
    }

    @Test(.onOwnThreads, arguments: 0..<3)
    func theTraitOnAParameterizedTestMovesEveryCase(_ index: Int) {
        #expect(OwnThreadsExecutor.shared.isCurrent, "case \(index)")
    }

    @Test func aTaskExecutorPreferenceMovesWorkOntoIt() async {
        let moved = await withTaskExecutorPreference(OwnThreadsExecutor.shared) {
            OwnThreadsExecutor.shared.isCurrent
        }
        #expect(moved)
        #expect(!OwnThreadsExecutor.shared.isCurrent)
    }
}
