import Foundation

// webimage-thumbnail-probe INPUT_DIR --cases NAME [--iterations N]
// Runs one ThumbnailCases case once as a warm-up and N times (default 3), then prints
// {"case", "median_ms", "min_ms", "iterations"}. scripts/png-thumbnail-bench reads its peak RSS
// (ru_maxrss) from wait4. Build with `-c release`.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("webimage-thumbnail-probe: \(message)\n".utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var iterations = 3
var name: String?
var inputPath: String?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--iterations":
        guard let value = arguments.first.flatMap(Int.init), value > 0 else { fail("--iterations needs a positive number") }
        iterations = value
        arguments.removeFirst()
    case "--cases":
        guard let value = arguments.first, ThumbnailCases.names.contains(value) else {
            fail("--cases needs one of \(ThumbnailCases.names.joined(separator: ", "))")
        }
        name = value
        arguments.removeFirst()
    default:
        guard inputPath == nil else { fail("unexpected argument \(argument)") }
        inputPath = argument
    }
}
guard let inputPath, let name else { fail("usage: webimage-thumbnail-probe INPUT_DIR --cases NAME [--iterations N]") }
do {
    let body = try ThumbnailCases(inputs: URL(fileURLWithPath: inputPath)).prepare(name)
    _ = try body()
    var samples: [Double] = []
    for _ in 0..<iterations {
        let start = ContinuousClock.now
        _ = try body()
        let elapsed = ContinuousClock.now - start
        samples.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    samples.sort()
    print("{\"case\": \"\(name)\", " + String(format: "\"median_ms\": %.3f, \"min_ms\": %.3f, ", samples[samples.count / 2], samples[0]) + "\"iterations\": \(iterations)}")
} catch {
    fail("\(name) failed: \(error) (inputs: \(inputPath), made by scripts/png-thumbnail-bench)")
}
