import Foundation

/// The PNG encoder's per-row filter choice, vectorised with SIMD types: every filter of the
/// encoder depends only on the raw row and the raw row above it, so all five are computed 16
/// bytes at a time (Paeth's predictor on 16-bit lanes), their costs summed without storing
/// them, and only the chosen one is written.
///
/// Cost of a filtered row: the sum of its bytes read as signed magnitudes (`min(v, 256 - v)`),
/// the heuristic of libpng and Pillow; ties go to the lower filter type. The choice is the same
/// as computing all five rows and comparing (``PNGEncoding/chooseFilter(_:_:stride:into:)``).
///
/// Rows are passed as pointers to their first byte with at least `stride` readable bytes
/// before it (zeros: PNG's "left of the first pixel"), in both the row and the row above.
enum PNGFilterChooser {
    /// Whether the SIMD loops run by default: in optimized builds; in a debug build the scalar
    /// loops (see ``PNGUnfilter/vectorisedByDefault``; the tests run both kinds in every build).
    static let vectorisedByDefault = PNGUnfilter.vectorisedByDefault

    /// Filter costs, index = filter type.
    typealias Costs = (Int, Int, Int, Int, Int)

    /// The filter type with the smallest cost for `row` over `previous` (`count` bytes each).
    /// A row equal to the one above takes Up (all zeros), or None when it is all zeros (the tie
    /// goes to the lower type), without computing the costs: what comparing them would give.
    static func choose(row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>, count: Int, stride: Int, vectorised: Bool = vectorisedByDefault) -> Int {
        if memcmp(row, previous, count) == 0 {
            return (0..<count).allSatisfy { row[$0] == 0 } ? 0 : 2
        }
        let costs = self.costs(row: row, previous: previous, count: count, stride: stride, vectorised: vectorised)
        var best = (type: 0, cost: costs.0)
        for (type, cost) in [(1, costs.1), (2, costs.2), (3, costs.3), (4, costs.4)] where cost < best.cost { best = (type, cost) }
        return best.type
    }

    /// The cost of each filter on `row` over `previous` (`count` bytes each).
    static func costs(row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>, count: Int, stride: Int, vectorised: Bool = vectorisedByDefault) -> Costs {
        var none = SIMD16<UInt16>(), sub = SIMD16<UInt16>(), up = SIMD16<UInt16>(), average = SIMD16<UInt16>(), paeth = SIMD16<UInt16>()
        var totals = (0, 0, 0, 0, 0)
        var index = 0
        var chunks = 0
        while vectorised && index + 16 <= count {
            let r = load(row, index)
            let a = load(row, index - stride)
            let b = load(previous, index)
            let c = load(previous, index - stride)
            none &+= cost(r)
            sub &+= cost(r &- a)
            up &+= cost(r &- b)
            average &+= cost(r &- mean(a, b))
            paeth &+= cost(r &- predictor(a, b, c))
            index += 16
            chunks += 1
            if chunks == 256 {  // 256 x 128 still fits a 16-bit lane
                totals = add(totals, none, sub, up, average, paeth)
                (none, sub, up, average, paeth) = (.zero, .zero, .zero, .zero, .zero)
                chunks = 0
            }
        }
        totals = add(totals, none, sub, up, average, paeth)
        while index < count {
            let r = row[index], a = row[index - stride], b = previous[index], c = previous[index - stride]
            totals.0 += scalarCost(r)
            totals.1 += scalarCost(r &- a)
            totals.2 += scalarCost(r &- b)
            totals.3 += scalarCost(r &- UInt8((UInt16(a) + UInt16(b)) >> 1))
            totals.4 += scalarCost(r &- scalarPredictor(a, b, c))
            index += 1
        }
        return totals
    }

    /// Writes `row` under filter `type` to `target` (`count` bytes, without the type byte).
    static func apply(
        _ type: Int, row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>, count: Int, stride: Int,
        into target: UnsafeMutablePointer<UInt8>, vectorised: Bool = vectorisedByDefault
    ) {
        var index = 0
        while vectorised && index + 16 <= count {
            let r = load(row, index)
            let value: SIMD16<UInt8>
            switch type {
            case 0: value = r
            case 1: value = r &- load(row, index - stride)
            case 2: value = r &- load(previous, index)
            case 3: value = r &- mean(load(row, index - stride), load(previous, index))
            default: value = r &- predictor(load(row, index - stride), load(previous, index), load(previous, index - stride))
            }
            UnsafeMutableRawPointer(target + index).storeBytes(of: value, as: SIMD16<UInt8>.self)
            index += 16
        }
        while index < count {
            let r = row[index], a = row[index - stride], b = previous[index], c = previous[index - stride]
            switch type {
            case 0: target[index] = r
            case 1: target[index] = r &- a
            case 2: target[index] = r &- b
            case 3: target[index] = r &- UInt8((UInt16(a) + UInt16(b)) >> 1)
            default: target[index] = r &- scalarPredictor(a, b, c)
            }
            index += 1
        }
    }

    @inline(__always)
    private static func load(_ pointer: UnsafePointer<UInt8>, _ index: Int) -> SIMD16<UInt8> {
        UnsafeRawPointer(pointer + index).loadUnaligned(as: SIMD16<UInt8>.self)
    }

    /// `min(v, 256 - v)` per byte (the magnitude of `v` read as signed), widened for summing.
    /// Shifts and logic only: SIMD comparisons and `replacing(with:where:)` compile to a loop
    /// over the lanes, these to vector instructions.
    @inline(__always)
    private static func cost(_ value: SIMD16<UInt8>) -> SIMD16<UInt16> {
        let sign = 0 &- (value &>> 7)  // 255 where the byte is negative as Int8, else 0
        return SIMD16<UInt16>(truncatingIfNeeded: (value ^ sign) &- sign)
    }

    @inline(__always)
    private static func scalarCost(_ value: UInt8) -> Int {
        value < 128 ? Int(value) : 256 - Int(value)
    }

    /// floor((a + b) / 2) without a ninth bit.
    @inline(__always)
    private static func mean(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>) -> SIMD16<UInt8> {
        (a & b) &+ ((a ^ b) &>> 1)
    }

    /// Paeth's predictor on 16-bit lanes: a when |b - c| is smallest, then b, then c.
    @inline(__always)
    private static func predictor(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>, _ c: SIMD16<UInt8>) -> SIMD16<UInt8> {
        let wideA = SIMD16<Int16>(truncatingIfNeeded: a), wideB = SIMD16<Int16>(truncatingIfNeeded: b), wideC = SIMD16<Int16>(truncatingIfNeeded: c)
        let bMinusC = wideB &- wideC, aMinusC = wideA &- wideC
        let distanceA = magnitude(bMinusC), distanceB = magnitude(aMinusC), distanceC = magnitude(bMinusC &+ aMinusC)
        let takeB = atMost(distanceB, distanceC)
        let takeA = atMost(distanceA, distanceB) & atMost(distanceA, distanceC)
        let bOrC = (wideB & takeB) | (wideC & ~takeB)
        return SIMD16<UInt8>(truncatingIfNeeded: (wideA & takeA) | (bOrC & ~takeA))
    }

    /// All ones in the lanes where `x <= y`, else zero (|x|, |y| < 2^14).
    @inline(__always)
    private static func atMost(_ x: SIMD16<Int16>, _ y: SIMD16<Int16>) -> SIMD16<Int16> {
        ~((y &- x) &>> 15)
    }

    @inline(__always)
    private static func magnitude(_ value: SIMD16<Int16>) -> SIMD16<Int16> {
        let sign = value &>> 15
        return (value ^ sign) &- sign
    }

    @inline(__always)
    private static func scalarPredictor(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let a = Int(a), b = Int(b), c = Int(c)
        let p = b - c, q = a - c
        let pa = abs(p), pb = abs(q), pc = abs(p + q)
        return UInt8(truncatingIfNeeded: (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c))
    }

    @inline(__always)
    private static func add(
        _ totals: Costs, _ none: SIMD16<UInt16>, _ sub: SIMD16<UInt16>, _ up: SIMD16<UInt16>, _ average: SIMD16<UInt16>, _ paeth: SIMD16<UInt16>
    ) -> Costs {
        func sum(_ lanes: SIMD16<UInt16>) -> Int { Int(SIMD16<UInt32>(truncatingIfNeeded: lanes).wrappedSum()) }
        return (totals.0 + sum(none), totals.1 + sum(sub), totals.2 + sum(up), totals.3 + sum(average), totals.4 + sum(paeth))
    }
}
