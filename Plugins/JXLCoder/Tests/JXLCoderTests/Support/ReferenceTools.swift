import Foundation
import WebImageTestSupport
import Testing
import WebImageCore

/// The reference encoder and decoder of libjxl (`cjxl`, `djxl`, Debian `libjxl-tools`), run as
/// subprocesses in a temporary folder; tests that need them skip, saying so, when absent.
enum ReferenceTools {
    /// The path of `name` on `PATH`, or `nil`.
    static func path(of name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether both cjxl and djxl are installed.
    static let available = path(of: "cjxl") != nil && path(of: "djxl") != nil
    static let skipMessage: Comment = "cjxl/djxl (libjxl-tools) are not installed: the reference-file tests are skipped"

    /// A new empty temporary folder.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("jxlcoder-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `tool` with `arguments` (on threads of its own: see `ChildProcess`); throws with
    /// its output when it fails.
    static func run(_ tool: String, _ arguments: [String]) async throws {
        let outcome = try await ChildProcess.run(tool, arguments, mergingErrors: true)
        guard outcome.succeeded else {
            throw ToolError(message: "\(tool) \(arguments.joined(separator: " ")) failed (\(outcome.status)): \(outcome.outputText.suffix(800))")
        }
    }

    /// `source` (a PNG, PPM or PFM file's bytes, named with `ext`) encoded by cjxl with `flags`.
    static func cjxl(_ source: Data, ext: String, flags: [String], in folder: URL) async throws -> Data {
        let input = folder.appendingPathComponent("in-\(UUID().uuidString).\(ext)")
        let output = folder.appendingPathComponent("out-\(UUID().uuidString).jxl")
        try source.writeWithoutSync(to: input)
        try await run("cjxl", [input.path, output.path, "--quiet"] + flags)
        return try Data(contentsOf: output)
    }

    /// `jxl` decoded by djxl to an 8-bit (A)PNG file's bytes.
    static func djxl(_ jxl: Data, in folder: URL) async throws -> Data {
        let input = folder.appendingPathComponent("ref-\(UUID().uuidString).jxl")
        let output = folder.appendingPathComponent("ref-\(UUID().uuidString).png")
        try jxl.writeWithoutSync(to: input)
        try await run("djxl", [input.path, output.path, "--bits_per_sample=8", "--quiet"])
        return try Data(contentsOf: output)
    }

    /// `jxl` decoded by djxl to a PPM (`ext` "ppm": 16-bit samples for a 16-bit image) or a PFM
    /// (`ext` "pfm": 32-bit float), converted to RGBA8 here by rounding v x 255 / maxval
    /// (clamped): the reference for images of more than 8 bits, for which djxl 0.7 writes 16-bit
    /// PNGs whatever `--bits_per_sample` says. No alpha.
    static func djxlHighDepth(_ jxl: Data, ext: String, in folder: URL) async throws -> Bitmap {
        let input = folder.appendingPathComponent("ref-\(UUID().uuidString).jxl")
        let output = folder.appendingPathComponent("ref-\(UUID().uuidString).\(ext)")
        try jxl.writeWithoutSync(to: input)
        try await run("djxl", [input.path, output.path, "--quiet"])
        let data = [UInt8](try Data(contentsOf: output))
        // The header: magic, width, height, maxval or scale, each ended by whitespace.
        var fields: [String] = [], field = "", offset = 0
        while fields.count < 4, offset < data.count {
            let byte = data[offset]
            offset += 1
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                if !field.isEmpty { fields.append(field); field = "" }
            } else {
                field.append(Character(UnicodeScalar(byte)))
            }
        }
        guard fields.count == 4, let width = Int(fields[1]), let height = Int(fields[2]), let scale = Double(fields[3]) else {
            throw ToolError(message: "djxl wrote a file this test cannot read: \(fields)")
        }
        let isFloat = fields[0] == "PF"
        let sampleBytes = isFloat ? 4 : (scale > 255 ? 2 : 1)
        guard isFloat || fields[0] == "P6", data.count - offset >= width * height * 3 * sampleBytes else {
            throw ToolError(message: "djxl wrote a file this test cannot read: \(fields)")
        }
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for row in 0..<height {
            let y = isFloat ? height - 1 - row : row  // PFM rows run bottom to top
            for x in 0..<width {
                for channel in 0..<3 {
                    let at = offset + ((row * width + x) * 3 + channel) * sampleBytes
                    let value: Double
                    if isFloat {
                        let raw = data[at..<at + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                        let bits = scale < 0 ? raw.byteSwapped : raw  // negative scale: little-endian
                        value = Double(Float(bitPattern: bits))
                    } else if sampleBytes == 2 {
                        value = Double(Int(data[at]) << 8 | Int(data[at + 1])) / scale
                    } else {
                        value = Double(data[at]) / scale
                    }
                    bytes[(y * width + x) * 4 + channel] = UInt8(min(255, max(0, (value * 255).rounded())))
                }
            }
        }
        return try Bitmap(width: width, height: height, bytes: bytes, hasAlpha: false)
    }

    struct ToolError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
