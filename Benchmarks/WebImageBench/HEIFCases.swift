import Foundation
import HEIFCoder
import SwiftWebImage

/// The HEIC cases (issue 20), over `photo.heic` (4000x3000, made from photo.jpg by
/// `heif-enc -q 80 -t 320`: Plugins/HEIFCoder/Benchmarks/bench.sh makes it) and
/// `encode-src.png`. Their peers (pillow-heif, libvips) are in
/// Plugins/HEIFCoder/Benchmarks/heif_peer_bench.py.
struct HEIFCases {
    let inputs: URL
    let runner: BenchmarkRunner

    /// Every HEIC case.
    static let names = ["heic-decode", "heic-encode", "heic-thumbnail"]

    /// What a case measured: ours, and for heic-thumbnail the same request decoded without the
    /// stored thumbnail (full decode, then Lanczos-3), to show the speed-up.
    struct Result {
        let ours: BenchmarkRunner.Measurement
        let comparison: (name: String, measurement: BenchmarkRunner.Measurement)?
    }

    private func data(_ name: String) throws -> Data {
        let url = inputs.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw WebImageError(.invalidArgument, "\(url.path) is missing: Plugins/HEIFCoder/Benchmarks/bench.sh makes it")
        }
        return try Data(contentsOf: url)
    }

    /// Reads the inputs of case `name` and measures it.
    func run(_ name: String) throws -> Result {
        switch name {
        case "heic-decode":
            let heic = try data("photo.heic")
            return Result(ours: try runner.measure { try HEIFCoder().decode(heic) }, comparison: nil)
        case "heic-encode":
            let source = try PNGCoder().decode(data("encode-src.png"))
            let options = ImageEncodeOptions(compressionQuality: 0.8)
            return Result(ours: try runner.measure { try HEIFCoder().encode(source, as: .heic, options: options) }, comparison: nil)
        case "heic-thumbnail":
            let heic = try data("photo.heic")
            var options = ImageDecodeOptions()
            options.thumbnailPixelSize = PixelSize(width: 320, height: 320)
            let stored = try runner.measure { try HEIFCoder().decode(heic, options: options) }
            let full = try runner.measure(iterations: max(3, runner.iterations / 2)) {
                try HEIFCoder(usesEmbeddedThumbnails: false).decode(heic, options: options)
            }
            return Result(ours: stored, comparison: ("without-stored-thumbnail", full))
        default:
            throw WebImageError(.invalidArgument, "unknown HEIC case \(name)")
        }
    }
}
