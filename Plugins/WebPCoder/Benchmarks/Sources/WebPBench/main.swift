// usage: WebPBench INPUT_DIR [--iterations N] [--cases webp-decode,webp-encode]
// Prints one JSON object per case, as pillow_bench.py does:
//   {"case": NAME, "median_ms": M, "min_ms": m, "iterations": N}
// The cases (pillow_webp_bench.py does the same with Pillow):
//   webp-decode  photo.webp -> full-size pixels (RGBA8 here; Pillow keeps the file's RGB)
//   webp-encode  encode-src.png pixels (already decoded) -> lossy WebP bytes, quality 80, method 4
import Foundation
import SwiftWebImage
import WebPCoder

let arguments = CommandLine.arguments.dropFirst()
guard let inputPath = arguments.first else {
    FileHandle.standardError.write(Data("usage: WebPBench INPUT_DIR [--iterations N] [--cases a,b]\n".utf8))
    exit(2)
}
var iterations = 7
var wanted = ["webp-decode", "webp-encode"]
var index = arguments.index(after: arguments.startIndex)
while index < arguments.endIndex {
    let flag = arguments[index]
    let value = arguments.index(after: index) < arguments.endIndex ? arguments[arguments.index(after: index)] : ""
    switch flag {
    case "--iterations": iterations = max(1, Int(value) ?? iterations)
    case "--cases": wanted = value.split(separator: ",").map(String.init)
    default: break
    }
    index = arguments.index(index, offsetBy: 2, limitedBy: arguments.endIndex) ?? arguments.endIndex
}
let inputs = URL(fileURLWithPath: inputPath)

/// One warm-up run, then `count` timed runs: (median, minimum) in milliseconds.
func timed(_ count: Int, _ work: () throws -> Any) rethrows -> (Double, Double) {
    _ = try work()
    var times: [Double] = []
    for _ in 0..<count {
        let start = ContinuousClock.now
        _ = try work()
        let elapsed = ContinuousClock.now - start
        times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    times.sort()
    let middle = times.count / 2
    let median = times.count % 2 == 1 ? times[middle] : (times[middle - 1] + times[middle]) / 2
    return (median, times[0])
}

do {
    for name in wanted {
        let work: () throws -> Any
        switch name {
        case "webp-decode":
            let data = try Data(contentsOf: inputs.appendingPathComponent("photo.webp"))
            work = { try WebPCoder().decode(data) }
        case "webp-encode":
            let source = try PNGCoder().decode(try Data(contentsOf: inputs.appendingPathComponent("encode-src.png")))
            let options = ImageEncodeOptions(compressionQuality: 0.8)
            work = { try WebPCoder(lossless: false, method: 4).encode(source, as: .webp, options: options) }
        default:
            throw WebImageError(.invalidArgument, "unknown case \(name)")
        }
        let (median, minimum) = try timed(iterations, work)
        let line = String(format: "{\"case\": \"%@\", \"median_ms\": %.3f, \"min_ms\": %.3f, \"iterations\": %d}", name, median, minimum, iterations)
        print(line)
    }
} catch {
    FileHandle.standardError.write(Data("WebPBench: \(error)\n".utf8))
    exit(1)
}
