import Testing
@testable import WebImageCLIKit

@Suite struct ArgumentParserTests {
    let parser = ArgumentParser(
        command: "fetch",
        flags: ["--no-cache", "--json"],
        options: ["--output", "--transform", "--frame"],
        repeatable: ["--transform"],
        aliases: ["-o": "--output"]
    )

    @Test func splitsPositionalsFlagsAndValues() throws {
        let parsed = try parser.parse(["a.png", "--json", "--output", "out", "b.png", "--transform=blur=2", "--transform", "rotate=-90", "--frame=3"])
        #expect(parsed.positionals == ["a.png", "b.png"])
        #expect(parsed.has("--json"))
        #expect(!parsed.has("--no-cache"))
        #expect(parsed.value("--output") == "out")
        #expect(parsed.allValues("--transform") == ["blur=2", "rotate=-90"], "in order; a value may start with a dash")
        #expect(parsed.value("--frame") == "3")
    }

    @Test func aliasesHelpAndDoubleDash() throws {
        let parsed = try parser.parse(["-o", "dir", "-h", "--", "--json", "-"])
        #expect(parsed.value("--output") == "dir")
        #expect(parsed.has("--help"))
        #expect(parsed.positionals == ["--json", "-"], "after -- everything is positional")
        #expect(!parsed.has("--json"))
    }

    @Test(arguments: [
        (["--bogus"], "fetch: unknown option --bogus"),
        (["-x"], "fetch: unknown option -x"),
        (["--output"], "fetch: option --output needs a value"),
        (["--json=yes"], "fetch: option --json takes no value"),
        (["--output", "a", "--output", "b"], "fetch: option --output is given more than once"),
    ])
    func rejects(_ arguments: [String], message: String) {
        do {
            _ = try parser.parse(arguments)
            Issue.record("\(arguments) was accepted")
        } catch {
            #expect(error.message == message)
            #expect(error.exitStatus == 64)
        }
    }
}
