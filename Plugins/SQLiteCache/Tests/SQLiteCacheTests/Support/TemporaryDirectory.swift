import Foundation

/// A fresh directory under the system's temporary directory for one test, removed with
/// everything in it when the last reference goes. No test touches the user's real cache.
final class TemporaryDirectory: Sendable {
    let url: URL

    init(_ label: String = #function) {
        let safe = String(label.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.prefix(40).map(Character.init))
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("swiftwebimage-sqlite-tests", isDirectory: true)
            .appendingPathComponent("\(safe)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A subdirectory (not created).
    func appending(_ component: String) -> URL {
        url.appendingPathComponent(component, isDirectory: true)
    }
}
