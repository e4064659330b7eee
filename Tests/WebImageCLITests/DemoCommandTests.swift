import Foundation
import Testing
import WebImageTestSupport
import SwiftWebImage
@testable import WebImageCLIKit

/// `webimage demo`: no setup, no internet; it leaves every result and the contact sheet.
@Suite(.onOwnThreads) struct DemoCommandTests {
    let workspace = Workspace()

    @Test func runsEndToEndAndLeavesTheContactSheet() async throws {
        // Five built-in samples and one per plug-in coder (WebP, ...).
        let samples = try DemoSamples.make()
        #expect(samples.count == 5 + PluginCoders.all.count)
        #expect(samples.contains { $0.name.hasSuffix(".webp") })
        let rowCount = 3 * samples.count + 6 + 1
        let result = try await CLIRunner.run(["demo", "--output", "demo-out"], home: workspace.home, in: workspace.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let table = result.lines.filter { $0.range(of: #"^ *[0-9]+  "#, options: .regularExpression) != nil }
        #expect(table.count == rowCount)
        // The tests run a debug `webimage`: its times must not be read as the library's (issue 36).
        #expect(result.lines.contains { $0.contains("times from a debug build") && $0.contains("swift run -c release webimage demo") })
        func rows(_ step: String) -> [String] { table.filter { $0.range(of: "^ *[0-9]+  \(step) ", options: .regularExpression) != nil } }
        #expect(rows("network").count == samples.count && rows("network").allSatisfy { $0.contains(" network ") })
        #expect(rows("memory").count == samples.count && rows("memory").allSatisfy { $0.contains(" memory ") && $0.contains("same pixels as #") })
        #expect(rows("disk").count == samples.count && rows("disk").allSatisfy { $0.contains(" disk ") && $0.contains("same pixels as #") })
        for step in ["network", "memory", "disk"] {
            #expect(rows(step).contains { $0.contains("badge.webp") }, "a WebP row in \(step)")
        }
        let context = rows("context")
        #expect(context.count == 6)
        #expect(context.allSatisfy { $0.contains("made from the cached original, no download") }, "thumbnails too")
        #expect(context.filter { $0.contains(" network ") }.isEmpty)
        #expect(rows("coalesce").first?.hasSuffix("6 concurrent requests, 1 download") == true)
        #expect(result.stdout.contains("Plug-in coders registered at launch: \(PluginCoders.names.joined(separator: ", "))"))
        #expect(result.stdout.contains("Custom coder registered at launch: RunLengthImageCoder"))
        let order = ["RunLengthImageCoder"] + PluginCoders.names.reversed() + ["JPEGCoder", "PNGCoder", "GIFCoder", "BMPCoder"]
        #expect(result.stdout.contains("coders in the order asked: \(order.joined(separator: ", "))"))
        #expect(result.stdout.contains("decoded 2 WIRL images"))
        #expect(result.stdout.contains("\(samples.count + 1) HTTP requests to the loopback server"))
        #expect(!result.stdout.contains("\u{1B}"), "no progress bar without a terminal")

        let files = workspace.contents(of: "demo-out")
        #expect(files.count == rowCount + 1)
        #expect(files.contains("contact-sheet.png"))
        #expect(files.contains("05-network-pattern.wirl"))
        #expect(files.contains("06-network-badge.webp"))
        #expect(files.contains("\(3 * samples.count + 1)-context-photo.jpg"))
        let sheet = try PNGCoder().decode(try Data(contentsOf: URL(fileURLWithPath: workspace.path("demo-out/contact-sheet.png"))))
        #expect(sheet.pixelSize == ContactSheet().size(for: rowCount))
        // The demo's fresh cache directory is gone.
        let cacheLine = try #require(result.lines.first { $0.hasPrefix("Fresh cache (memory + disk): ") })
        let cacheDirectory = String(cacheLine.dropFirst("Fresh cache (memory + disk): ".count))
        #expect(!FileManager.default.fileExists(atPath: cacheDirectory))
    }

    @Test func showsAProgressBarOnATerminal() async throws {
        let result = try await CLIRunner.runInTerminal(["demo", "--output", "demo-tty"], home: workspace.home, in: workspace.url)
        #expect(result.status == 0, "\(result.stderr)")
        let count = try DemoSamples.make().count
        #expect(result.stdout.contains("\r[--------------------] 0/\(count) images"))
        #expect(result.stdout.contains("] \(count)/\(count) images  "))
        #expect(!result.stdout.contains("   downloaded "), "plain progress lines only without a terminal")
    }

    @Test func anUnusableOutputFolderIsOneLineAndAFailingStatus() async throws {
        let file = try workspace.write(Data("a file".utf8), to: "taken")
        let result = try await CLIRunner.run(["demo", "--output", "taken"], home: workspace.home, in: workspace.url)
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("webimage demo: cannot create the output directory \(file): ") == true, "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
    }

    @Test func rejectsArguments() async throws {
        let result = try await CLIRunner.run(["demo", "extra"], home: workspace.home, in: workspace.url)
        #expect(result.status == 64)
        #expect(result.errorLines == ["webimage demo: takes no arguments (got 'extra') (see 'webimage help demo')"])
    }
}
