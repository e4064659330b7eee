import Foundation

/// Where the public test images live: `../shared/testdata` beside the repository (this file is
/// in `<repository>/Plugins/HEIFCoder/Tests/HEIFCoderTests/Support/`).
enum TestData {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<7 { url.deleteLastPathComponent() }  // up to the folder that holds the repository
        return url.appendingPathComponent("shared/testdata")
    }()
    static let sdWebImage = root.appendingPathComponent("sdwebimage")

    static func sdWebImage(_ name: String) -> URL { sdWebImage.appendingPathComponent(name) }
    static func has(_ name: String) -> Bool { FileManager.default.fileExists(atPath: sdWebImage(name).path) }
    /// Whether the SDWebImage HEIF files and the reference tools are all there.
    static let hasHEIFFixtures = ["TestImage.heic", "TestImage.heif", "TestHDR.heic", "TestImageAnimated.heics"].allSatisfy(has) && ReferenceTools.available
}
