import Foundation
import WebImageTestSupport

/// libheif's command-line tools (`heif-enc`, `heif-convert`, Debian package libheif-examples),
/// run as subprocesses in a temporary folder. Tests that need them are skipped, saying so,
/// when they are not on the PATH.
enum ReferenceTools {
    /// The full path of `name` on the PATH, or `nil`.
    static func path(of name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for folder in folders {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Whether `heif-enc` and `heif-convert` are both installed.
    static let available = path(of: "heif-enc") != nil && path(of: "heif-convert") != nil


    /// Whether `heif-enc` lists an AVIF (AV1) encoder (asked once, in a test's condition).
    static func encodesAVIF() async -> Bool {
        guard available, let output = try? await run("heif-enc", ["--list-encoders"], in: FileManager.default.temporaryDirectory) else { return false }
        guard let avif = output.range(of: "AVIF encoders:") else { return false }
        return output[avif.upperBound...].contains("- ")
    }

    /// Runs tool `name` with `arguments` in `folder` (on threads of its own: see
    /// `ChildProcess`); returns its standard output.
    /// - Throws: `ChildProcess.Failure` when it exits with a non-zero status.
    @discardableResult
    static func run(_ name: String, _ arguments: [String], in folder: URL) async throws -> String {
        String(decoding: try await ChildProcess.output(of: name, arguments, in: folder), as: UTF8.self)
    }

    /// A new empty temporary folder; the caller removes it.
    static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("heifcoder-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
