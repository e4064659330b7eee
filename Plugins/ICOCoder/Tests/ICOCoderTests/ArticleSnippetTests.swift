import Foundation
import ICOCoder
import SwiftWebImage
import Testing
import WebImageCore
import WebImageTestSupport

/// The code listings of the ICOCoder catalog (`Plugins/ICOCoder/Sources/ICOCoder/ICOCoder.docc`),
/// compiled and run: the lines between `// DOCS NAME begin` and `// DOCS NAME end` are the
/// article's block marked `<!-- snippet: NAME -->` (the umbrella's
/// `ArticleSnippetTests.articleSnippetsAreTheCodeTestedHere` compares them, line for line).
@Suite(.onOwnThreads) struct ArticleSnippetTests {
    /// The listing's `CodersManager.shared`, here a fresh manager of the built-in coders.
    enum CodersManager {
        static let shared = WebImageCore.CodersManager(BuiltInCoders.all)
    }

    @Test func registrationAndEncodingFromSizes() throws {
        let image = WebImage(bitmap: TestImages.gradient(width: 64, height: 64, alpha: true))
        // DOCS ico-register begin
        CodersManager.shared.add(ICOCoder())
        let favicon = try ICOCoder(encodedSizes: [16, 32, 48]).encode(image, as: .ico)
        let sizes = try ICOCoder().entries(in: favicon).map(\.pixelSize)
        // DOCS ico-register end
        #expect(sizes.map(\.width) == [16, 32, 48])
        let decoded = try CodersManager.shared.decode(favicon)
        #expect(decoded.format == .ico && decoded.pixelSize == PixelSize(width: 48, height: 48))
    }
}
