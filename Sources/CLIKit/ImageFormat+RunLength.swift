package import SwiftWebImage

extension ImageFormat {
    /// WIRL, the made-up run-length format of ``RunLengthImageCoder``: the custom format `webimage`
    /// registers at launch to show a plug-in coder winning.
    package static let wirl = ImageFormat(rawValue: "wirl")
}
