import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageCLIKit

/// Arguments with line breaks and other control characters are printed escaped by every
/// command, on standard output and standard error: an argument cannot forge a line, move the
/// cursor or clear the screen.
@Suite struct OutputEscapingTests {
    let workspace = Workspace()
    let jpeg: Data

    /// A name that would start a forged line (and clear it, and return the cursor) if printed raw.
    static let payload = "x\nFORGED line\u{1B}[2K\r\tend"
    /// How the payload shows once escaped.
    static let escaped = #"x\nFORGED line\u{1B}[2K\r\tend"#

    init() throws {
        WebImageCLI.registerLaunchComponents()
        jpeg = try Fixtures.jpeg()
    }

    /// Runs `webimage arguments...` in the workspace.
    func run(_ arguments: [String]) async throws -> CLIResult {
        try await CLIRunner.run(arguments, home: workspace.home, in: workspace.url)
    }

    /// Checks that nothing in `result` is a raw control character (line ends aside), that no
    /// line starts with the forged text, and that the payload shows escaped.
    func expectEscaped(_ result: CLIResult, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
        for (name, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
            let raw = text.unicodeScalars.filter { $0 != "\n" && $0.properties.generalCategory == .control }
            #expect(raw.isEmpty, "\(comment): raw control characters on \(name): \(raw.map { $0.value })", sourceLocation: sourceLocation)
        }
        let lines = result.lines + result.errorLines
        #expect(!lines.contains { $0.hasPrefix("FORGED") }, "\(comment): a forged line: \(lines)", sourceLocation: sourceLocation)
        #expect((result.stdout + result.stderr).contains(Self.escaped), "\(comment): the payload does not show escaped: \(lines)", sourceLocation: sourceLocation)
    }

    @Test func failingArgumentsAreEscapedOnStandardError() async throws {
        let missing = Self.payload + ".jpg"
        let cases: [(arguments: [String], label: String)] = [
            (["fetch", missing, "--output", "out", "--no-cache"], "fetch of a missing file"),
            (["fetch", "http://a b/" + Self.payload, "--no-cache"], "fetch of a bad URL"),
            (["info", missing], "info of a missing file"),
            (["convert", missing, "out.png"], "convert of a missing file"),
            (["prefetch", "http://a b/" + Self.payload, "--cache-dir", "cache"], "prefetch of a bad URL"),
            ([Self.payload], "an unknown command"),
            (["help", Self.payload], "help on an unknown command"),
            (["fetch", "--" + Self.payload], "an unknown option"),
            (["cache", Self.payload], "an unknown subcommand"),
        ]
        for (arguments, label) in cases {
            let result = try await run(arguments)
            #expect(result.status != 0, "\(label)")
            #expect(result.errorLines.count == 1, "\(label): \(result.errorLines)")
            expectEscaped(result, "\(label)")
        }
    }

    @Test func succeedingArgumentsAreEscapedOnStandardOutput() async throws {
        let input = Self.payload + ".jpg"
        try workspace.write(jpeg, to: input)
        let cases: [(arguments: [String], label: String, lineCount: Int)] = [
            (["fetch", input, "--output", "out", "--no-cache"], "fetch", 2),
            (["info", input], "info", 1),
            (["convert", input, "out.png"], "convert (input)", 1),
            (["convert", input, Self.payload + ".png"], "convert (output)", 1),
            (["cache", "stats", "--cache-dir", Self.payload], "cache stats", 4),
        ]
        for (arguments, label, lineCount) in cases {
            let result = try await run(arguments)
            #expect(result.status == 0, "\(label): \(result.stderr)")
            #expect(result.lines.count == lineCount, "\(label): \(result.lines)")
            expectEscaped(result, "\(label)")
        }
        // The file fetch wrote has a plain name.
        #expect(workspace.contents(of: "out").allSatisfy { name in !name.unicodeScalars.contains { $0.properties.generalCategory == .control } })
    }

    @Test(arguments: [
        ("plain text, ünïcödé and a \\ backslash", "plain text, ünïcödé and a \\ backslash"),
        ("a\nb\r\nc\td", #"a\nb\r\nc\td"#),
        ("\u{1B}[31mred\u{07}\u{7F}\u{85}\u{9B}", #"\u{1B}[31mred\u{7}\u{7F}\u{85}\u{9B}"#),
        ("one\u{2028}two\u{2029}", #"one\u{2028}two\u{2029}"#),
        ("abc\u{202E}fed\u{2066}x\u{2069}", #"abc\u{202E}fed\u{2066}x\u{2069}"#),
        ("", ""),
    ])
    func escapingControlCharacters(_ text: String, escaped: String) {
        #expect(text.escapingControlCharacters == escaped)
    }

    /// Help texts keep their lines; a line printed with `print` is one line whatever it holds.
    @Test func consoleLinesAreOneLineAndTextKeepsItsLines() throws {
        let output = Pipe()
        let errors = Pipe()
        let console = Console(output: output.fileHandleForWriting.fileDescriptor, errorOutput: errors.fileHandleForWriting.fileDescriptor, isTerminal: false)
        console.print("one\ntwo")
        console.printText("three\nfour\u{1B}")
        console.printError("five\rsix")
        try output.fileHandleForWriting.close()
        try errors.fileHandleForWriting.close()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)  // blocking: the writer is closed, it returns at once
        let printedErrors = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)  // blocking: the writer is closed, it returns at once
        #expect(printed == #"one\ntwo"# + "\nthree\n" + #"four\u{1B}"# + "\n")
        #expect(printedErrors == #"five\rsix"# + "\n")
    }

    /// `info --json` escapes inside the JSON string (one line, valid JSON).
    @Test func jsonOutputStaysOneLine() async throws {
        let result = try await run(["info", "--json", Self.payload + ".jpg"])
        #expect(result.status == 1)
        #expect(result.lines.count == 1, "\(result.lines)")
        let object = try JSONSerialization.jsonObject(with: Data(try #require(result.lines.first).utf8)) as? [String: Any]
        #expect(object?["source"] as? String == Self.payload + ".jpg")
    }
}
