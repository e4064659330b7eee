import Foundation
import SVGCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// The core's coder contract for a decode-only coder: a 37x23 SVG of whole-pixel rectangles
/// decodes to its known pixels, is claimed, and empty, truncated and corrupt documents give a
/// `WebImageError` or an image, never a trap; a thumbnail is bounded.
@Suite(.onOwnThreads) struct ContractTests {
    /// Tolerance 1: the half-transparent part goes through cairo's premultiplied pixels.
    @Test(arguments: ImageCoderContract.Check.allCases)
    func svg(_ check: ImageCoderContract.Check) throws {
        let subject = ImageCoderContract.Subject(decoder: SVGCoder(), format: .svg, sample: Data(SVGSamples.grid.utf8), expected: SVGSamples.gridPixels, tolerance: 1)
        try ImageCoderContract.verify(check, subject: subject)
    }
}
