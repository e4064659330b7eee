import Foundation
import SVGCoder
import SwiftWebImage
import Testing
import WebImageCore
import WebImageTestSupport

/// The code listings of the SVGCoder catalog (`Plugins/SVGCoder/Sources/SVGCoder/SVGCoder.docc`),
/// compiled and run: the lines between `// DOCS NAME begin` and `// DOCS NAME end` are the
/// article's block marked `<!-- snippet: NAME -->` (the umbrella's
/// `ArticleSnippetTests.articleSnippetsAreTheCodeTestedHere` compares them, line for line).
@Suite(.onOwnThreads) struct ArticleSnippetTests {
    /// The listing's `CodersManager.shared`, here a fresh manager of the built-in coders: every test
    /// target of the package runs in one process, and a registration in the process-wide manager
    /// would change what the other suites decode.
    enum CodersManager {
        static let shared = WebImageCore.CodersManager(BuiltInCoders.all)
    }

    @Test func registrationMakesTheCodersDecodeSVG() throws {
        let data = Data(SVGSamples.shapes.utf8)
        let before = try #require(throws: WebImageError.self) { try CodersManager.shared.decode(data) }
        #expect(before.code == .unsupportedFormat || before.code == .badImageData, "\(before)")
        // DOCS svg-register begin
        CodersManager.shared.add(SVGCoder())
        // DOCS svg-register end
        let image = try CodersManager.shared.decode(data)
        #expect(image.format == .svg)
        #expect(image.pixelSize == PixelSize(width: 120, height: 90))
        #expect(!CodersManager.shared.canEncode(to: .svg))
    }

    @Test func iconAtTheSizeAskedFor() throws {
        let svgData = Data(SVGSamples.large.utf8)
        // DOCS svg-icon begin
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 64, height: 64)
        let icon = try SVGCoder().decode(svgData, options: options)
        // DOCS svg-icon end
        #expect(icon.pixelSize == PixelSize(width: 64, height: 64))
    }
}
