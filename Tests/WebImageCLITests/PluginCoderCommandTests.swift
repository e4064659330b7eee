import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageCLIKit

/// The plug-in coders `webimage` registers at launch (``PluginCoders``): every command reads and
/// writes their formats. The WebP files are made through `CodersManager.shared` after the same
/// registration, so this suite needs no plug-in import of its own.
@Suite(.onOwnThreads) struct PluginCoderCommandTests {
    let workspace = Workspace()

    init() throws {
        WebImageCLI.registerLaunchComponents()
        try workspace.write(try Fixtures.alphaPNG(), to: "alpha.png")
        try workspace.write(try Fixtures.gif(durations: [0.05, 0.1, 0.2], loopCount: 0), to: "anim.gif")
        let still = WebImage(bitmap: TestImages.gradient(width: 40, height: 30, alpha: true))
        try workspace.write(try CodersManager.shared.encode(still, as: .webp, options: ImageEncodeOptions(compressionQuality: 0.8)), to: "photo.webp")
    }

    func run(_ arguments: [String]) async throws -> CLIResult {
        try await CLIRunner.run(arguments, home: workspace.home, in: workspace.url)
    }

    func decode(_ name: String) throws -> WebImage {
        try CodersManager.shared.decode(try Data(contentsOf: URL(fileURLWithPath: workspace.path(name))))
    }

    @Test func everyPluginCoderIsRegisteredAtLaunch() {
        let registered = CodersManager.shared.coders.map { String(describing: type(of: $0)) }
        #expect(!PluginCoders.names.isEmpty)
        for name in PluginCoders.names {
            #expect(registered.contains(name), "\(name) is not in CodersManager.shared: \(registered)")
        }
        #expect(PluginCoders.names.contains("WebPCoder"))
    }

    @Test func infoReadsWebP() async throws {
        let result = try await run(["info", "--json", "photo.webp"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines == [#"{"source":"photo.webp","format":"webp","width":40,"height":30,"frames":1,"pages":null,"loopCount":null,"durations":[0],"hasAlpha":true,"colorSpace":null,"refused":null}"#])
    }

    @Test func infoReadsWebPOverHTTP() async throws {
        let webp = try Data(contentsOf: URL(fileURLWithPath: workspace.path("photo.webp")))
        let server = try LoopbackHTTPServer(routes: ["/photo.webp": .data(webp, contentType: "image/webp")])
        defer { server.stop() }
        let url = server.url(for: "/photo.webp").absoluteString
        let result = try await run(["info", url])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.first?.hasPrefix("\(url): webp 40x30, 1 frame") == true, "\(result.lines)")
    }

    @Test func convertWritesWebPByExtensionAndByFormat() async throws {
        let byExtension = try await run(["convert", "alpha.png", "out.webp"])
        #expect(byExtension.status == 0, "\(byExtension.stderr)")
        #expect(byExtension.lines.first?.hasPrefix("alpha.png -> \(workspace.path("out.webp")) (webp 40x30, 1 frame, ") == true)
        let image = try decode("out.webp")
        #expect(image.format == .webp && image.pixelSize == PixelSize(width: 40, height: 30) && image.bitmap.hasAlpha)

        let byFormat = try await run(["convert", "photo.webp", "copy.dat", "--format", "webp"])
        #expect(byFormat.status == 0, "\(byFormat.stderr)")
        #expect(ImageFormat.detect(try Data(contentsOf: URL(fileURLWithPath: workspace.path("copy.dat")))) == .webp)
        #expect(workspace.contents().allSatisfy { !$0.hasPrefix(".") }, "no temporary file left")
    }

    @Test func convertReadsWebP() async throws {
        let result = try await run(["convert", "photo.webp", "back.png"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try decode("back.png").pixelSize == PixelSize(width: 40, height: 30))
    }

    @Test func animationsStayAnimatedInWebP() async throws {
        let result = try await run(["convert", "anim.gif", "anim.webp"])
        #expect(result.status == 0, "\(result.stderr)")
        let image = try decode("anim.webp")
        #expect(image.format == .webp)
        #expect(image.frameCount == 3)
        #expect(image.loopCount == 0)
        let second = try image.frame(at: 1)
        #expect(second.duration == 0.1)
        // Lossy by default (quality 90): a solid frame comes back within a few levels.
        let pixel = second.bitmap[5, 5]
        #expect(abs(Int(pixel.green) - 255) <= 8 && Int(pixel.red) <= 8 && Int(pixel.blue) <= 8, "\(pixel)")
    }

    @Test func webPDefaultsToQuality90AndMessagesOfferIt() async throws {
        #expect(try ConvertCommand.quality(nil, format: .webp) == 0.9)
        #expect(try ConvertCommand.quality(nil, format: .png) == 1)
        #expect(ConvertCommand.writableFormatList.contains("webp"))
        let unknown = try await run(["convert", "alpha.png", "out.nope"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains(".webp"), "\(unknown.stderr)")
    }
}
