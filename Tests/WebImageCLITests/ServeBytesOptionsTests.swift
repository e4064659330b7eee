import Testing
@testable import WebImageCLIKit
import WebImageServer

/// `webimage serve --progressive-jpeg auto|on|off` and `--smart centre|attention` (issue 34).
@Suite struct ServeBytesOptionsTests {
    func options(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeOptions {
        let parser = ArgumentParser(command: "serve", flags: ServeOptions.flags, options: ServeOptions.valueOptions, repeatable: ServeOptions.repeatable)
        let merged = try ServeEnvironment.merge(try parser.parse(arguments), environment: environment, command: "serve")
        return try ServeOptions(merged, command: "serve")
    }

    @Test func theDefaults() throws {
        let options = try options(["--allow-unsigned"])
        #expect(options.server.progressiveJPEG == .automatic)
        #expect(options.server.smartCrop == .centre)
    }

    @Test(arguments: [("auto", ProgressiveJPEGMode.automatic), ("on", .on), ("off", .off), ("ON", .on)])
    func progressiveJPEG(_ value: String, _ mode: ProgressiveJPEGMode) throws {
        #expect(try options(["--allow-unsigned", "--progressive-jpeg", value]).server.progressiveJPEG == mode)
    }

    @Test(arguments: [("centre", SmartCropMode.centre), ("center", .centre), ("attention", .attention)])
    func smart(_ value: String, _ mode: SmartCropMode) throws {
        #expect(try options(["--allow-unsigned", "--smart", value]).server.smartCrop == mode)
    }

    @Test func fromTheEnvironment() throws {
        let options = try options(["--allow-unsigned"], environment: ["WEBIMAGE_SERVE_PROGRESSIVE_JPEG": "on", "WEBIMAGE_SERVE_SMART": "attention"])
        #expect(options.server.progressiveJPEG == .on)
        #expect(options.server.smartCrop == .attention)
    }

    @Test(arguments: [(["--progressive-jpeg", "yes"], "--progressive-jpeg needs auto, on or off, not 'yes'"),
                      (["--smart", "faces"], "--smart needs centre or attention, not 'faces'")])
    func badValuesAreUsageErrors(_ arguments: [String], _ message: String) {
        do {
            _ = try options(["--allow-unsigned"] + arguments)
            Issue.record("\(arguments) was accepted")
        } catch let error as CLIError {
            #expect(error.kind == .usage)
            #expect(error.message.contains(message), "\(error.message)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func theHelpNamesThem() {
        #expect(ServeCommand.help.contains("--progressive-jpeg MODE"))
        #expect(ServeCommand.help.contains("--smart MODE"))
    }
}
