/// A command's failure, with the exit status it maps to. Commands throw it for everything a
/// user can get wrong or run into; the entry point prints its ``message`` on one line of
/// standard error (never a stack trace) and exits with ``exitStatus``.
struct CLIError: Error, CustomStringConvertible {
    /// What kind of failure: a mistake in the command line, or a failure while doing the work.
    enum Kind: Sendable {
        /// The command line is wrong (unknown option, missing argument, bad transform spec):
        /// exit status 64 (`EX_USAGE`) and a hint to `webimage help <command>`.
        case usage
        /// The work failed (unreadable input, undecodable data, unwritable output): exit status 1.
        case failure
    }

    /// The kind of failure.
    let kind: Kind
    /// One line: what was wrong, naming the input.
    let message: String

    /// A command-line mistake.
    static func usage(_ message: String) -> CLIError {
        CLIError(kind: .usage, message: message)
    }

    /// A failure while doing the work.
    static func failure(_ message: String) -> CLIError {
        CLIError(kind: .failure, message: message)
    }

    /// 64 for a usage mistake, 1 for a failure.
    var exitStatus: Int32 {
        kind == .usage ? ExitStatus.usage : ExitStatus.failure
    }

    var description: String { message }
}
