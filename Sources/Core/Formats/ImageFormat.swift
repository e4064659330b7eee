public import Foundation

/// An image format: an extensible set (plug-ins add formats), with magic-byte detection,
/// file extensions and MIME types both ways.
///
/// SDWebImage numbers its formats; ours are named by a short string so that two plug-ins
/// cannot collide on a number. A plug-in declares and registers its format once at launch:
///
/// ```swift
/// extension ImageFormat { public static let qoi = ImageFormat(rawValue: "qoi") }
/// ImageFormat.register(ImageFormatDescriptor(format: .qoi, fileExtensions: ["qoi"],
///                                            mimeTypes: ["image/qoi"]) { bytes in
///     bytes.starts(with: Array("qoif".utf8)) ? ImageFormatDetection(format: .qoi) : nil
/// })
/// ```
public struct ImageFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The format's name: `"png"`, `"jxl"`, or a plug-in's own (`"qoi"`).
    public let rawValue: String
    /// The format named `rawValue` (any string: a format is known once registered).
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Not known, or not an image.
    public static let undefined = ImageFormat(rawValue: "undefined")
    /// JPEG (baseline and progressive).
    public static let jpeg = ImageFormat(rawValue: "jpeg")
    /// PNG, including animated PNG (APNG); ``ImageFormat/detect(_:)`` tells them apart.
    public static let png = ImageFormat(rawValue: "png")
    /// GIF, still or animated.
    public static let gif = ImageFormat(rawValue: "gif")
    /// TIFF (detected; no built-in coder).
    public static let tiff = ImageFormat(rawValue: "tiff")
    /// WebP, still or animated (the `WebPCoder` plug-in decodes it).
    public static let webp = ImageFormat(rawValue: "webp")
    /// HEIC: HEIF with HEVC-coded images, as phones write them (the `HEIFCoder` plug-in).
    public static let heic = ImageFormat(rawValue: "heic")
    /// HEIF with another codec or brand than HEIC (the `HEIFCoder` plug-in).
    public static let heif = ImageFormat(rawValue: "heif")
    /// AVIF, still or an image sequence (the `AVIFCoder` plug-in).
    public static let avif = ImageFormat(rawValue: "avif")
    /// PDF (detected; no built-in coder).
    public static let pdf = ImageFormat(rawValue: "pdf")
    /// SVG (detected; no built-in coder).
    public static let svg = ImageFormat(rawValue: "svg")
    /// Windows bitmap (BMP/DIB).
    public static let bmp = ImageFormat(rawValue: "bmp")
    /// Windows icon (detected; no built-in coder).
    public static let ico = ImageFormat(rawValue: "ico")
    /// JPEG XL, bare codestream or container (the `JXLCoder` plug-in); its raw value is `jxl`.
    public static let jpegXL = ImageFormat(rawValue: "jxl")

    /// The format's name, ``rawValue``.
    public var description: String { rawValue }

    /// The preferred file extension (without the dot), or `nil` for an unknown format.
    public var fileExtension: String? {
        ImageFormatRegistry.shared.descriptor(for: self)?.fileExtensions.first
    }

    /// Every file extension of the format.
    public var fileExtensions: [String] {
        ImageFormatRegistry.shared.descriptor(for: self)?.fileExtensions ?? []
    }

    /// The preferred MIME type, or `nil` for an unknown format.
    public var mimeType: String? {
        ImageFormatRegistry.shared.descriptor(for: self)?.mimeTypes.first
    }

    /// The format of a file extension (`"JPG"`, `".jpeg"`, `"png"`), or ``undefined``.
    public init(fileExtension: String) {
        var normalized = fileExtension.lowercased()
        if normalized.hasPrefix(".") { normalized.removeFirst() }
        self = ImageFormatRegistry.shared.format(where: { $0.fileExtensions.contains(normalized) }) ?? .undefined
    }

    /// The format of a MIME type (`"image/png"`, `"IMAGE/JPEG; charset=binary"`), or ``undefined``.
    public init(mimeType: String) {
        let essence = mimeType.split(separator: ";", maxSplits: 1).first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        self = ImageFormatRegistry.shared.format(where: { $0.mimeTypes.contains(essence) }) ?? .undefined
    }

    /// Detects the format of `data` from its magic bytes. Short, empty or unknown data is
    /// ``undefined``; this never traps.
    public static func detect(_ data: Data) -> ImageFormat {
        detectDetails(data).format
    }

    /// Detects the format of `data` and whether it is animated (APNG, animated WebP, a GIF with
    /// more than one image). Registered plug-in detectors are asked first, last registered
    /// first; then the built-in ones.
    public static func detectDetails(_ data: Data) -> ImageFormatDetection {
        for descriptor in ImageFormatRegistry.shared.descriptorsWithDetectors() {
            if let detector = descriptor.detector, let found = detector(data) { return found }
        }
        return ImageFormatSniffer.sniff(data)
    }

    /// Registers a format (or replaces the registration of the same format), so that
    /// detection, file extensions and MIME types know it. Safe from any thread.
    public static func register(_ descriptor: ImageFormatDescriptor) {
        ImageFormatRegistry.shared.register(descriptor)
    }
}

/// What ``ImageFormat/detectDetails(_:)`` found.
public struct ImageFormatDetection: Hashable, Sendable {
    /// The format.
    public var format: ImageFormat
    /// Whether the data says it is animated (APNG `acTL` before `IDAT`, WebP `ANIM`, a GIF with
    /// several images).
    public var isAnimated: Bool

    /// A detection of `format`, animated or not.
    public init(format: ImageFormat, isAnimated: Bool = false) {
        self.format = format
        self.isAnimated = isAnimated
    }
}

/// A format's registration: its file extensions and MIME types (preferred first) and an
/// optional magic-byte detector.
public struct ImageFormatDescriptor: Sendable {
    /// The format this registration describes.
    public var format: ImageFormat
    /// File extensions without the dot, lower-cased, the preferred one first.
    public var fileExtensions: [String]
    /// MIME types, lower-cased, the preferred one first.
    public var mimeTypes: [String]
    /// Returns a detection if the data is of this format, `nil` otherwise. Must not trap on
    /// short data.
    public var detector: (@Sendable (Data) -> ImageFormatDetection?)?

    /// A registration for `format`; extensions and MIME types are lower-cased.
    public init(format: ImageFormat, fileExtensions: [String], mimeTypes: [String], detector: (@Sendable (Data) -> ImageFormatDetection?)? = nil) {
        self.format = format
        self.fileExtensions = fileExtensions.map { $0.lowercased() }
        self.mimeTypes = mimeTypes.map { $0.lowercased() }
        self.detector = detector
    }
}
