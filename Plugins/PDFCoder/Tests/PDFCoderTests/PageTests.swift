import Foundation
import PDFCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// Page count, page choice through the context, sizes, encrypted documents.
@Suite(.onOwnThreads) struct PageTests {
    static func decode(_ data: Data, page: Int? = nil, thumbnail: PixelSize? = nil, dpi: Double = PDFCoder.defaultDPI) throws -> WebImage {
        var options = ImageDecodeOptions()
        options.context.pdfPageIndex = page
        options.thumbnailPixelSize = thumbnail
        return try PDFCoder(dpi: dpi).decode(data, options: options)
    }

    @Test func pageCountAndSelection() throws {
        let pdf = PDFMaker.pages(5)
        #expect(try PDFCoder().pageCount(of: pdf) == 5)
        for page in 0..<5 {
            let image = try Self.decode(pdf, page: page)
            #expect(image.pixelSize == PixelSize(width: 100 + 10 * page, height: 50), "page \(page)")
            let level = Int((Double(page) / 5 * 255).rounded())
            #expect(abs(Int(image.bitmap[5, 5].red) - level) <= 1, "page \(page): \(image.bitmap[5, 5])")
        }
        #expect(try Self.decode(pdf).pixelSize == PixelSize(width: 100, height: 50))
        let missing = try #require(throws: WebImageError.self) { try Self.decode(pdf, page: 5) }
        #expect(missing.code == .badImageData)
        #expect(missing.message.contains("5 pages"), "\(missing.message)")
        #expect(throws: WebImageError.self) { try Self.decode(pdf, page: -1) }
    }

    /// Through a manager and the request's context, as an app would ask for a page.
    @Test func pageThroughTheRequestContext() throws {
        var context = WebImageContext()
        context.pdfPageIndex = 3
        let options = ImageDecodeOptions(options: [], context: context)
        let image = try CodersManager([PDFCoder()]).decode(PDFMaker.pages(5), options: options)
        #expect(image.pixelSize == PixelSize(width: 130, height: 50))
    }

    @Test func sizes() throws {
        let pdf = PDFMaker.pages(1)
        #expect(try Self.decode(pdf, dpi: 144).pixelSize == PixelSize(width: 200, height: 100))
        let thumbnail = try Self.decode(pdf, thumbnail: PixelSize(width: 40, height: 40))
        #expect(thumbnail.pixelSize == PixelSize(width: 40, height: 20))
        #expect(thumbnail.metadata.contains(.thumbnail) && thumbnail.metadata.contains(.vector))
        // Larger than the page: drawn at the size asked for.
        #expect(try Self.decode(pdf, thumbnail: PixelSize(width: 1000, height: 1000)).pixelSize == PixelSize(width: 1000, height: 500))
        let properties = try PDFCoder().readProperties(of: pdf)
        #expect(properties.pixelSize == PixelSize(width: 100, height: 50) && properties.format == .pdf)
        #expect(!PDFCoder().canEncode(to: .pdf))
    }

    /// A document with a user password: refused, saying it is encrypted.
    @Test func encryptedDocumentsAreRefused() throws {
        let pdf = PDFMaker.document([PDFMaker.Page(width: 50, height: 50, rects: [])], encrypt: true)
        let error = try #require(throws: WebImageError.self) { try PDFCoder().decode(pdf) }
        #expect(error.code == .badImageData)
        #expect(error.message.contains("encrypted"), "\(error.message)")
        #expect(throws: WebImageError.self) { try PDFCoder().pageCount(of: pdf) }
    }
}
