extension ThumborFilter {
    /// A point `(x,y)` of a `curve(...)` filter's tone curve: input level `x` gives output level
    /// `y`. thumbor's arithmetic keeps each coordinate's low 8 bits (`(300,0)` is `(44,0)`).
    public struct CurvePoint: Hashable, Sendable {
        /// The input level.
        public var x: UInt8
        /// The output level.
        public var y: UInt8

        /// The point `(x, y)`.
        public init(x: UInt8, y: UInt8) {
            self.x = x
            self.y = y
        }
    }
}
