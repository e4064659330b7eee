import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageCLIKit

@Suite(.onOwnThreads) struct ContactSheetTests {
    @Test func gridSize() {
        let sheet = ContactSheet()
        #expect(sheet.size(for: 1) == PixelSize(width: 12 + 172, height: 12 + 172))
        #expect(sheet.size(for: 5) == PixelSize(width: 12 + 5 * 172, height: 12 + 172))
        #expect(sheet.size(for: 22) == PixelSize(width: 872, height: 872))
    }

    /// Opaque images cover their cells, transparent ones show the checkerboard, and every cell
    /// carries its label.
    @Test func drawsCellsAndLabels() throws {
        let red = TestImages.solid(RGBAColor(red: 255, green: 0, blue: 0), width: 40, height: 40)
        let clear = TestImages.solid(.clear, width: 40, height: 40)
        let sheet = ContactSheet()
        let bitmap = try sheet.render([("1", red), ("2", clear)])
        #expect(bitmap.size == sheet.size(for: 2))
        #expect(!bitmap.hasAlpha)
        let (x1, y1) = sheet.origin(ofCell: 0)
        #expect(bitmap[x1 + 80, y1 + 80] == RGBAColor(red: 255, green: 0, blue: 0), "scaled up to fill the cell")
        let (x2, y2) = sheet.origin(ofCell: 1)
        #expect(bitmap[x2 + 80, y2 + 80] == RGBAColor(red: 250, green: 250, blue: 250), "a transparent image shows the checkerboard")
        #expect(bitmap[x2 + 88, y2 + 80] == RGBAColor(red: 222, green: 224, blue: 228))
        // The label: a white pixel of the digit on its dark box, in the top left corner.
        #expect(bitmap[x1 + 1, y1 + 1] == RGBAColor(red: 20, green: 22, blue: 28))
        #expect(bitmap[x1 + 5, y1 + 3] == .white, "the top bar of '1' is its middle column")
        #expect(bitmap[0, 0] == sheet.background)
    }
}

@Suite struct ContactSheetFitTests {
    /// Reducing averages premultiplied pixels: a transparent neighbour lowers the alpha, never
    /// the color; enlarging repeats pixels.
    @Test func fitAveragesPremultipliedAndRepeatsWhenEnlarging() throws {
        var bitmap = try Bitmap(width: 4, height: 2, fill: .clear)
        for y in 0..<2 {
            bitmap[0, y] = RGBAColor(red: 255, green: 0, blue: 0)
            bitmap[1, y] = RGBAColor(red: 255, green: 0, blue: 0)
            bitmap[2, y] = RGBAColor(red: 255, green: 0, blue: 0)
            bitmap[3, y] = RGBAColor(red: 0, green: 0, blue: 255, alpha: 0)
        }
        let reduced = try ContactSheet().fit(bitmap, inside: 2)
        #expect(reduced.size == PixelSize(width: 2, height: 1))
        #expect(reduced[0, 0] == RGBAColor(red: 255, green: 0, blue: 0))
        #expect(reduced[1, 0] == RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
        let enlarged = try ContactSheet().fit(bitmap, inside: 8)
        #expect(enlarged.size == PixelSize(width: 8, height: 4))
        #expect(enlarged[5, 3] == RGBAColor(red: 255, green: 0, blue: 0))
        #expect(enlarged[7, 0].alpha == 0)
        #expect(throws: WebImageError.self) { try ContactSheet().fit(try Bitmap(width: 0, height: 0), inside: 8) }
    }
}
