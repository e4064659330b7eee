import Foundation
import HEIFCoder
import SwiftWebImage
import Testing
import WebImageCore
import WebImageTestSupport

/// The code listings of the HEIFCoder catalog (`Plugins/HEIFCoder/Sources/HEIFCoder/HEIFCoder.docc`), compiled and
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

    @Test func registrationMakesTheCodersDecodeHEIF() throws {
        let data = try HEIFCoder().encode(WebImage(bitmap: TestImages.gradient(width: 16, height: 12)), as: .heic)
        let before = try #require(throws: WebImageError.self) { try CodersManager.shared.decode(data) }
        #expect(before.code == .unsupportedFormat || before.code == .badImageData, "\(before)")
        // DOCS heif-register begin
        CodersManager.shared.add(HEIFCoder())
        // DOCS heif-register end
        let image = try CodersManager.shared.decode(data)
        #expect(image.format == .heic)
        #expect(image.pixelSize == PixelSize(width: 16, height: 12))
        #expect(CodersManager.shared.canEncode(to: .heic))
    }
}
