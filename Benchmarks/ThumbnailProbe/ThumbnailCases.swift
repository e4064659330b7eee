import Foundation
import SwiftWebImage

/// The streaming-thumbnail cases (issue 21), run by `scripts/png-thumbnail-bench`, which makes
/// their inputs (`thumb-8k.png` and `thumb-8k-interlaced.png`: 8000x8000 photo-like PNGs) and
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
struct ThumbnailCases {
    let inputs: URL

    /// Every case.
    static let names = [
        "png-thumbnail", "png-thumbnail-interlaced", "png-thumbnail-data", "png-thumbnail-data-interlaced",
        "png-decode-8k", "png-decode-8k-interlaced",
    ]

    /// Reads the input of case `name` and returns one run of its work.
    func prepare(_ name: String) throws -> () throws -> Any {
        let file = name.hasSuffix("interlaced") ? "thumb-8k-interlaced.png" : "thumb-8k.png"
        let url = inputs.appendingPathComponent(file)
        var options = ImageDecodeOptions()
        if name.hasPrefix("png-thumbnail") {
            options.thumbnailPixelSize = PixelSize(width: 400, height: 300)
        }
        // The default per-frame limit is 50 MP; 8000x8000 is 64 MP.
        options.maxPixelCount = 64_000_000
        options.maxTotalPixelCount = 64_000_000
        // The image is dropped inside the run (only its size reaches the runner's sink, which
        // keeps the last result alive during the next run): a full decode's peak RSS is then one
        // bitmap, not two.
        if name.hasPrefix("png-thumbnail"), !name.hasPrefix("png-thumbnail-data") {
            return { try PNGCoder().decode(contentsOf: url, options: options).pixelSize }
        }
        let data = try Data(contentsOf: url)
        return { try PNGCoder().decode(data, options: options).pixelSize }
    }
}
