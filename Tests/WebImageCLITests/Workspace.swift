import Foundation
import WebImageTestSupport

/// A fresh directory for one test, removed when the test's suite value goes: input files, outputs,
/// caches and the subprocess's `HOME`.
final class Workspace: Sendable {
    let url: URL

    init(_ label: String = #function) {
        let safe = String(label.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.prefix(40).map(Character.init))
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("swiftwebimage-cli-tests", isDirectory: true)
            .appendingPathComponent("\(safe)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url.appendingPathComponent("home"), withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The subprocess's `HOME` (its `XDG_CACHE_HOME` is `home/cache`), apart from the files the
    /// tests look at: Foundation creates folders there.
    var home: URL { url.appendingPathComponent("home", isDirectory: true) }

    /// A path inside the workspace (not created).
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes `data` to `name` and returns its path.
    @discardableResult
    func write(_ data: Data, to name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.writeWithoutSync(to: file)
        return file.path
    }

    /// The names in directory `name` (the workspace itself for ""), hidden ones included, sorted.
    func contents(of name: String = "") -> [String] {
        let directory = name.isEmpty ? url : url.appendingPathComponent(name)
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }
}
