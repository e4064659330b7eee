import Foundation
import WebImageTestSupport
import SwiftWebImage

/// libavif's command-line tools (`avifenc`, `avifdec`, Debian package `libavif-bin`): the
/// reference encoder and decoder the conformance tests compare with. Files live in a fresh
/// temporary folder per test; tests that need the tools are skipped, saying so, without them.
enum ReferenceTools {
    /// Why the tools cannot be used, or `nil` when both are on the PATH.
    static let unavailableReason: String? = {
        let missing = ["avifenc", "avifdec"].filter { find($0) == nil }
        return missing.isEmpty ? nil : "\(missing.joined(separator: " and ")) not found on the PATH (apt-get install libavif-bin): skipped"
    }()

    static var available: Bool { unavailableReason == nil }

    /// The full path of `tool` on the PATH.
    static func find(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// A new empty temporary folder.
    static func makeFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("avifcoder-tests-\(UUID().uuidString)")
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

    /// Writes `bitmap` as a PNG at `url` (the built-in PNG coder: lossless, alpha kept).
    static func writePNG(_ bitmap: Bitmap, to url: URL) throws {
        try PNGCoder().encode(WebImage(bitmap: bitmap), as: .png).writeWithoutSync(to: url)
    }

    /// `avifdec --index` of frame `index`, as RGBA8 (`-d 8`), read back with the built-in PNG coder.
    static func referenceDecode(_ avif: URL, index: Int = 0, in folder: URL) async throws -> Bitmap {
        let png = folder.appendingPathComponent("reference-\(index)-\(UUID().uuidString).png")
        try await run("avifdec", ["-d", "8", "--index", "\(index)", avif.path, png.path])
        return try PNGCoder().decode(Data(contentsOf: png)).bitmap
    }

    struct ToolError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
