/// glibc's `random()` and `srandom()` (the default additive feedback generator, `TYPE_3`:
/// 31 words of state, separation 3), which thumbor's `noise` filter draws from, so that
/// `noise(amount,seed)` gives thumbor's own pixels.
///
/// A value: copying it copies the state, and the copy draws the same numbers.
struct ThumborRandom: Sendable {
    private var state: [Int32]
    private var front = 3
    private var rear = 0

    /// The generator `srandom(seed)` sets (a seed of 0 is 1, as glibc's).
    init(seed: UInt32) {
        let seed = seed == 0 ? 1 : seed
        var state = [Int32](repeating: 0, count: 31)
        state[0] = Int32(bitPattern: seed)
        // Park and Miller's minimal standard generator, with Schrage's method.
        var word = Int64(seed)
        for index in 1..<31 {
            let high = word / 127_773
            let low = word % 127_773
            word = 16_807 * low - 2_836 * high
            if word < 0 { word += 2_147_483_647 }
            state[index] = Int32(truncatingIfNeeded: word)
        }
        self.state = state
        discard(310)
    }

    /// The next number, 0 to 2^31 - 1.
    mutating func next() -> Int {
        let sum = UInt32(bitPattern: state[front]) &+ UInt32(bitPattern: state[rear])
        state[front] = Int32(bitPattern: sum)
        front += 1
        if front == 31 {
            front = 0
            rear += 1
        } else {
            rear += 1
            if rear == 31 { rear = 0 }
        }
        return Int(sum >> 1)
    }

    /// Draws `count` numbers and forgets them.
    mutating func discard(_ count: Int) {
        for _ in 0..<max(0, count) { _ = next() }
    }
}
