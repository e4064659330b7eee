/// A `webimage` command: its name, its help, and what it does.
///
/// Commands throw ``CLIError`` for usage mistakes and for failures that stop them; the entry
/// point prints the message on one line of standard error and exits with its status. A command
/// that goes through several inputs reports each failure itself, goes on, and returns
/// ``ExitStatus/failure`` at the end.
protocol Command: Sendable {
    /// The word that selects the command (`info`).
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// The full help: usage, options, examples.
    static var help: String { get }
    /// A command writing to `console`.
    init(console: Console)
    /// Runs the command with the words after its name.
    /// - Returns: The exit status.
    func run(_ arguments: [String]) async throws -> Int32
}
