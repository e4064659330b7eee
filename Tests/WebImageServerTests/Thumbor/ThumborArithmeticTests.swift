import Testing
@testable import WebImageServer

/// thumbor compares aspect ratios with Python's `round(ratio, 2)`: correctly rounded from the
/// exact binary value, ties to even. Expected values from Python 3.11 (`round(x, 2) * 100`).
@Suite struct ThumborArithmeticTests {
    @Test(arguments: [
        (0.125, 12), (0.375, 38), (2.675, 267), (1.005, 100), (0.5, 50), (1.0 / 3.0, 33), (2.0 / 3.0, 67),
        (1.5, 150), (0.995, 99), (2.0, 200), (1001.0 / 667.0, 150), (0.015, 1), (0.025, 3), (1e-30, 0), (123456.789, 12_345_679),
    ])
    func hundredthsRoundLikePython(value: Double, expected: Int) {
        #expect(ThumborGeometry.hundredths(value) == expected)
    }
}
