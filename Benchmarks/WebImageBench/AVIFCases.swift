import AVIFCoder
import Foundation
import SwiftWebImage

/// The AVIF cases, measured against Pillow's and libvips's AVIF support by
/// `Plugins/AVIFCoder/Benchmarks/pillow_avif_bench.py` (same names, same inputs, same work):
/// - `avif-decode`: `photo.avif` (4000x3000, 8-bit 4:2:0, made from `photo.png` by avifenc;
///   the peer script makes it when it is absent) to full-size RGBA8 pixels, one thread.
/// - `avif-encode`: `encode-src.png`'s pixels (1000x750 RGBA, decoded before timing) to lossy
///   AVIF, quality 0.8 (quantizer 13, Pillow's `quality=80`), speed 6, 4:2:0, one thread.
struct AVIFCases {
    let inputs: URL

    static let names = ["avif-decode", "avif-encode"]

    /// Cases run with half the iterations (at least 3).
    static let slowCases: Set = ["avif-encode"]

    /// Reads the inputs of case `name` and returns one run of its work.
    func prepare(_ name: String) throws -> () throws -> Any {
        let coder = AVIFCoder(speed: 6, threads: 1)
        switch name {
        case "avif-decode":
            let avif = try Data(contentsOf: inputs.appendingPathComponent("photo.avif"))
            return { try coder.decode(avif) }
        case "avif-encode":
            let source = try PNGCoder().decode(Data(contentsOf: inputs.appendingPathComponent("encode-src.png")))
            let options = ImageEncodeOptions(compressionQuality: 0.8)
            return { try coder.encode(source, as: .avif, options: options) }
        default:
            throw WebImageError(.invalidArgument, "unknown AVIF case \(name)")
        }
    }
}
