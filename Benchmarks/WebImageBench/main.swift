import Foundation
import SwiftWebImage

// webimage-bench INPUT_DIR [--iterations N] [--cases a,b,...]
// Prints one JSON object per case: {"case", "median_ms", "min_ms", "iterations"} and, for cases
// with a peer other than Pillow, "peer" and "peer_ms". Build with `-c release`.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("webimage-bench: \(message)\n".utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
// The download cases' origin server, run by them as a child process of this executable.
if arguments.first == "--loopback-origin" { LoopbackOrigin.serve(Array(arguments.dropFirst())) }
var iterations = 7
var wanted: [String] = []
var inputPath: String?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--iterations":
        guard let value = arguments.first.flatMap(Int.init), value > 0 else { fail("--iterations needs a positive number") }
        iterations = value
        arguments.removeFirst()
    case "--cases":
        guard let value = arguments.first else { fail("--cases needs a list") }
        wanted = value.split(separator: ",").map(String.init)
        arguments.removeFirst()
    case "--list-peer-cases":
        print(PeerCases.names.joined(separator: ","))
        exit(0)
    case "-h", "--help":
        print("usage: webimage-bench INPUT_DIR [--iterations N] [--cases a,b,...]")
        print("image cases: \(ImageCases.names.joined(separator: ", "))")
        print("peer cases:  \(PeerCases.names.joined(separator: ", "))")
        print("throughput:  \(ThroughputCase.names.joined(separator: ", ")) (peer: Benchmarks/peers/vips_throughput.py)")
        print("HEIC cases:  \(HEIFCases.names.joined(separator: ", ")) (inputs: Plugins/HEIFCoder/Benchmarks/bench.sh)")
        print("JPEG XL cases: \(JXLCases.names.joined(separator: ", "))")
        print("AVIF cases:  \(AVIFCases.names.joined(separator: ", "))")
        print("TIFF and SVG cases: \(FormatCases.names.joined(separator: ", ")) (inputs and libvips peer: Benchmarks/peers/formats_vips.py)")
        print("thumbnail cases: webimage-thumbnail-probe (scripts/png-thumbnail-bench)")
        exit(0)
    default:
        guard inputPath == nil else { fail("unexpected argument \(argument)") }
        inputPath = argument
    }
}
guard let inputPath else { fail("usage: webimage-bench INPUT_DIR [--iterations N] [--cases a,b,...]") }
let inputs = URL(fileURLWithPath: inputPath)
let runner = BenchmarkRunner(iterations: iterations)
if wanted.isEmpty { wanted = ImageCases.names + PeerCases.names + AVIFCases.names }

func emit(_ name: String, _ measurement: BenchmarkRunner.Measurement, peer: (name: String, measurement: BenchmarkRunner.Measurement)? = nil, extra: [String: Double] = [:]) {
    var fields: [(String, String)] = [
        ("case", "\"\(name)\""),
        ("median_ms", String(format: "%.3f", measurement.median)),
        ("min_ms", String(format: "%.3f", measurement.minimum)),
        ("iterations", "\(measurement.iterations)"),
    ]
    if let peer {
        fields.append(("peer", "\"\(peer.name)\""))
        fields.append(("peer_ms", String(format: "%.3f", peer.measurement.median)))
    }
    for (key, value) in extra.sorted(by: { $0.key < $1.key }) { fields.append((key, String(format: "%.3f", value))) }
    let line = "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}\n"
    FileHandle.standardOutput.write(Data(line.utf8))
}

for name in wanted where ImageCases.names.contains(name) {
    let count = ImageCases.slowCases.contains(name) ? max(3, iterations / 2) : iterations
    do {
        let body = try ImageCases(inputs: inputs).prepare(name)
        emit(name, try runner.measure(iterations: count, body))
    } catch {
        FileHandle.standardError.write(Data("webimage-bench: \(name) failed: \(error) (inputs: \(inputPath), made by make_inputs.py)\n".utf8))
    }
}
for name in wanted where JXLCases.names.contains(name) {
    do {
        let body = try JXLCases(inputs: inputs).prepare(name)
        emit(name, try runner.measure(iterations: name == "jxl-encode" ? max(3, iterations / 2) : iterations, body))
    } catch {
        FileHandle.standardError.write(Data("webimage-bench: \(name) failed: \(error)\n".utf8))
    }
}
for name in wanted where AVIFCases.names.contains(name) {
    let count = AVIFCases.slowCases.contains(name) ? max(3, iterations / 2) : iterations
    do {
        let body = try AVIFCases(inputs: inputs).prepare(name)
        emit(name, try runner.measure(iterations: count, body))
    } catch {
        FileHandle.standardError.write(Data("webimage-bench: \(name) failed: \(error) (inputs: \(inputPath); photo.avif is made by Plugins/AVIFCoder/Benchmarks/pillow_avif_bench.py)\n".utf8))
    }
}
for name in wanted where FormatCases.names.contains(name) {
    do {
        let body = try FormatCases(inputs: inputs).prepare(name)
        emit(name, try runner.measure(iterations: iterations, body))
    } catch {
        FileHandle.standardError.write(Data("webimage-bench: \(name) failed: \(error)\n".utf8))
    }
}
for name in wanted where PeerCases.names.contains(name) {
    do {
        let result = try await PeerCases(runner: runner).run(name)
        emit(name, result.ours, peer: result.peer, extra: result.extra)
    } catch {
        FileHandle.standardError.write(Data("webimage-bench: \(name) failed: \(error)\n".utf8))
    }
}
for name in wanted where ThroughputCase.names.contains(name) {
    do {
        let (measurement, extra) = try ThroughputCase(inputs: inputs, runner: runner).run()
        emit(name, measurement, extra: extra)
    } catch {
        FileHandle.standardError.write(Data("webimage-bench: \(name) failed: \(error) (inputs: \(inputPath), made by make_inputs.py)\n".utf8))
    }
}
for name in wanted where HEIFCases.names.contains(name) {
    do {
        let result = try HEIFCases(inputs: inputs, runner: runner).run(name)
        emit(name, result.ours, peer: result.comparison)
    } catch {
        FileHandle.standardError.write(Data("webimage-bench: \(name) failed: \(error)\n".utf8))
    }
}
for name in wanted where !ImageCases.names.contains(name) && !PeerCases.names.contains(name) && !ThroughputCase.names.contains(name) && !HEIFCases.names.contains(name) && !JXLCases.names.contains(name) && !AVIFCases.names.contains(name) && !FormatCases.names.contains(name) {
    FileHandle.standardError.write(Data("webimage-bench: unknown case \(name)\n".utf8))
}
