import Testing
import WebImageTestSupport
@testable import WebImageCoders

/// The PNG encoder's filter choice shortcuts (issue 19: a flat 49-megapixel frame took seconds
/// trying all five filters on every row): an all-zero row takes None and a row equal to the one
/// above takes Up, which is what the full comparison picks; other rows still compare all five.
@Suite(.onOwnThreads) struct PNGFilterShortcutTests {
    static func candidates(_ count: Int) -> [[UInt8]] {
        [[UInt8]](repeating: [UInt8](repeating: 0xEE, count: count + 1), count: 5)
    }

    @Test("an all-zero row takes None, bytes unchanged")
    func zeroRowTakesNone() {
        var candidates = Self.candidates(8)
        let best = PNGEncoding.chooseFilter([UInt8](repeating: 0, count: 8), [UInt8](1...8), stride: 4, into: &candidates)
        #expect(best == 0)
        #expect(candidates[0] == [0] + [UInt8](repeating: 0, count: 8))
    }

    @Test("a row equal to the row above takes Up: all zeros after the filter byte")
    func repeatedRowTakesUp() {
        var candidates = Self.candidates(8)
        let row: [UInt8] = [200, 3, 0, 255, 17, 17, 17, 17]
        let best = PNGEncoding.chooseFilter(row, row, stride: 4, into: &candidates)
        #expect(best == 2)
        #expect(candidates[2] == [2] + [UInt8](repeating: 0, count: 8))
    }

    @Test("other rows compare all five: a ramp takes Sub")
    func rampTakesSub() {
        var candidates = Self.candidates(8)
        let best = PNGEncoding.chooseFilter([10, 20, 30, 40, 50, 60, 70, 80], [UInt8](repeating: 90, count: 8), stride: 1, into: &candidates)
        #expect(best == 1)
        #expect(candidates[1] == [1, 10, 10, 10, 10, 10, 10, 10, 10])
    }
}
