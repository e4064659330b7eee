import Testing
import WebImageTestSupport

/// `ResponsivePool` and the `.whenThePoolResponds` trait: every waiter returns once the one
/// probe has ended, later ones at once, and a suite behind the trait starts after it.
@Suite struct ResponsivePoolTests {
    @Test func everyWaiterReturnsAndLaterOnesReturnAtOnce() async {
        let pool = ResponsivePool()
        #expect(!pool.hasResponded)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<10 { group.addTask { await pool.wait() } }
        }
        #expect(pool.hasResponded)
        await pool.wait()
    }
}

@Suite(.whenThePoolResponds) struct ResponsivePoolTraitTests {
    @Test func aSuiteBehindTheTraitStartsAfterTheProbe() {
        #expect(ResponsivePool.shared.hasResponded)
    }

    @Test(arguments: 0..<3)
    func soDoesEveryCaseOfItsParameterizedTests(_ index: Int) {
        #expect(ResponsivePool.shared.hasResponded, "case \(index)")
    }
}
