import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageCLIKit

/// `webimage convert`, run as a subprocess.
@Suite(.onOwnThreads) struct ConvertCommandTests {
    let workspace = Workspace()

    init() throws {
        WebImageCLI.registerLaunchComponents()
        try workspace.write(try Fixtures.jpeg(), to: "photo.jpg")
        try workspace.write(try Fixtures.alphaPNG(), to: "alpha.png")
        try workspace.write(try Fixtures.gif(durations: [0.05, 0.1, 0.2], loopCount: 0), to: "anim.gif")
        try workspace.write(Fixtures.corruptPNG, to: "corrupt.png")
    }

    func convert(_ arguments: [String]) async throws -> CLIResult {
        try await CLIRunner.run(["convert"] + arguments, home: workspace.home, in: workspace.url)
    }

    func decode(_ name: String) throws -> WebImage {
        try CodersManager.shared.decode(try Data(contentsOf: URL(fileURLWithPath: workspace.path(name))))
    }

    @Test(arguments: [
        ("out.jpg", ImageFormat.jpeg), ("out.jpeg", .jpeg), ("out.png", .png), ("out.gif", .gif), ("out.bmp", .bmp), ("out.wirl", .wirl),
    ])
    func formatFollowsTheExtension(_ output: String, format: ImageFormat) async throws {
        let result = try await convert(["alpha.png", output])
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: workspace.path(output)))
        #expect(ImageFormat.detect(data) == format)
        #expect(try decode(output).pixelSize == PixelSize(width: 40, height: 30))
        #expect(result.lines.first?.hasPrefix("alpha.png -> \(workspace.path(output)) (\(format) 40x30, 1 frame, ") == true)
        #expect(workspace.contents().allSatisfy { !$0.hasPrefix(".") }, "no temporary file left")
    }

    @Test func formatOptionOverridesTheExtension() async throws {
        let result = try await convert(["photo.jpg", "picture.dat", "--format", "png"])
        #expect(result.status == 0)
        #expect(ImageFormat.detect(try Data(contentsOf: URL(fileURLWithPath: workspace.path("picture.dat")))) == .png)
        let jpg = try await convert(["photo.jpg", "other.png", "--format=JPG"])
        #expect(jpg.status == 0)
        #expect(ImageFormat.detect(try Data(contentsOf: URL(fileURLWithPath: workspace.path("other.png")))) == .jpeg)
    }

    @Test func frameWritesOneFrameOfAnAnimation() async throws {
        let result = try await convert(["anim.gif", "second.png", "--frame", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        let image = try decode("second.png")
        #expect(image.frameCount == 1)
        #expect(image.bitmap[5, 5] == Fixtures.frameColors[1])
    }

    @Test func animationsStayAnimatedInGIFAndPNGButNotJPEG() async throws {
        #expect(try await convert(["anim.gif", "copy.gif"]).status == 0)
        #expect(try decode("copy.gif").frameCount == 3)
        #expect(try await convert(["anim.gif", "copy.png"]).status == 0)
        let apng = try decode("copy.png")
        #expect(apng.frameCount == 3)
        #expect(apng.frameDurations == [0.05, 0.1, 0.2])
        #expect(try await convert(["anim.gif", "first.jpg"]).status == 0)
        #expect(try decode("first.jpg").frameCount == 1)
    }

    /// `--keep-profile`: the output carries the input's profile and its numbers; by default a
    /// tagged input is converted to sRGB and the output has no profile.
    @Test func keepProfileEmbedsTheInputsProfile() async throws {
        let stored = ColorFixtures.intoSpace(ColorFixtures.photo, ColorFixtures.adobeRGB)
        try workspace.write(ColorFixtures.tagPNG(try PNGCoder().encode(WebImage(bitmap: stored), as: .png), ColorFixtures.adobeRGB), to: "adobe.png")
        var keep = ImageDecodeOptions()
        keep.colorProfileHandling = .keep
        for output in ["kept.png", "kept.jpg"] {
            let result = try await convert(["adobe.png", output, "--keep-profile", "--quality", "100"])
            #expect(result.status == 0, "\(result.stderr)")
            let kept = try CodersManager.shared.decode(try Data(contentsOf: URL(fileURLWithPath: workspace.path(output))), options: keep)
            #expect(kept.colorProfile?.data == ColorFixtures.adobeRGB, "\(output)")
            #expect(ColorFixtures.meanDeltaE(kept.bitmap, stored) < 1.5, "\(output): the input's numbers")
        }
        #expect(try await convert(["adobe.png", "plain.png"]).status == 0)
        let plain = try CodersManager.shared.decode(try Data(contentsOf: URL(fileURLWithPath: workspace.path("plain.png"))), options: keep)
        #expect(plain.colorProfile == nil)
        #expect(ColorFixtures.meanDeltaE(plain.bitmap, ColorFixtures.photo) < 1)
    }

    @Test func thumbnailKeepsTheAspectRatio() async throws {
        #expect(try await convert(["photo.jpg", "small.png", "--thumbnail", "16x16"]).status == 0)
        #expect(try decode("small.png").pixelSize == PixelSize(width: 16, height: 12))
    }

    /// The transforms run in order through the manager: the output's pixels are exactly those of
    /// the same transformers applied in process (PNG is lossless).
    @Test func transformsApplyInOrder() async throws {
        let specs = ["crop=4,2,30,20", "resize=15x10:aspectFill", "rotate=90", "round=3", "tint=#00ff0080:multiply", "grayscale"]
        let result = try await convert(["alpha.png", "done.png"] + specs.flatMap { ["--transform", $0] })
        #expect(result.status == 0, "\(result.stderr)")
        let source = try CodersManager.shared.decode(try Fixtures.alphaPNG())
        let expected = try #require(try TransformSpec.transformer(for: specs)).transform(source, forKey: "k")
        let output = try decode("done.png")
        #expect(output.pixelSize == PixelSize(width: 10, height: 15))
        #expect(output.bitmap.bytes == expected.bitmap.bytes)
    }

    @Test func pngOutputIsEightBit() async throws {
        #expect(try await convert(["alpha.png", "eight.png", "--transform", "blur=1"]).status == 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: workspace.path("eight.png")))
        #expect(Fixtures.pngBitDepth(data) == 8)
    }

    @Test func qualityChangesJPEGSize() async throws {
        try workspace.write(try Fixtures.jpeg(width: 256, height: 192), to: "big.jpg")
        #expect(try await convert(["big.jpg", "low.jpg", "--quality", "10"]).status == 0)
        #expect(try await convert(["big.jpg", "high.jpg", "--quality", "95"]).status == 0)
        let low = try Data(contentsOf: URL(fileURLWithPath: workspace.path("low.jpg"))).count
        let high = try Data(contentsOf: URL(fileURLWithPath: workspace.path("high.jpg"))).count
        #expect(low < high)
    }

    @Test func httpAndDataInputs() async throws {
        let server = try LoopbackHTTPServer(routes: ["/p.jpg": .data(try Fixtures.jpeg(), contentType: "image/jpeg")])
        defer { server.stop() }
        #expect(try await convert([server.url(for: "/p.jpg").absoluteString, "web.png"]).status == 0)
        #expect(try decode("web.png").pixelSize == PixelSize(width: 64, height: 48))
        let dataURL = "data:image/png;base64," + (try Fixtures.alphaPNG()).base64EncodedString()
        #expect(try await convert([dataURL, "inline.bmp"]).status == 0)
        #expect(try decode("inline.bmp").pixelSize == PixelSize(width: 40, height: 30))
    }

    /// Every failure: one line on standard error naming the input and the reason, a non-zero
    /// status, and no output file (nor a temporary one) left behind.
    @Test(arguments: [
        (["missing.png", "out.png"], Int32(1), "webimage convert: missing.png: No file at "),
        (["corrupt.png", "out.png"], 1, "webimage convert: corrupt.png: PNG data of 72 bytes does not start with an IHDR chunk"),
        (["anim.gif", "out.png", "--frame", "9"], 1, "webimage convert: anim.gif: there is no frame 9: the image has frames 0 to 2"),
        (["photo.jpg", "out.png", "--transform", "crop=500,500,10,10"], 1, "webimage convert: photo.jpg: "),
        (["photo.jpg", "nowhere/out.png"], 1, "webimage convert: photo.jpg: cannot write "),
        // A format the tool knows (the ICOCoder plug-in registers it) but no coder writes.
        (["photo.jpg", "out.cur"], 64, "webimage convert: no coder can write cur images"),
        (["photo.jpg", "out.xyz"], 64, "webimage convert: unknown output extension '.xyz'"),
        (["photo.jpg", "out"], 64, "webimage convert: cannot tell the output format of out"),
        (["photo.jpg", "out.png", "--format", "heif9"], 64, "webimage convert: unknown --format 'heif9'"),
        (["photo.jpg", "out.png", "--transform", "sharpen=2"], 64, "webimage convert: unknown transform 'sharpen=2'"),
        (["photo.jpg", "out.png", "--quality", "150"], 64, "webimage convert: --quality must be a number from 0 to 100, not '150'"),
        (["photo.jpg", "out.png", "--frame", "-1"], 64, "webimage convert: --frame needs a frame number from 0, not '-1'"),
        (["photo.jpg", "out.png", "--thumbnail", "big"], 64, "webimage convert: --thumbnail needs a size like 200x200"),
        (["photo.jpg"], 64, "webimage convert: give an input and an output (got 1 argument)"),
    ])
    func failuresLeaveNothingBehind(_ arguments: [String], status: Int32, message: String) async throws {
        let before = workspace.contents()
        let result = try await convert(arguments)
        #expect(result.status == status)
        #expect(result.errorLines.count == 1, "\(result.stderr)")
        #expect(result.errorLines.first?.hasPrefix(message) == true, "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
        #expect(workspace.contents() == before, "no output and no temporary file")
        #expect(result.stdout.isEmpty)
    }

    @Test func aFailedConversionKeepsTheExistingOutput() async throws {
        let old = Data("previous contents".utf8)
        try workspace.write(old, to: "keep.png")
        let result = try await convert(["corrupt.png", "keep.png"])
        #expect(result.status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.path("keep.png"))) == old)
        #expect(try await convert(["photo.jpg", "keep.png"]).status == 0)
        #expect(ImageFormat.detect(try Data(contentsOf: URL(fileURLWithPath: workspace.path("keep.png")))) == .png, "replaced by a complete file")
    }
}
