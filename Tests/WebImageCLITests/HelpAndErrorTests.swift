import Foundation
import Testing

/// Help, version, and the top-level errors.
@Suite struct HelpAndErrorTests {
    let workspace = Workspace()

    @Test(arguments: [[String](), ["help"], ["--help"], ["-h"]])
    func overviewListsEveryCommand(_ arguments: [String]) async throws {
        let result = try await CLIRunner.run(arguments, home: workspace.home)
        #expect(result.status == 0)
        for command in ["info", "convert", "fetch", "cache", "prefetch", "demo"] {
            #expect(result.stdout.contains("\n  \(command) "), "\(command)")
        }
    }

    @Test(arguments: ["info", "convert", "fetch", "cache", "prefetch", "demo"])
    func everyCommandHasHelp(_ command: String) async throws {
        let viaHelp = try await CLIRunner.run(["help", command], home: workspace.home)
        let viaFlag = try await CLIRunner.run([command, "--help"], home: workspace.home)
        #expect(viaHelp.status == 0 && viaFlag.status == 0)
        #expect(viaHelp.stdout == viaFlag.stdout)
        #expect(viaHelp.stdout.hasPrefix("USAGE: webimage \(command)"))
    }

    @Test func convertHelpDocumentsTheTransformGrammar() async throws {
        let result = try await CLIRunner.run(["help", "convert"], home: workspace.home)
        for line in ["resize=WxH[:MODE][:FILTER]", "crop=X,Y,W,H[:strict]", "flip=h|v|hv", "rotate=DEGREES[:nofit]", "round=RADIUS", "blur=RADIUS", "tint=#RRGGBB[AA][:MODE]", "grayscale | sepia | invert", "brightness=A", "contrast=F", "saturation=S"] {
            #expect(result.stdout.contains(line), "\(line)")
        }
    }

    @Test func version() async throws {
        let result = try await CLIRunner.run(["version"], home: workspace.home)
        #expect(result.status == 0)
        #expect(result.lines.count == 1)
        #expect(result.lines.first?.split(separator: ".").count == 3)
    }

    @Test func unknownCommandsAreOneLineUsageErrors() async throws {
        let result = try await CLIRunner.run(["resize", "a.png"], home: workspace.home)
        #expect(result.status == 64)
        #expect(result.errorLines == ["webimage: unknown command 'resize'; commands: info, convert, fetch, cache, prefetch, serve, demo (see 'webimage help')"])
        let help = try await CLIRunner.run(["help", "resize"], home: workspace.home)
        #expect(help.status == 64)
        #expect(help.errorLines.count == 1)
    }
}
