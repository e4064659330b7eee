public import Foundation

/// The libraries' own test files that `scripts/conformance-fixtures` fetches (Pillow's and
/// libtiff's TIFFs, librsvg's reference tests): in `$WEBIMAGE_CONFORMANCE_FIXTURES`, else in
/// `<repository>/.build/conformance-fixtures`. They are not part of the repository; tests that
/// use them skip, saying how to fetch them, when a part is absent.
public enum ConformanceFixtures {
    /// The folder the script fills.
    public static let root: URL = {
        if let configured = ProcessInfo.processInfo.environment["WEBIMAGE_CONFORMANCE_FIXTURES"], !configured.isEmpty {
            return URL(fileURLWithPath: configured, isDirectory: true)
        }
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // up to the repository
        return url.appendingPathComponent(".build/conformance-fixtures", isDirectory: true)
    }()

    /// The folder of part `part` (`"tiff/pillow"`, `"svg/librsvg"`), or `nil` when the script has
    /// not completed it (no `.complete` marker).
    public static func folder(_ part: String) -> URL? {
        let folder = root.appendingPathComponent(part, isDirectory: true)
        let marker = folder.appendingPathComponent(".complete")
        return FileManager.default.fileExists(atPath: marker.path) ? folder : nil
    }

    /// The message of a test skipped because part `part` is absent.
    public static func skipMessage(_ part: String) -> String {
        "\(root.path)/\(part) is absent (run scripts/conformance-fixtures, or set WEBIMAGE_CONFORMANCE_FIXTURES): skipped"
    }

    /// The names of the regular files directly in `folder` that `include` accepts, sorted.
    public static func files(in folder: URL, where include: (String) -> Bool = { _ in true }) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && include($0) }.sorted()
    }
}
