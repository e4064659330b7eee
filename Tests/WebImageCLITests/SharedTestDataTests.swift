import Foundation
import Testing
import WebImageTestSupport
import SwiftWebImage
@testable import WebImageCLIKit

/// `info` and `convert` on SDWebImage's own test images, when ../shared/testdata is present
/// (it is never copied into this repository). Expected values come from the files' bytes:
/// TestLoopCount.gif has no NETSCAPE2.0 block (loop count null), 1@2x.gif states 65535.
@Suite(.onOwnThreads) struct SharedTestDataTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/testdata/sdwebimage")
    static var isPresent: Bool { FileManager.default.fileExists(atPath: directory.appendingPathComponent("TestImage.gif").path) }

    let workspace = Workspace()

    @Test(.enabled(if: isPresent, "../shared/testdata/sdwebimage is absent: skipping SDWebImage's test images"))
    func infoOnSDWebImageImages() async throws {
        let expected = [
            #"{"source":"TestLoopCount.gif","format":"gif","width":72,"height":48,"frames":2,"pages":null,"loopCount":null,"durations":[500,500],"hasAlpha":true,"colorSpace":null,"refused":null}"#,
            #"{"source":"TestImage.gif","format":"gif","width":50,"height":50,"frames":5,"pages":null,"loopCount":0,"durations":[120,120,120,120,120],"hasAlpha":true,"colorSpace":null,"refused":null}"#,
            #"{"source":"TestImage.jpg","format":"jpeg","width":80,"height":60,"frames":1,"pages":null,"loopCount":null,"durations":[0],"hasAlpha":false,"colorSpace":"untagged","refused":null}"#,
            #"{"source":"RGBA16PNG.png","format":"png","width":126,"height":135,"frames":1,"pages":null,"loopCount":null,"durations":[0],"hasAlpha":true,"colorSpace":"untagged (gAMA 0.45455, as sRGB)","refused":null}"#,
            #"{"source":"TestImageLarge.png","format":"png","width":1275,"height":720,"frames":4,"pages":null,"loopCount":0,"durations":[100,100,100,100],"hasAlpha":true,"colorSpace":"untagged","refused":null}"#,
        ]
        let names = expected.map { line in String(line.split(separator: "\"")[3]) }
        let result = try await CLIRunner.run(["info", "--json"] + names, home: workspace.home, in: Self.directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines == expected)

        // WebP through the WebPCoder plug-in, which `webimage` registers at launch.
        let big = try await CLIRunner.run(["info", "--json", "1@2x.gif", "TestImageAnimated.apng", "TestImageStatic.webp", "TestImageAnimated.webp"], home: workspace.home, in: Self.directory)
        #expect(big.status == 0, "\(big.stderr)")
        #expect(big.lines[0].hasPrefix(#"{"source":"1@2x.gif","format":"gif","width":400,"height":400,"frames":44,"pages":null,"loopCount":65535,"durations":[90,90,"#))
        #expect(big.lines[1].hasPrefix(#"{"source":"TestImageAnimated.apng","format":"png","width":320,"height":240,"frames":101,"pages":null,"loopCount":0,"durations":[30,30,"#))
        #expect(big.lines[2] == #"{"source":"TestImageStatic.webp","format":"webp","width":550,"height":368,"frames":1,"pages":null,"loopCount":null,"durations":[0],"hasAlpha":false,"colorSpace":null,"refused":null}"#)
        #expect(big.lines[3] == #"{"source":"TestImageAnimated.webp","format":"webp","width":990,"height":1050,"frames":8,"pages":null,"loopCount":0,"durations":[100,100,100,100,100,100,100,100],"hasAlpha":true,"colorSpace":null,"refused":null}"#)
    }

    @Test(.enabled(if: isPresent, "../shared/testdata/sdwebimage is absent: skipping SDWebImage's test images"))
    func convertAFrameOfAnAPNGAndA16BitPNG() async throws {
        let apng = Self.directory.appendingPathComponent("TestImageAnimated.apng").path
        let frame = try await CLIRunner.run(["convert", apng, workspace.path("frame.png"), "--frame", "50"], home: workspace.home)
        #expect(frame.status == 0, "\(frame.stderr)")
        let expected = try CodersManager.shared.decode(try Data(contentsOf: URL(fileURLWithPath: apng))).frame(at: 50).bitmap
        #expect(try PNGCoder().decode(try Data(contentsOf: URL(fileURLWithPath: workspace.path("frame.png")))).bitmap.bytes == expected.bytes)

        let sixteen = Self.directory.appendingPathComponent("RGBA16PNG.png").path
        #expect(try await CLIRunner.run(["convert", sixteen, workspace.path("eight.png")], home: workspace.home).status == 0)
        #expect(Fixtures.pngBitDepth(try Data(contentsOf: URL(fileURLWithPath: workspace.path("eight.png")))) == 8, "PNG output is 8-bit")
    }
}
