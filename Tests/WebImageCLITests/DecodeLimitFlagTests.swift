import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport

/// `--max-pixels N` (frames x source pixels per image), `--max-frame-pixels N` (source pixels of
/// one frame) and `--max-frames N` of `info`, `convert` and `fetch`, run as subprocesses on a
/// 3-frame 12x10 GIF (120 pixels a frame, 360 in all).
@Suite(.onOwnThreads) struct DecodeLimitFlagTests {
    let workspace = Workspace()

    init() throws {
        try workspace.write(try Fixtures.gif(durations: [0.05, 0.1, 0.2], loopCount: 0), to: "anim.gif")
        // A GIF of 8 frames of 7000x7000 (each within the 50 MP frame limit, 1.6 GB of RGBA in
        // all) in a few dozen bytes.
        var bomb = Data("GIF89a".utf8) + [0x58, 0x1B, 0x58, 0x1B, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]
        for _ in 0..<8 { bomb += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4C, 0x01, 0] }
        bomb += [0x3B]
        try workspace.write(bomb, to: "bomb.gif")
    }

    func run(_ arguments: [String]) async throws -> CLIResult {
        try await CLIRunner.run(arguments, home: workspace.home, in: workspace.url)
    }

    /// `info` reads the headers: an image over the budget is described, with the refusal.
    @Test func infoDescribesAnImageOverTheBudgetAndSaysADecodeWouldBeRefused() async throws {
        let within = try await run(["info", "anim.gif", "--max-pixels", "360", "--max-frames", "3"])
        #expect(within.status == 0, "\(within.stderr)")
        #expect(!within.stdout.contains("refused"), "\(within.stdout)")
        let pixels = try await run(["info", "anim.gif", "--max-pixels", "359"])
        #expect(pixels.status == 0)
        #expect(pixels.stdout.hasPrefix("anim.gif: gif 12x10, 3 frames"), "\(pixels.stdout)")
        #expect(pixels.stdout.contains("; a decode would be refused: gif image of 3 frames of 12x10 (360 pixels in all) is over the limit of 359 pixels per image"), "\(pixels.stdout)")
        let frames = try await run(["info", "anim.gif", "--max-frames=2"])
        #expect(frames.status == 0)
        #expect(frames.stdout.contains("a decode would be refused: gif animation of 3 frames is over the limit of 2 frames"), "\(frames.stdout)")
    }

    @Test func theDefaultBudgetRefusesAnAnimationOfGigabytes() async throws {
        let result = try await run(["info", "bomb.gif", "--json"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(#""width":7000,"height":7000,"frames":8"#), "\(result.stdout)")
        #expect(result.stdout.contains(#""refused":{"code":"imageTooLarge","#), "\(result.stdout)")
        #expect(result.stdout.contains("8 frames of 7000x7000"), "\(result.stdout)")
        // A bigger budget lets it through the check (the frame count limit still applies).
        let frames = try await run(["info", "bomb.gif", "--max-frames", "7"])
        #expect(frames.stdout.contains("limit of 7 frames"), "\(frames.stdout)")
        // Decoding it is refused.
        let convert = try await run(["convert", "bomb.gif", "out.png"])
        #expect(convert.status == 1)
        #expect(convert.stderr.contains("imageTooLarge") || convert.stderr.contains("over the limit"), "\(convert.stderr)")
    }

    @Test func convertCountsTheSourceSizeEvenForAThumbnail() async throws {
        let refused = try await run(["convert", "anim.gif", "out.gif", "--max-pixels", "359"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("pixels per image"), "\(refused.stderr)")
        #expect(!workspace.contents().contains("out.gif"))
        let refusedThumbnail = try await run(["convert", "anim.gif", "out.gif", "--max-pixels", "359", "--thumbnail", "6x5"])
        #expect(refusedThumbnail.status == 1)
        #expect(refusedThumbnail.stderr.contains("pixels per image"), "\(refusedThumbnail.stderr)")
        let thumbnail = try await run(["convert", "anim.gif", "out.gif", "--max-pixels", "360", "--thumbnail", "6x5"])
        #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
        let frames = try await run(["convert", "anim.gif", "out2.gif", "--max-frames", "2"])
        #expect(frames.status == 1)
        #expect(frames.stderr.contains("limit of 2 frames"), "\(frames.stderr)")
    }

    @Test func fetchAppliesTheFlags() async throws {
        let refused = try await run(["fetch", "anim.gif", "--no-cache", "--output", "out", "--max-frames", "2"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("limit of 2 frames"), "\(refused.stderr)")
        let pixels = try await run(["fetch", "anim.gif", "--no-cache", "--output", "out", "--max-pixels", "359"])
        #expect(pixels.status == 1)
        #expect(pixels.stderr.contains("pixels per image"), "\(pixels.stderr)")
        let within = try await run(["fetch", "anim.gif", "--no-cache", "--output", "out", "--max-pixels", "360", "--max-frames", "3"])
        #expect(within.status == 0, "\(within.stderr)")
    }

    /// `--max-frame-pixels` sets the per-frame limit (``WebImageContext/imageMaxPixelCount``) in
    /// all three commands: 120 pixels a frame pass, 119 are refused from the header.
    @Test func maxFramePixelsSetsThePerFrameLimit() async throws {
        let info = try await run(["info", "anim.gif", "--json", "--max-frame-pixels", "119"])
        #expect(info.status == 0)
        #expect(info.stdout.contains(#""refused":{"code":"imageTooLarge","#), "\(info.stdout)")
        #expect(info.stdout.contains("over the limit of 119 pixels per frame"), "\(info.stdout)")
        let infoWithin = try await run(["info", "anim.gif", "--json", "--max-frame-pixels", "120"])
        #expect(infoWithin.stdout.contains(#""refused":null"#), "\(infoWithin.stdout)")

        let convert = try await run(["convert", "anim.gif", "out.gif", "--max-frame-pixels", "119"])
        #expect(convert.status == 1)
        #expect(convert.stderr.contains("over the limit of 119 pixels"), "\(convert.stderr)")
        #expect(!workspace.contents().contains("out.gif"))
        // The per-image budget is separate: 120 pixels a frame within a 360-pixel image pass.
        let within = try await run(["convert", "anim.gif", "out.gif", "--max-frame-pixels", "120", "--max-pixels", "360"])
        #expect(within.status == 0, "\(within.stderr)")
        #expect(try GIFCoder().decode(try Data(contentsOf: workspace.url.appendingPathComponent("out.gif")), options: ImageDecodeOptions()).frameCount == 3)

        let fetch = try await run(["fetch", "anim.gif", "--no-cache", "--output", "out", "--max-frame-pixels=119"])
        #expect(fetch.status == 1)
        #expect(fetch.stderr.contains("over the limit of 119 pixels"), "\(fetch.stderr)")
        let fetchWithin = try await run(["fetch", "anim.gif", "--no-cache", "--output", "out", "--max-frame-pixels", "120"])
        #expect(fetchWithin.status == 0, "\(fetchWithin.stderr)")
    }

    /// A larger per-frame limit lets through what the default refuses: a 16000x16000 GIF frame
    /// (256 MP, over the default 50 MP), described by `info` without a refusal.
    @Test func maxFramePixelsRaisesTheDefault() async throws {
        var huge = Data("GIF89a".utf8) + [0x80, 0x3E, 0x80, 0x3E, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]
        huge += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4C, 0x01, 0, 0x3B]
        try workspace.write(huge, to: "huge.gif")
        let refused = try await run(["info", "huge.gif", "--json"])
        #expect(refused.stdout.contains("over the limit of \(ImageDecodeOptions.defaultMaxPixelCount) pixels per frame"), "\(refused.stdout)")
        let raised = try await run(["info", "huge.gif", "--json", "--max-frame-pixels", "256000000", "--max-pixels", "256000000"])
        #expect(raised.status == 0)
        #expect(raised.stdout.contains(#""width":16000,"height":16000"#), "\(raised.stdout)")
        #expect(raised.stdout.contains(#""refused":null"#), "\(raised.stdout)")
    }

    @Test(arguments: [
        (["info", "anim.gif", "--max-frame-pixels", "0"], "webimage info: --max-frame-pixels needs a whole number of at least 1, not '0'"),
        (["info", "anim.gif", "--max-pixels", "0"], "webimage info: --max-pixels needs a whole number of at least 1, not '0'"),
        (["convert", "anim.gif", "o.png", "--max-frames", "many"], "webimage convert: --max-frames needs a whole number of at least 1, not 'many'"),
        (["fetch", "anim.gif", "--max-pixels", "-5"], "webimage fetch: --max-pixels needs a whole number of at least 1, not '-5'"),
    ])
    func badValuesAreUsageErrors(_ arguments: [String], message: String) async throws {
        let result = try await run(arguments)
        #expect(result.status == 64)
        #expect(result.errorLines.first?.hasPrefix(message) == true, "\(result.stderr)")
    }

    @Test func theHelpTextsNameTheFlags() async throws {
        for command in ["info", "convert", "fetch"] {
            let help = try await run([command, "--help"])
            #expect(help.stdout.contains("--max-pixels N"), "\(command)")
            #expect(help.stdout.contains("--max-frames N"), "\(command)")
            #expect(help.stdout.contains("--max-frame-pixels N"), "\(command)")
        }
    }
}
