public import Foundation

/// The public test images beside the repository, in `../shared/testdata` (SDWebImage's test
/// images in `sdwebimage/`, PngSuite in `pngsuite/`). Tests that use them skip, saying why,
/// when they are absent: they are not part of the repository.
public enum SharedTestData {
    /// `<folder holding the repository>/shared/testdata` (found from this file's place,
    /// `<repository>/Sources/WebImageTestSupport/`).
    public static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }  // up to the folder that holds the repository
        return url.appendingPathComponent("shared/testdata")
    }()
    /// SDWebImage's test images.
    public static let sdWebImage = root.appendingPathComponent("sdwebimage")

    /// The SDWebImage test image `name`.
    /// - Parameter name: A file name, such as `TestImage.heic`.
    public static func sdWebImage(_ name: String) -> URL { sdWebImage.appendingPathComponent(name) }
    /// Whether the SDWebImage test image `name` is there.
    /// - Parameter name: A file name, such as `TestImage.heic`.
    public static func has(_ name: String) -> Bool { FileManager.default.fileExists(atPath: sdWebImage(name).path) }
}
