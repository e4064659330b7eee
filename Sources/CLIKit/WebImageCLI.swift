import Foundation
import SwiftWebImage

/// The `webimage` command-line tool: `info`, `convert`, `fetch`, `cache`, `prefetch`, `serve`, `demo`.
///
/// The executable target is one line over ``run(_:)``; the tests call the commands' parsers in
/// process and run the built executable as a subprocess.
///
/// Exit statuses: 0 success, 1 when an input failed, 64 for a command-line mistake. Every
/// message for the user is one line on standard error, `webimage <command>: <what went wrong>`;
/// no user mistake ends in a crash or a stack trace.
package enum WebImageCLI {
    /// The commands, in the order `help` lists them.
    static let commands: [any Command.Type] = [
        InfoCommand.self, ConvertCommand.self, FetchCommand.self, CacheCommand.self,
        PrefetchCommand.self, ServeCommand.self, DemoCommand.self,
    ]

    /// The overview `webimage help` prints.
    static var overview: String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let list = commands.map { "  \($0.name.rightPadded(to: width + 2))\($0.summary)" }.joined(separator: "\n")
        return """
            webimage \(SwiftWebImageInfo.version): image loading for Swift on Linux, from the command line

            USAGE: webimage <command> [arguments] [options]

            COMMANDS:
            \(list)
              help <command>  Show a command's help (also: webimage <command> --help)
              version         Print the version

            Start with 'webimage demo': no setup, no internet, under a minute.
            Exit status: 0 success, 1 an input failed, 64 a command-line mistake.
            """
    }

    /// Registers what `webimage` adds to the framework at launch, once per process: the plug-in
    /// coders (``PluginCoders``, WebP and others), then the WIRL format and its
    /// ``RunLengthImageCoder``, all in ``CodersManager/shared`` (asked before every built-in
    /// coder; the WIRL coder first).
    package static func registerLaunchComponents() {
        _ = launchRegistration
    }

    private static let launchRegistration: Void = {
        for plugin in PluginCoders.all {
            CodersManager.shared.add(plugin.coder)
        }
        ImageFormat.register(RunLengthImageCoder.formatDescriptor)
        CodersManager.shared.add(RunLengthImageCoder.shared)
    }()

    /// Runs `webimage` with `arguments` (the words after the program name), writing to the
    /// process's standard output and standard error.
    /// - Returns: The exit status.
    package static func run(_ arguments: [String]) async -> Int32 {
        registerLaunchComponents()
        let console = Console.standard
        guard let name = arguments.first else {
            console.printText(overview)
            return ExitStatus.success
        }
        let rest = Array(arguments.dropFirst())
        switch name {
        case "help", "-h", "--help":
            return help(rest, console: console)
        case "version", "--version":
            console.print(SwiftWebImageInfo.version)
            return ExitStatus.success
        default:
            break
        }
        guard let type = commands.first(where: { $0.name == name }) else {
            console.printError("webimage: unknown command '\(name)'; commands: \(commands.map { $0.name }.joined(separator: ", ")) (see 'webimage help')")
            return ExitStatus.usage
        }
        do {
            return try await type.init(console: console).run(rest)
        } catch let error as CLIError {
            // Commands name themselves in their messages; a helper's message gets the name here.
            let message = error.message.hasPrefix("\(name):") ? error.message : "\(name): \(error.message)"
            let hint = error.kind == .usage ? " (see 'webimage help \(name)')" : ""
            console.printError("webimage \(ErrorReport.oneLine(message))\(hint)")
            return error.exitStatus
        } catch {
            console.printError("webimage \(name): \(ErrorReport(error).message)")
            return ExitStatus.failure
        }
    }

    private static func help(_ arguments: [String], console: Console) -> Int32 {
        guard let topic = arguments.first else {
            console.printText(overview)
            return ExitStatus.success
        }
        guard let type = commands.first(where: { $0.name == topic }) else {
            console.printError("webimage help: unknown command '\(topic)'; commands: \(commands.map { $0.name }.joined(separator: ", "))")
            return ExitStatus.usage
        }
        console.printText(type.help)
        return ExitStatus.success
    }
}
