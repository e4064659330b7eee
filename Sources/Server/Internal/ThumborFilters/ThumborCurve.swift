import Foundation

/// The tone curve of thumbor's `curve(...)` filter (`thumbor/ext/filters/_curve.c`): a
/// natural cubic spline through the points, in double precision and thumbor's order, as a
/// table of 256 levels.
///
/// thumbor's rules are kept: levels before the first point take the first point's output,
/// levels from the last point's input on take the last point's output; a segment whose input
/// does not increase draws nothing; two points with the same input make the spline's
/// derivatives NaN, and NaN levels are 0 (thumbor's C code converts NaN to `unsigned char`,
/// which its build answers with 0). An empty curve gives 0 for every level, as thumbor
/// answered (its C code reads memory it never wrote).
enum ThumborCurve {
    /// The 256 output levels of the curve through `points`.
    static func table(_ points: [ThumborFilter.CurvePoint]) -> [UInt8] {
        guard let first = points.first, let last = points.last else { return [UInt8](repeating: 0, count: 256) }
        let second = secondDerivatives(points)
        var table = [UInt8](repeating: first.y, count: 256)
        for index in 0..<(points.count - 1) {
            let current = points[index], next = points[index + 1]
            guard current.x < next.x else { continue }
            let span = Double(Int(next.x) - Int(current.x))
            for x in Int(current.x)..<Int(next.x) {
                let t = Double(x - Int(current.x)) / span
                let a = 1 - t, b = t
                let y = a * Double(current.y) + b * Double(next.y)
                    + (span * span / 6) * ((a * a * a - a) * second[index] + (b * b * b - b) * second[index + 1])
                let rounded = y.rounded(.toNearestOrAwayFromZero)
                let limited = rounded > 255 ? 255 : (rounded < 0 ? 0 : rounded)
                table[x] = ThumborCArithmetic.byte(truncating: limited)
            }
        }
        for level in Int(last.x)..<256 { table[level] = last.y }
        return table
    }

    /// thumbor's `calculate_second_derivative`: the spline's second derivatives at the points
    /// (0 at both ends), by its tridiagonal elimination.
    static func secondDerivatives(_ points: [ThumborFilter.CurvePoint]) -> [Double] {
        let count = points.count
        let x = points.map { Double($0.x) }, y = points.map { Double($0.y) }
        // Row i of the tridiagonal matrix: sub, diagonal, super.
        var sub = [Double](repeating: 0, count: count)
        var diagonal = [Double](repeating: 0, count: count)
        var sup = [Double](repeating: 0, count: count)
        var result = [Double](repeating: 0, count: count)
        diagonal[0] = 1
        if count > 2 {
            for i in 1..<(count - 1) {
                sub[i] = (x[i] - x[i - 1]) / 6
                diagonal[i] = (x[i + 1] - x[i - 1]) / 3
                sup[i] = (x[i + 1] - x[i]) / 6
                result[i] = (y[i + 1] - y[i]) / (x[i + 1] - x[i]) - (y[i] - y[i - 1]) / (x[i] - x[i - 1])
            }
        }
        diagonal[count - 1] = 1
        if count > 1 {
            for i in 1..<count {
                let k = sub[i] / diagonal[i - 1]
                diagonal[i] -= k * sup[i - 1]
                sub[i] = 0
                result[i] -= k * result[i - 1]
            }
        }
        for i in stride(from: count - 2, through: 0, by: -1) {
            let k = sup[i] / diagonal[i + 1]
            diagonal[i] -= k * sub[i + 1]
            sup[i] = 0
            result[i] -= k * result[i + 1]
        }
        return (0..<count).map { result[$0] / diagonal[$0] }
    }
}
