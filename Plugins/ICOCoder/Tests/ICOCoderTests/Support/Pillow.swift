import Foundation
import WebImageTestSupport

/// A Python with Pillow for the conformance fixtures: `$PILLOW_PYTHON`, the system's
/// `/usr/bin/python3` (Debian's `python3-pil`), then `python3` on the `PATH`, the first that imports PIL.
enum Pillow {
    /// The interpreter, or `nil` when none has Pillow.
    static let python: Task<String?, Never> = Task {
        var candidates = ["/usr/bin/python3", "python3"]
        if let configured = ProcessInfo.processInfo.environment["PILLOW_PYTHON"] { candidates.insert(configured, at: 0) }
        for candidate in candidates where ChildProcess.path(of: candidate) != nil {
            if let outcome = try? await ChildProcess.run(candidate, ["-c", "import PIL"]), outcome.succeeded { return candidate }
        }
        return nil
    }

    /// What to install when there is no Pillow.
    static let missing = "no Python with Pillow (apt-get install python3-pil or pip install pillow, or set PILLOW_PYTHON): ICO conformance fixtures skipped"
}

/// A temporary folder removed when the value is.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("icocoder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func data(_ name: String) throws -> Data { try Data(contentsOf: url.appendingPathComponent(name)) }

    deinit { try? FileManager.default.removeItem(at: url) }
}
