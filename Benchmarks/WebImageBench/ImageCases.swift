import Foundation
import SwiftWebImage

/// The image cases of `pillow_bench.py`: same names, same input files, same work, through the
/// public API. Inputs are read and decoded before timing starts, per case, so that a run of
/// one case does not pay for the others' inputs.
struct ImageCases {
    let inputs: URL

    /// Every image case, in the peer's order.
    static let names = ["jpeg-decode", "jpeg-progressive", "jpeg-thumbnail", "png-decode", "png-encode", "jpeg-encode",
                        "gif-decode", "resize-lanczos", "resize-bilinear", "blur", "pipeline", "tagged-decode"]

    /// Cases run with half the iterations (at least 3), as the peer does for its slow ones.
    static let slowCases: Set = ["png-encode", "png-decode", "gif-decode", "blur"]

    private func data(_ name: String) throws -> Data {
        try Data(contentsOf: inputs.appendingPathComponent(name))
    }

    private func png(_ name: String) throws -> WebImage {
        try PNGCoder().decode(data(name))
    }

    /// Reads the inputs of case `name` and returns one run of its work.
    func prepare(_ name: String) throws -> () throws -> Any {
        let fit = PixelSize(width: 400, height: 300)
        var thumbnail = ImageDecodeOptions()
        thumbnail.thumbnailPixelSize = fit
        let quality80 = ImageEncodeOptions(compressionQuality: 0.8)
        // The peers' work: Pillow's and libvips' JPEG encoders write the standard Huffman tables
        // unless asked (`optimize=True`, `optimize_coding`); the coder's default optimises them
        // (about 2.1-2.5x the encoding time for 4-8% fewer bytes).
        let jpeg = JPEGCoder(optimizesHuffmanTables: false)
        switch name {
        case "jpeg-decode":
            let photo = try data("photo.jpg")
            return { try JPEGCoder().decode(photo) }
        case "jpeg-progressive":
            let progressive = try data("photo-progressive.jpg")
            return { try JPEGCoder().decode(progressive) }
        case "tagged-decode":
            // issue 31: an Adobe RGB JPEG with its profile, decoded to sRGB (lcms2). The input is
            // made by Benchmarks/peers/tagged_decode.py make (scripts/bench does it).
            let tagged = try data("photo-adobergb.jpg")
            return { try JPEGCoder().decode(tagged) }
        case "jpeg-thumbnail":
            let photo = try data("photo.jpg")
            return { try JPEGCoder().decode(photo, options: thumbnail) }
        case "png-decode":
            let png = try data("photo.png")
            return { try PNGCoder().decode(png) }
        case "png-encode":
            let source = try png("encode-src.png")
            return { try PNGCoder(compressionLevel: 6).encode(source, as: .png) }
        case "jpeg-encode":
            let image = try JPEGCoder().decode(data("photo.jpg"))
            return { try jpeg.encode(image, as: .jpeg, options: quality80) }
        case "gif-decode":
            let gif = try data("anim.gif")
            return {
                // Every frame, composited: decode lazily, then walk all frames.
                let image = try GIFCoder().decode(gif)
                var last: ImageFrame?
                for index in 0..<image.frameCount { last = try image.frame(at: index) }
                return last as Any
            }
        case "resize-lanczos":
            let rgba = try png("photo-rgba.png")
            let lanczos = ResizingTransformer.resize(to: fit, mode: .fill, filter: .lanczos3)
            return { try lanczos.transform(rgba, forKey: "bench") }
        case "resize-bilinear":
            let rgba = try png("photo-rgba.png")
            let bilinear = ResizingTransformer.resize(to: fit, mode: .fill, filter: .bilinear)
            return { try bilinear.transform(rgba, forKey: "bench") }
        case "blur":
            let source = try png("blur-src.png")
            let blur = BlurTransformer.blur(radius: 10)
            return { try blur.transform(source, forKey: "bench") }
        case "pipeline":
            let photo = try data("photo.jpg")
            return {
                let small = try JPEGCoder().decode(photo, options: thumbnail)
                return try jpeg.encode(small, as: .jpeg, options: quality80)
            }
        default:
            throw WebImageError(.invalidArgument, "unknown image case \(name)")
        }
    }
}
