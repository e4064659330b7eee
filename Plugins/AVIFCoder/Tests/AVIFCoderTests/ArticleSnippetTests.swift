import AVIFCoder
import Foundation
import SwiftWebImage
import Testing
import WebImageCore
import WebImageTestSupport

/// The code listings of the AVIFCoder catalog (`Plugins/AVIFCoder/Sources/AVIFCoder/AVIFCoder.docc`), compiled and
/// run: the lines between `// DOCS NAME begin` and `// DOCS NAME end` are the article's block marked
/// `<!-- snippet: NAME -->` (the umbrella's `ArticleSnippetTests.articleSnippetsAreTheCodeTestedHere`
/// compares them, line for line).
@Suite(.onOwnThreads) struct ArticleSnippetTests {
    /// The listing's `CodersManager.shared`, here a fresh manager of the built-in coders: every test
    /// target of the package runs in one process, and a registration in the process-wide manager
    /// would change what the other suites decode.
    enum CodersManager {
        static let shared = WebImageCore.CodersManager(BuiltInCoders.all)
    }

    @Test func registrationMakesTheCodersDecodeAVIF() throws {
        let data = try AVIFCoder(speed: 10).encode(WebImage(bitmap: TestImages.gradient(width: 16, height: 12)), as: .avif)
        let before = try #require(throws: WebImageError.self) { try CodersManager.shared.decode(data) }
        #expect(before.code == .unsupportedFormat || before.code == .badImageData, "\(before)")
        // DOCS avif-register begin
        CodersManager.shared.add(AVIFCoder())
        // DOCS avif-register end
        let image = try CodersManager.shared.decode(data)
        #expect(image.format == .avif)
        #expect(image.pixelSize == PixelSize(width: 16, height: 12))
        #expect(CodersManager.shared.canEncode(to: .avif))
    }
}
