import Foundation

/// Where the public test images live: `../shared/testdata` beside the repository.
enum TestData {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/testdata")
    static let pngSuite = root.appendingPathComponent("pngsuite")
    static let sdWebImage = root.appendingPathComponent("sdwebimage")
    static let hasPNGSuite = FileManager.default.fileExists(atPath: pngSuite.path)
    static let hasSDWebImage = FileManager.default.fileExists(atPath: sdWebImage.path)

    /// The formats the built-in coders read.
    static func isSupported(_ name: String) -> Bool {
        ["png", "apng", "jpg", "jpeg", "gif"].contains((name as NSString).pathExtension.lowercased())
    }
}
