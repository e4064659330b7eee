import Foundation
import SVGCoder
import SwiftWebImage
import TIFFCoder

/// The TIFF and SVG cases (issue 37), measured against libvips by
/// `Benchmarks/peers/formats_vips.py` (same names, same inputs, same output sizes; its `make`
/// writes the inputs from `photo.jpg` and a fixed seed):
/// - `tiff-decode`: `photo.tiff` (3600x2700 8-bit RGB, deflate with the horizontal predictor, in
///   strips) to full-size RGBA8 pixels;
/// - `svg-render-icon`: `icons.svg` (an icon set, declared 128x128) drawn at 256x256;
/// - `svg-render-illustration`: `illustration.svg` (400 paths, shapes and gradients, no text,
///   declared 512x512) drawn at 1024x1024.
/// The SVG size is asked as a request would ask it: `thumbnailPixelSize`.
struct FormatCases {
    let inputs: URL

    static let names = ["tiff-decode", "svg-render-icon", "svg-render-illustration"]

    private func data(_ name: String) throws -> Data {
        let url = inputs.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw WebImageError(.invalidArgument, "\(url.path) is absent: run Benchmarks/peers/formats_vips.py make \(inputs.path) first")
        }
        return try Data(contentsOf: url)
    }

    /// Reads the inputs of case `name` and returns one run of its work.
    func prepare(_ name: String) throws -> () throws -> Any {
        switch name {
        case "tiff-decode":
            let tiff = try data("photo.tiff")
            let image = try TIFFCoder().decode(tiff)
            guard image.pixelSize == PixelSize(width: 3600, height: 2700) else {
                throw WebImageError(.invalidArgument, "photo.tiff decoded to \(image.pixelSize), not 3600x2700: remake it with formats_vips.py make")
            }
            return { try TIFFCoder().decode(tiff) }
        case "svg-render-icon", "svg-render-illustration":
            let icon = name == "svg-render-icon"
            let svg = try data(icon ? "icons.svg" : "illustration.svg")
            let side = icon ? 256 : 1024
            var options = ImageDecodeOptions()
            options.thumbnailPixelSize = PixelSize(width: side, height: side)
            // Checked once before timing (as the TIFF's size above): the peer draws the same size.
            let image = try SVGCoder().decode(svg, options: options)
            guard image.pixelSize == PixelSize(width: side, height: side) else {
                throw WebImageError(.invalidArgument, "\(name) drew \(image.pixelSize), not \(side)x\(side)")
            }
            return { try SVGCoder().decode(svg, options: options) }
        default:
            throw WebImageError(.invalidArgument, "unknown format case \(name)")
        }
    }
}
