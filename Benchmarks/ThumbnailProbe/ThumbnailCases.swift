import Foundation
import WebImageCoders
import WebImageCore

/// The streaming-thumbnail cases (issues 21 and 36) of `webimage-thumbnail-probe`, run by
/// `scripts/png-thumbnail-bench`, which makes their inputs (`thumb-8k.png` and `thumb-8k-interlaced.png`: 8000x8000 photo-like PNGs,
/// about 80 MB each with the default grain; `thumb-12k.jpg`: a 12000x8000 baseline JPEG) and
/// runs each case in a child process of its own so that its peak RSS can be read next to its
/// time. Not in the default set: the inputs are not among `make_inputs.py`'s.
///
/// - `png-thumbnail`: the 8000x8000 PNG file decoded to fit 400x300 (what libvips' `thumbnail`
///   does) with `PNGCoder.decode(contentsOf:options:)`, which reads the file a piece at a time.
/// - `png-thumbnail-interlaced`: the same pixels, Adam7 interlaced.
/// - `png-thumbnail-data`, `png-thumbnail-data-interlaced`: the same thumbnails from the file's
///   bytes in memory (`decode(_:options:)` on a `Data` read before timing).
/// - `png-decode-8k`, `png-decode-8k-interlaced`: the full decode of the same files, for the
///   peak RSS a thumbnail is compared with.
/// - `jpeg-12k-thumbnail`, `jpeg-12k-thumbnail-data`, `jpeg-decode-12k`: the same three for the
///   12000x8000 JPEG (`JPEGCoder.decode(contentsOf:options:)`: libjpeg reads the file through a
///   64 KiB buffer and decodes at 1/8 scale).
struct ThumbnailCases {
    let inputs: URL

    /// Every case.
    static let names = [
        "png-thumbnail", "png-thumbnail-interlaced", "png-thumbnail-data", "png-thumbnail-data-interlaced",
        "png-decode-8k", "png-decode-8k-interlaced", "jpeg-12k-thumbnail", "jpeg-12k-thumbnail-data", "jpeg-decode-12k",
    ]

    /// Reads the input of case `name` and returns one run of its work.
    func prepare(_ name: String) throws -> () throws -> Any {
        let isJPEG = name.hasPrefix("jpeg")
        let file = isJPEG ? "thumb-12k.jpg" : name.hasSuffix("interlaced") ? "thumb-8k-interlaced.png" : "thumb-8k.png"
        let url = inputs.appendingPathComponent(file)
        var options = ImageDecodeOptions()
        if name.contains("-thumbnail") {
            options.thumbnailPixelSize = PixelSize(width: 400, height: 300)
        }
        // The default per-frame limit is 50 MP; 8000x8000 is 64 MP, 12000x8000 96 MP.
        options.maxPixelCount = 96_000_000
        options.maxTotalPixelCount = 96_000_000
        // The image is dropped inside the run (only its size reaches the runner's sink, which
        // keeps the last result alive during the next run): a full decode's peak RSS is then one
        // bitmap, not two.
        let fromFile = name.contains("-thumbnail") && !name.contains("-thumbnail-data")
        if fromFile {
            if isJPEG { return { try JPEGCoder().decode(contentsOf: url, options: options).pixelSize } }
            return { try PNGCoder().decode(contentsOf: url, options: options).pixelSize }
        }
        let data = try Data(contentsOf: url)
        if isJPEG { return { try JPEGCoder().decode(data, options: options).pixelSize } }
        return { try PNGCoder().decode(data, options: options).pixelSize }
    }
}
