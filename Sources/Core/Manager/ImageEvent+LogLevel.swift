extension ImageEvent {
    /// How much a ``Kind/log(level:source:message:)`` event matters.
    public enum LogLevel: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
        /// Detail for tracing a request.
        case debug
        /// Something worth knowing that is not a problem.
        case info
        /// Something odd that the part handled (a corrupt entry removed, a retry).
        case warning
        /// Something failed (the request may still succeed: a cache failure is a miss).
        case error

        /// Orders levels from `debug` (lowest) to `error` (highest).
        public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }

        /// The level's name, its raw value: `"debug"`, `"info"`, `"warning"` or `"error"`.
        public var description: String { rawValue }
    }
}
