import WebImageCore

/// How a request's output format is chosen, decided before the source is loaded (so it can be
/// part of the result's cache key):
/// - ``explicit(_:)``: `format(jpeg|png|webp|avif|gif)` in the URL (the last one wins);
/// - ``negotiated(_:)``: no format, or `format(auto)`: AVIF when `Accept` names `image/avif`
///   and an AVIF encoder is registered, else WebP likewise, else the source's own format
///   (JPEG when the server cannot encode it, or it is no web format).
///
/// An animated source whose format is not explicit keeps its own format (an animated GIF stays
/// an animated GIF whatever `Accept` says); only GIF output keeps the frames: any other format
/// gets the first frame.
enum OutputFormatChoice: Hashable, Sendable {
    /// What `Accept` allows, for negotiation.
    enum Negotiated: String, Hashable, Sendable {
        case avif
        case webp
        case source
    }

    case explicit(ImageFormat)
    case negotiated(Negotiated)

    /// Whether the response varies with `Accept`.
    var variesWithAccept: Bool {
        if case .negotiated = self { return true }
        return false
    }

    /// The part of the result's cache key that names the choice.
    var keyComponent: String {
        switch self {
        case .explicit(let format): "f=\(format.rawValue)"
        case .negotiated(let negotiated): "a=\(negotiated.rawValue)"
        }
    }

    /// The formats served as they are when they are the source's (and `negotiated(.source)`).
    static let webFormats: Set<ImageFormat> = [.jpeg, .png, .gif, .webp, .avif]

    /// The choice for a request whose filters name `format` (the last `format(...)`, or `nil`),
    /// with what `Accept` allows.
    /// - Throws: ``ServingFailure`` `400` for an explicit format no registered encoder writes.
    static func choose(format: ThumborOutputFormat?, accept: AcceptedFormats, coder: any ImageCoder) throws(ServingFailure) -> OutputFormatChoice {
        if let format, format != .auto {
            let imageFormat = ImageFormat(thumbor: format)
            guard coder.canEncode(to: imageFormat) else {
                throw ServingFailure(400, "format(\(format.rawValue)) is not available: no \(format.rawValue) encoder is registered")
            }
            return .explicit(imageFormat)
        }
        if accept.avif { return .negotiated(.avif) }
        if accept.webp { return .negotiated(.webp) }
        return .negotiated(.source)
    }

    /// The format to encode a source of `sourceFormat` (animated or not) to.
    func resolve(sourceFormat: ImageFormat, sourceIsAnimated: Bool, coder: any ImageCoder) -> ImageFormat {
        switch self {
        case .explicit(let format):
            return format
        case .negotiated(let negotiated):
            if !sourceIsAnimated {
                switch negotiated {
                case .avif: return .avif
                case .webp: return .webp
                case .source: break
                }
            }
            if Self.webFormats.contains(sourceFormat), coder.canEncode(to: sourceFormat) {
                return sourceFormat
            }
            return .jpeg
        }
    }
}

extension OutputFormatChoice {
    /// thumbor's `autojpg()` (its `auto_png_to_jpg`), decided once the result is rendered:
    /// `format` (what ``resolve(sourceFormat:sourceIsAnimated:coder:)`` gave) becomes JPEG when
    /// the source is a PNG, the choice took the source's format (no `format(...)` in the URL,
    /// and neither AVIF nor WebP negotiated: thumbor's automatic WebP and AVIF come first too)
    /// and `rendered` has no pixel that is not opaque; otherwise it is kept.
    func convertingOpaquePNG(_ format: ImageFormat, sourceFormat: ImageFormat, rendered: WebImage) -> ImageFormat {
        guard self == .negotiated(.source), format == .png, sourceFormat == .png else { return format }
        let bitmap = rendered.bitmap
        return !bitmap.hasAlpha || bitmap.isOpaque ? .jpeg : format
    }
}

/// The formats a request's `Accept` names that the server can also encode. Only explicit
/// `image/avif` and `image/webp` entries with a quality above 0 count (`image/*` and `*/*` do
/// not: browsers that decode AVIF or WebP name them).
struct AcceptedFormats: Hashable, Sendable {
    var avif = false
    var webp = false

    /// Nothing negotiable.
    static let none = AcceptedFormats(header: nil)

    /// What `header` accepts among what `coder` encodes.
    init(header: String?, coder: any ImageCoder) {
        self = AcceptedFormats(header: header).encodable(by: coder)
    }

    /// What `header` accepts, whether or not anything encodes it (no coder is asked: the key of
    /// the result memory tier, on the path of every request).
    init(header: String?) {
        guard let header, !header.isEmpty else { return }
        var avif = false
        var webp = false
        for entry in header.split(separator: ",") {
            let parts = entry.split(separator: ";")
            guard let type = parts.first?.trimmingSpaces.lowercased() else { continue }
            guard type == "image/avif" || type == "image/webp" else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingSpaces.lowercased() == "q" {
                    quality = Double(pair[1].trimmingSpaces) ?? 1
                }
            }
            guard quality > 0 else { continue }
            if type == "image/avif" { avif = true } else { webp = true }
        }
        self.avif = avif
        self.webp = webp
    }

    /// These formats, less those `coder` cannot encode.
    func encodable(by coder: any ImageCoder) -> AcceptedFormats {
        var formats = self
        formats.avif = avif && coder.canEncode(to: .avif)
        formats.webp = webp && coder.canEncode(to: .webp)
        return formats
    }

    /// A short tag for keys: `""`, `"a"`, `"w"` or `"aw"`.
    var tag: String { (avif ? "a" : "") + (webp ? "w" : "") }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}

extension ImageFormat {
    /// The format `format(...)` names (`auto` is no format: JPEG, never asked for).
    init(thumbor format: ThumborOutputFormat) {
        switch format {
        case .jpeg, .auto: self = .jpeg
        case .png: self = .png
        case .webp: self = .webp
        case .avif: self = .avif
        case .gif: self = .gif
        }
    }

    /// The `Content-Type` of encoded results.
    var servedMediaType: String {
        mimeType ?? "application/octet-stream"
    }
}
