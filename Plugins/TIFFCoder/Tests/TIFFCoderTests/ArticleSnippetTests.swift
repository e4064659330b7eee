import Foundation
import SwiftWebImage
import Testing
import TIFFCoder
import WebImageCore
import WebImageTestSupport

/// The code listings of the TIFFCoder catalog (`Plugins/TIFFCoder/Sources/TIFFCoder/TIFFCoder.docc`),
/// compiled and run: the lines between `// DOCS NAME begin` and `// DOCS NAME end` are the
/// article's block marked `<!-- snippet: NAME -->` (the umbrella's
/// `ArticleSnippetTests.articleSnippetsAreTheCodeTestedHere` compares them, line for line).
@Suite(.onOwnThreads) struct ArticleSnippetTests {
    /// The listing's `CodersManager.shared`, here a fresh manager of the built-in coders: a
    /// registration in the process-wide manager would change what the other suites decode.
    enum CodersManager {
        static let shared = WebImageCore.CodersManager(BuiltInCoders.all)
    }

    @Test func registrationMakesTheCodersDecodeTIFFThumbnails() throws {
        let data = try TIFFCoder().encode(WebImage(bitmap: TestImages.gradient(width: 512, height: 256)), as: .tiff)
        #expect(throws: WebImageError.self) { try CodersManager.shared.decode(data) }
        // DOCS tiff-register begin
        CodersManager.shared.add(TIFFCoder())
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 128, height: 128)
        let thumbnail = try CodersManager.shared.decode(data, options: options)
        // DOCS tiff-register end
        #expect(thumbnail.format == .tiff)
        #expect(thumbnail.pixelSize == PixelSize(width: 128, height: 64))
        #expect(thumbnail.metadata.contains(.thumbnail))
    }
}
