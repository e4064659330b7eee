/// A command line split into positional arguments and options by ``ArgumentParser``.
struct ParsedArguments: Sendable {
    /// The arguments that are not options, in order.
    var positionals: [String] = []
    /// The flags given (options without a value), by their long name (`--json`).
    var flags: Set<String> = []
    /// The values of options that take one, by long name, in the order given.
    var values: [String: [String]] = [:]

    /// Whether `flag` was given.
    func has(_ flag: String) -> Bool {
        flags.contains(flag)
    }

    /// The value of a single-valued option, or `nil` when it was not given.
    func value(_ option: String) -> String? {
        values[option]?.last
    }

    /// Every value of a repeatable option, in order.
    func allValues(_ option: String) -> [String] {
        values[option] ?? []
    }
}
