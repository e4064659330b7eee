import Dispatch
import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// ``Locked``'s try-lock: it runs the body when the lock is free and gives up at once when
/// another thread holds it.
@Suite struct LockedTests {
    @Test func withLockIfAvailableRunsWhenFreeAndGivesUpWhenHeld() async {
        let counter = Locked(0)
        #expect(counter.withLockIfAvailable { value -> Int in
            value += 1
            return value
        } == 1)
        let attempted = DispatchSemaphore(value: 0)
        let result = Locked<Int?>(nil)
        // The holding thread is one of its own: the wait below must not hold a pool thread.
        await OwnThread.run { counter.withLock { _ in
            Thread.detachNewThread {
                let got = counter.withLockIfAvailable { value -> Int in
                    value += 10
                    return value
                }
                result.withLock { $0 = got }
                attempted.signal()
            }
            // Held here until the other thread has tried (it gives up at once, so no deadlock).
            attempted.wait()  // blocking: own thread (OwnThread.run)
        } }
        #expect(result.withLock { $0 } == nil)
        #expect(counter.withLock { $0 } == 1)
    }
}
