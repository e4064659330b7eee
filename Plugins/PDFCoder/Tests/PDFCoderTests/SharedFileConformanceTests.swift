import Foundation
import Testing
import PDFCoder
import WebImageCore
import WebImageTestSupport

/// A real file, not one written by these tests: SDWebImagePDFCoder's test image
/// (`../shared/testdata/sdwebimage/TestImage.pdf`, one 36x36-point page written by cairo
/// 1.10), drawn as `pdftocairo` draws it.
@Suite(.onOwnThreads) struct SharedFileConformanceTests {
    @Test(.enabled(if: ReferenceTools.hasPDFToCairo, ReferenceTools.missingPDFToCairo), arguments: [PixelSize(width: 36, height: 36), PixelSize(width: 200, height: 200)])
    func sdWebImagesTestImageMatchesPDFToCairo(_ size: PixelSize) async throws {
        guard SharedTestData.has("TestImage.pdf") else {
            print("SharedFileConformanceTests: ../shared/testdata/sdwebimage/TestImage.pdf is absent: skipped")
            return
        }
        let pdf = try Data(contentsOf: SharedTestData.sdWebImage("TestImage.pdf"))
        #expect(try PDFCoder().pageCount(of: pdf) == 1)
        let reference = try await ReferenceTools.render(pdf, width: size.width, height: size.height)
        let image = try await ConformanceTests.decode(pdf, at: size)
        ConformanceTests.compare(image.bitmap, reference, "TestImage.pdf at \(size)")
    }
}
