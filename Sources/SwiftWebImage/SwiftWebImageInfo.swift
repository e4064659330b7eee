// The umbrella module: `import SwiftWebImage` gives the whole framework.
@_exported import WebImageCore
@_exported import WebImageColor
@_exported import WebImageCoders
@_exported import WebImageCaches
@_exported import WebImageLoaders
@_exported import WebImageTransformers

/// Facts about this build of SwiftWebImage.
public enum SwiftWebImageInfo {
    /// The framework's version.
    public static let version = "0.1.0"
}
