/// The conversions of thumbor's C filters (`thumbor/ext/filters/*.c`) as its x86-64 build
/// performs them, so that results match to the bit, out-of-range and NaN values included
/// (which C leaves undefined and SSE's `cvttsd2si` answers with `INT_MIN`).
enum ThumborCArithmetic {
    /// C's `(int)value`: truncated towards zero; NaN and values outside `int` give `INT_MIN`.
    static func int32(truncating value: Double) -> Int32 {
        guard value.isFinite, value > -2_147_483_649, value < 2_147_483_648 else { return .min }
        return Int32(value.rounded(.towardZero))
    }

    /// C's `(unsigned char)value` for a `float` or `double`: through `int` as above, low byte
    /// (so NaN gives 0).
    static func byte(truncating value: Double) -> UInt8 {
        UInt8(truncatingIfNeeded: int32(truncating: value))
    }

    /// thumbor's `ADJUST_COLOR` on an integer: clamped to 0...255.
    static func clamp(_ value: Int) -> UInt8 {
        UInt8(min(255, max(0, value)))
    }
}
