import Foundation
import PDFCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// The coder's pixels against poppler's own `pdftocairo` at the same size, for a PDF written
/// by cairo (`rsvg-convert -f pdf` of shapes with gradients and transparency) and the
/// hand-written grid.
@Suite(.onOwnThreads) struct ConformanceTests {
    static let shapes = """
        <svg xmlns="http://www.w3.org/2000/svg" width="120" height="90" viewBox="0 0 120 90">
          <defs>
            <linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
              <stop offset="0" stop-color="#ff8800"/><stop offset="1" stop-color="#0044ff"/>
            </linearGradient>
          </defs>
          <rect x="4" y="4" width="112" height="82" rx="12" fill="url(#g)"/>
          <circle cx="40" cy="45" r="30" fill="#22aa44" fill-opacity="0.6" stroke="#333" stroke-width="3"/>
          <path d="M70 20 L110 70 Q90 85 70 70 Z" fill="#c0f" fill-opacity="0.7"/>
        </svg>
        """

    /// `pdf`'s first page drawn at exactly `size` (the size pdftocairo is asked for), on a thread
    /// of its own.
    static func decode(_ pdf: Data, at size: PixelSize) async throws -> WebImage {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = size
        options.preserveAspectRatio = false
        let fixed = options
        return try await OwnThread.run { try PDFCoder().decode(pdf, options: fixed) }
    }

    static func compare(_ image: Bitmap, _ reference: Bitmap, _ name: String) {
        #expect(image.size == reference.size, "\(name)")
        let difference = Pixels.compare(image, reference, includeAlpha: false)
        #expect(difference.max <= 8, "\(name): worst channel difference \(difference.max)")
        #expect(difference.mean < 1.0, "\(name): mean difference \(difference.mean)")
    }

    @Test(.enabled(if: ReferenceTools.hasPDFToCairo && ReferenceTools.hasRSVGConvert, ReferenceTools.missingTools),
          arguments: [PixelSize(width: 120, height: 90), PixelSize(width: 300, height: 225), PixelSize(width: 64, height: 48)])
    func cairoWrittenPDFMatchesPDFToCairo(_ size: PixelSize) async throws {
        // rsvg-convert writes the 120x90 px document as a 90x67.5-point page (96 dpi pixels).
        let pdf = try await ReferenceTools.pdf(fromSVG: Self.shapes)
        let reference = try await ReferenceTools.render(pdf, width: size.width, height: size.height)
        let image = try await ConformanceTests.decode(pdf, at: size)
        Self.compare(image.bitmap, reference, "shapes at \(size)")
    }

    @Test(.enabled(if: ReferenceTools.hasPDFToCairo, ReferenceTools.missingPDFToCairo))
    func gridMatchesPDFToCairo() async throws {
        let reference = try await ReferenceTools.render(PDFMaker.grid, width: 37, height: 23)
        let image = try await OwnThread.run { try PDFCoder().decode(PDFMaker.grid) }
        #expect(image.pixelSize == PixelSize(width: 37, height: 23))
        Self.compare(image.bitmap, reference, "grid")
    }
}
