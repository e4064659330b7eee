/// The exit statuses of `webimage`.
enum ExitStatus {
    /// Everything worked.
    static let success: Int32 = 0
    /// At least one input failed (the others were still processed).
    static let failure: Int32 = 1
    /// The command line is wrong (`EX_USAGE` from `sysexits.h`).
    static let usage: Int32 = 64
}
