public import Foundation

/// A Python with Pillow for conformance fixtures and references: `$PILLOW_PYTHON`, the system's
/// `/usr/bin/python3` (Debian's `python3-pil`), then `python3` on the `PATH`, the first that
/// imports PIL (used by the TIFF and ICO plug-ins' tests).
public enum Pillow {
    /// The interpreter, or `nil` when none has Pillow.
    public static let python: Task<String?, Never> = Task {
        var candidates = ["/usr/bin/python3", "python3"]
        if let configured = ProcessInfo.processInfo.environment["PILLOW_PYTHON"] { candidates.insert(configured, at: 0) }
        for candidate in candidates where ChildProcess.path(of: candidate) != nil {
            if let outcome = try? await ChildProcess.run(candidate, ["-c", "import PIL"]), outcome.succeeded { return candidate }
        }
        return nil
    }

    /// The message of a test skipped for want of Pillow: what to install, and what was skipped.
    /// - Parameter what: What the test skips (`"TIFF conformance fixtures"`).
    public static func skipMessage(_ what: String) -> String {
        "no Python with Pillow (apt-get install python3-pil or pip install pillow, or set PILLOW_PYTHON): \(what) skipped"
    }
}

/// A temporary folder, removed when the value is.
public final class TemporaryFolder: Sendable {
    /// Where it is.
    public let url: URL

    /// A new empty folder in the temporary directory.
    /// - Parameter prefix: The start of its name (a UUID follows).
    /// - Throws: The file system's error when it cannot be made.
    public init(prefix: String = "webimage-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of the file `name` in the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The contents of the file `name` in the folder.
    /// - Throws: The file system's error when it cannot be read.
    public func data(_ name: String) throws -> Data { try Data(contentsOf: url.appendingPathComponent(name)) }

    deinit { try? FileManager.default.removeItem(at: url) }
}
