import Foundation
import PDFCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// Hostile documents give a `WebImageError` or a bounded render, never a hang, a trap or a
/// giant allocation.
@Suite(.onOwnThreads) struct HostileInputTests {
    /// A 14400x14400-inch page (1,036,800 points a side, the most PDF allows with UserUnit) is
    /// drawn within the pixel limit, quickly: the size is checked before any surface is made.
    @Test func giantPageIsLimited() throws {
        let side = 14400.0 * 72
        let pdf = PDFMaker.document([PDFMaker.Page(width: side, height: side, rects: [PDFMaker.Rect(x: 0, y: 0, width: side / 2, height: side, red: 1, green: 0, blue: 0)])])
        let start = ContinuousClock.now
        var options = ImageDecodeOptions()
        options.maxPixelCount = 1_000_000
        let image = try PDFCoder().decode(pdf, options: options)
        let elapsed = ContinuousClock.now - start
        #expect(image.pixelSize == PixelSize(width: 1000, height: 1000))
        #expect(elapsed < .seconds(5), "\(elapsed) (a surface of the page's size would never finish)")
        #expect(image.bitmap[10, 500].red == 255 && image.bitmap[990, 500].green == 255)
        let properties = try PDFCoder().readProperties(of: pdf)
        #expect(properties.pixelSize == PixelSize(width: 7071, height: 7071), "the default pixel limit's size")
    }

    @Test func notPDF() throws {
        #expect(!PDFCoder().canDecode(Data()))
        #expect(!PDFCoder().canDecode(Data("GIF89a".utf8)))
        #expect(throws: WebImageError.self) { try PDFCoder().decode(Data("not an image".utf8)) }
        let broken = try #require(throws: WebImageError.self) { try PDFCoder().decode(Data("%PDF-1.4\ngarbage".utf8)) }
        #expect(broken.code == .badImageData)
        #expect(broken.message.contains("poppler"), "\(broken.message)")
    }

    /// A page whose content never ends drawing (a million tiny rectangles) against a short
    /// limit: the caller waits the limit, not the render.
    @Test func renderTimeLimit() async throws {
        var content: [PDFMaker.Rect] = []
        for index in 0..<200_000 {
            let x = Double(index % 500), y = Double(index / 500 % 500), red = Double(index % 7) / 7
            content.append(PDFMaker.Rect(x: x, y: y, width: 3, height: 3, red: red, green: 0.5, blue: 0.2))
        }
        let pdf = PDFMaker.document([PDFMaker.Page(width: 500, height: 500, rects: content)])
        // Timed on the waiting thread itself: a full parallel run can keep the test's task from
        // resuming for a long while after the wait is over.
        let (error, elapsed): (WebImageError, Duration) = try await OwnThread.run {
            let start = ContinuousClock.now
            let error = try #require(throws: WebImageError.self) { try PDFCoder(renderTimeLimit: 0.02).decode(pdf) }
            return (error, ContinuousClock.now - start)
        }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("time limit"), "\(error.message)")
        #expect(elapsed < .seconds(5), "the caller waited \(elapsed)")
    }

    /// Bytes flipped all over a document, and cut at many lengths: errors, no traps.
    @Test func corruptAndTruncatedDocuments() throws {
        let data = PDFMaker.pages(3)
        var random = SplitMix64(seed: 37)
        for round in 0..<48 {
            var bytes = [UInt8](data)
            for _ in 0..<(1 + round % 6) {
                bytes[Int(random.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            do {
                _ = try PDFCoder().decode(Data(bytes))
            } catch {
                #expect(error is WebImageError, "round \(round): \(error)")
            }
        }
        for length in stride(from: 5, to: data.count, by: 37) {
            do { _ = try PDFCoder().decode(data.prefix(length)) } catch { #expect(error is WebImageError) }
        }
    }
}
