/// Splits a command's arguments into positionals, flags and option values. (The root package
/// has no dependencies, so no argument-parser package: this is the small subset we need.)
///
/// - `--name value` and `--name=value` both give an option its value; a value may start with a
///   dash (`--transform rotate=-90`).
/// - `-h` and `--help` are always flags.
/// - Short aliases map to long names (`-o` to `--output`).
/// - `--` ends the options: everything after it is positional.
/// - A lone `-` is positional; any other argument starting with `-` must be a known option.
/// - An option that is not ``repeatable`` may be given once.
struct ArgumentParser: Sendable {
    /// The command's name, for messages.
    let command: String
    /// Options that take no value.
    let flags: Set<String>
    /// Options that take a value.
    let options: Set<String>
    /// Options that may be given several times (their values are kept in order).
    let repeatable: Set<String>
    /// Short aliases: `-o` -> `--output`.
    let aliases: [String: String]

    init(command: String, flags: Set<String> = [], options: Set<String> = [], repeatable: Set<String> = [], aliases: [String: String] = [:]) {
        self.command = command
        self.flags = flags.union(["--help"])
        self.options = options
        self.repeatable = repeatable
        self.aliases = aliases.merging(["-h": "--help"]) { mine, _ in mine }
    }

    /// Parses `arguments` (the words after the command's name).
    /// - Throws: ``CLIError`` (usage) naming the unknown option, the option without a value, or
    ///   the option given twice.
    func parse(_ arguments: [String]) throws(CLIError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            name = aliases[name] ?? name
            if flags.contains(name) {
                if inlineValue != nil {
                    throw .usage("\(command): option \(name) takes no value")
                }
                result.flags.insert(name)
            } else if options.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw .usage("\(command): option \(name) needs a value")
                    }
                    value = arguments[index]
                    index += 1
                }
                if result.values[name] != nil, !repeatable.contains(name) {
                    throw .usage("\(command): option \(name) is given more than once")
                }
                result.values[name, default: []].append(value)
            } else {
                throw .usage("\(command): unknown option \(name)")
            }
        }
        return result
    }
}
