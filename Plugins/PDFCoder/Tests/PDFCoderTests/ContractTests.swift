import Foundation
import PDFCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// The core's coder contract for a decode-only coder: a hand-written 37x23-point PDF of
/// whole-point rectangles renders at 72 dpi to its known pixels, is claimed, and empty,
/// truncated and corrupt documents give a `WebImageError` or an image, never a trap; a
/// thumbnail is bounded.
@Suite(.onOwnThreads) struct ContractTests {
    /// The grid's pixels: red left 20 columns, green top 10 rows of the rest, blue below.
    static var gridPixels: Bitmap {
        Pixels.make(width: 37, height: 23, hasAlpha: false) { x, y in
            if x < 20 { return RGBAColor(red: 255, green: 0, blue: 0, alpha: 255) }
            return y < 10 ? RGBAColor(red: 0, green: 255, blue: 0, alpha: 255) : RGBAColor(red: 0, green: 0, blue: 255, alpha: 255)
        }
    }

    @Test(arguments: ImageCoderContract.Check.allCases)
    func pdf(_ check: ImageCoderContract.Check) throws {
        let subject = ImageCoderContract.Subject(decoder: PDFCoder(), format: .pdf, sample: PDFMaker.grid, expected: Self.gridPixels)
        try ImageCoderContract.verify(check, subject: subject)
    }
}
