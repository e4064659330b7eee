import Foundation
import JXLCoder
import SwiftWebImage

/// The JPEG XL cases (the JXLCoder plug-in), matched by
/// `Plugins/JXLCoder/Benchmarks/jxl_peer_bench.py` (pillow-jxl-plugin and djxl, same inputs).
///
/// - `jxl-decode`: `photo.jxl` (cjxl -d 1 -e 7 of `photo.png`, made by the peer script) to
///   RGBA8 on one thread (no libjxl thread runner);
/// - `jxl-decode-threads`: the same with libjxl's thread runner of 2 workers, for peers that
///   use threads;
/// - `jxl-encode`: `photo.png`'s pixels to lossy JPEG XL at quality 0.9 (distance 1), effort 7,
///   one thread.
struct JXLCases {
    let inputs: URL

    /// Every JPEG XL case.
    static let names = ["jxl-decode", "jxl-decode-threads", "jxl-encode"]

    /// Reads the inputs of case `name` and returns one run of its work.
    func prepare(_ name: String) throws -> () throws -> Any {
        switch name {
        case "jxl-decode", "jxl-decode-threads":
            let url = inputs.appendingPathComponent("photo.jxl")
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw WebImageError(.invalidArgument, "\(url.path) is absent: run Plugins/JXLCoder/Benchmarks/jxl_peer_bench.py INPUT_DIR first (it makes it with cjxl)")
            }
            let data = try Data(contentsOf: url)
            let coder = JXLCoder(threads: name == "jxl-decode" ? 1 : 2)
            return { try coder.decode(data) }
        case "jxl-encode":
            let image = try PNGCoder().decode(Data(contentsOf: inputs.appendingPathComponent("photo.png")))
            let options = ImageEncodeOptions(compressionQuality: 0.9)
            return { try JXLCoder(effort: 7).encode(image, as: .jpegXL, options: options) }
        default:
            throw WebImageError(.invalidArgument, "unknown JPEG XL case \(name)")
        }
    }
}
