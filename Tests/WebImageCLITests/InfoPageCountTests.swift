import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageCLIKit

/// `webimage info` tells a document's page count (`pages`) when the coder that reads it is a
/// ``PageCountReader`` (PDFCoder is), whatever the format: a PDF of three pages says 3 in JSON
/// and in text, a one-page PDF 1, other formats `null` (the JSON tests of every format).
@Suite struct InfoPageCountTests {
    let workspace = Workspace()

    func run(_ arguments: [String]) async throws -> CLIResult {
        try await CLIRunner.run(arguments, home: workspace.home, in: workspace.url)
    }

    @Test(.enabled(if: ChildProcess.path(of: "pdfunite") != nil, "pdfunite (Debian: poppler-utils) is not installed: skipped"))
    func aPDFsPagesAreCounted() async throws {
        try workspace.write(DemoSamples.badgePDF, to: "badge.pdf")
        try await ChildProcess.output(of: "pdfunite", ["badge.pdf", "badge.pdf", "badge.pdf", "three.pdf"], in: workspace.url)
        let json = try await run(["info", "--json", "three.pdf", "badge.pdf"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.lines.count == 2)
        #expect(json.lines.first?.contains(#""format":"pdf","width":192,"height":192,"frames":1,"pages":3,"#) == true, "\(json.lines)")
        #expect(json.lines.last?.contains(#""frames":1,"pages":1,"#) == true, "\(json.lines)")
        let text = try await run(["info", "three.pdf"])
        #expect(text.lines == ["three.pdf: pdf 192x192, 1 frame, 3 pages, no alpha"], "\(text.lines)")
    }

    /// A page counter that claims data starting with "PAGES" and says `count` pages.
    struct CountingCoder: PageCountReader {
        let count: Int
        func canDecode(_ data: Data) -> Bool { data.starts(with: Array("PAGES".utf8)) }
        func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
            throw WebImageError(.badImageData, "a page counter only")
        }
        func canEncode(to format: ImageFormat) -> Bool { false }
        func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
            throw WebImageError(.unsupportedFormat, "a page counter only")
        }
        func pageCount(of data: Data) throws -> Int { count }
    }

    @Test func thePageCountComesFromTheMemberThatWouldDecode() throws {
        let data = Data("PAGES...".utf8)
        // The last member added that takes the data is the one asked, as for a decode.
        let manager = CodersManager([CountingCoder(count: 2), PNGCoder(), CountingCoder(count: 5)])
        #expect(try InfoCommand.pageCount(of: data, coder: manager) == 5)
        #expect(try InfoCommand.pageCount(of: data, coder: CodersManager([manager])) == 5)
        // Data no page counter takes, and a coder that counts no pages: nil.
        #expect(try InfoCommand.pageCount(of: try Fixtures.alphaPNG(), coder: manager) == nil)
        #expect(try InfoCommand.pageCount(of: data, coder: PNGCoder()) == nil)
        #expect(try InfoCommand.pageCount(of: data, coder: CountingCoder(count: 7)) == 7)
    }
}
