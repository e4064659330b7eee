import Foundation

/// The environment-variable equivalents of `webimage serve`'s options.
///
/// Each option `--some-name` has the variable `WEBIMAGE_SERVE_SOME_NAME`:
/// - an option with a value takes the variable's value (a repeatable one, such as
///   `--allow-source-host`, takes a comma-separated list);
/// - a flag is on for `1`, `true`, `yes` or `on` and off for `0`, `false`, `no`, `off` or an empty
///   value (case-insensitive); anything else is a usage error naming the variable.
///
/// The command line wins: a variable is read only for an option the command line does not give,
/// and for none of an exclusive group (`--key`/`--key-file`, `--cache-dir`/`--no-cache`) when
/// the command line gives one of its members.
enum ServeEnvironment {
    /// The prefix of every variable.
    static let prefix = "WEBIMAGE_SERVE_"

    /// The variable of `option`: `--max-age` is `WEBIMAGE_SERVE_MAX_AGE`.
    static func variable(for option: String) -> String {
        prefix + option.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// `arguments` with the options the command line leaves out taken from `environment`.
    /// - Throws: ``CLIError`` (usage) for a flag variable that is neither on nor off.
    static func merge(_ arguments: ParsedArguments, environment: [String: String], command: String) throws(CLIError) -> ParsedArguments {
        var merged = arguments
        let onCommandLine: (String) -> Bool = { arguments.has($0) || arguments.values[$0] != nil }
        let skipped = Set(ServeOptions.exclusiveGroups.filter { $0.contains(where: onCommandLine) }.flatMap { $0 })
        for flag in ServeOptions.flags.sorted() where !onCommandLine(flag) && !skipped.contains(flag) {
            let name = variable(for: flag)
            guard let value = environment[name] else { continue }
            switch value.trimmingCharacters(in: .whitespaces).lowercased() {
            case "1", "true", "yes", "on": merged.flags.insert(flag)
            case "0", "false", "no", "off", "": break
            default: throw .usage("\(command): \(name) must be 1, true, yes or on (or 0, false, no, off), not '\(value)'")
            }
        }
        for option in ServeOptions.valueOptions.sorted() where !onCommandLine(option) && !skipped.contains(option) {
            guard let value = environment[variable(for: option)] else { continue }
            if ServeOptions.repeatable.contains(option) {
                let values = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                if !values.isEmpty { merged.values[option] = values }
            } else {
                merged.values[option] = [value]
            }
        }
        return merged
    }
}
