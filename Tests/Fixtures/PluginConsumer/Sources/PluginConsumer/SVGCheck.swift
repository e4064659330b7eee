import Foundation
import SVGCoder
import SwiftWebImage

/// SVGCoder: registered with one line, then the shared coders draw an SVG document at the
/// thumbnail size asked for.
enum SVGCheck {
    @Sendable static func run() async throws -> String {
        CodersManager.shared.add(SVGCoder())
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200"><rect width="400" height="200" fill="red"/></svg>"#.utf8)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 64, height: 64)
        let image = try CodersManager.shared.decode(svg, options: options)
        guard image.format == .svg, image.pixelSize == PixelSize(width: 64, height: 32), image.bitmap[10, 10].red == 255 else {
            throw CheckFailure("the SVG decoded to \(image.format) \(image.pixelSize), not a red 64x32 svg image")
        }
        return "registered; a 400x200 document drawn at \(image.pixelSize) through CodersManager.shared"
    }
}
