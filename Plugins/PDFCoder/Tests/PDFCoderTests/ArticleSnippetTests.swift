import Foundation
import PDFCoder
import SwiftWebImage
import Testing
import WebImageCore
import WebImageTestSupport

/// The code listings of the PDFCoder catalog (`Plugins/PDFCoder/Sources/PDFCoder/PDFCoder.docc`),
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

    @Test func registrationMakesTheCodersDecodePDF() throws {
        let data = PDFMaker.pages(2)
        let before = try #require(throws: WebImageError.self) { try CodersManager.shared.decode(data) }
        #expect(before.code == .unsupportedFormat || before.code == .badImageData, "\(before)")
        // DOCS pdf-register begin
        CodersManager.shared.add(PDFCoder())
        // DOCS pdf-register end
        let image = try CodersManager.shared.decode(data)
        #expect(image.format == .pdf)
        #expect(image.pixelSize == PixelSize(width: 100, height: 50))
    }

    @Test func pageChosenInTheContext() throws {
        let pdfData = PDFMaker.pages(4)
        // DOCS pdf-page begin
        var context = WebImageContext()
        context.pdfPageIndex = 2
        let pages = try PDFCoder().pageCount(of: pdfData)
        let third = try PDFCoder().decode(pdfData, options: ImageDecodeOptions(options: [], context: context))
        // DOCS pdf-page end
        #expect(pages == 4)
        #expect(third.pixelSize == PixelSize(width: 120, height: 50))
    }
}
