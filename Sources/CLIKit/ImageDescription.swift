import Foundation
import SwiftWebImage

/// What `info` says about one image: format, size, frames, pages, loop count, stated frame
/// durations and alpha.
///
/// - `format`: the format the image was decoded from (`jpeg`, `png` also for APNG, `gif`,
///   `bmp`, or a registered plug-in format such as `wirl`).
/// - `width`, `height`: the decoded size in pixels, after the EXIF orientation is applied
///   (the size the image shows at).
/// - `pages`: the document's page count when a decode shows one page of several (a PDF, whose
///   first page is described), from the coder (``PageCountReader``); `nil` (JSON `null`) for
///   every other format (a TIFF's pages are its frames).
/// - `loopCount`: `0` for forever, `nil` (JSON `null`) when the file states none: every still
///   image, and a GIF without a NETSCAPE2.0 block.
/// - `durations`: one entry per frame, in milliseconds, as the file states them
///   (``WebImage/statedFrameDurations``: a GIF frame stating 10 ms gives `10`, though it plays
///   for 100 ms); 0 for a frame with no stated delay, and a still image (a single frame) has `[0]`.
/// - `hasAlpha`: whether the source format carries an alpha channel.
/// - `colorSpace`: the colour space the file declares (JPEG and PNG from their headers: an ICC
///   profile's description, "sRGB", code points, "untagged"); for formats that are decoded to
///   be described, whether the decode converted from an embedded profile; `nil`/`null` otherwise.
/// - `refused`: for an image described from its headers, the error a decode under the limits
///   would give (`nil`/`null` when within them).
struct ImageDescription: Sendable {
    let source: String
    let format: String
    let width: Int
    let height: Int
    let frames: Int
    /// The document's page count, when its coder tells one (``PageCountReader``).
    let pages: Int?
    let loopCount: Int?
    let durations: [Double]
    let hasAlpha: Bool
    /// The colour space the file declares (``ImageProperties/colorSpace``), or, for an image
    /// described by decoding it, whether it was converted from an embedded profile.
    let colorSpace: String?
    /// The error a decode under the limits would give, for an image described from its headers
    /// (`nil`: within the limits, or decoded).
    let refusal: WebImageError?

    /// Describes `image`, named `source`, from a document of `pages` pages (`nil`: not told).
    init(source: String, image: WebImage, pages: Int? = nil) {
        refusal = nil
        self.source = source
        format = image.format.rawValue
        width = image.pixelSize.width
        height = image.pixelSize.height
        frames = image.frameCount
        self.pages = pages
        loopCount = image.isAnimated ? image.loopCount : nil
        durations = image.statedFrameDurations.map { $0 * 1000 }
        hasAlpha = image.hasAlpha
        colorSpace = image.metadata.contains(.colorConverted) ? "converted to sRGB from its profile" : nil
    }

    /// Describes an image from its headers, named `source`: the size it shows at (orientation
    /// applied), its document's `pages` (`nil`: not told), and `refusal`, the error a decode
    /// would give, if any.
    init(source: String, properties: ImageProperties, pages: Int? = nil, refusal: WebImageError? = nil) {
        self.source = source
        format = properties.format.rawValue
        width = properties.orientedPixelSize.width
        height = properties.orientedPixelSize.height
        frames = properties.frameCount
        self.pages = pages
        loopCount = properties.frameCount > 1 ? properties.loopCount : nil
        durations = properties.frameDurations.map { $0 * 1000 }
        hasAlpha = properties.hasAlpha
        colorSpace = properties.colorSpace
        self.refusal = refusal
    }

    /// `{"source","format","width","height","frames","pages","loopCount","durations","hasAlpha","colorSpace","refused"}`,
    /// in that order; `pages` is `null` when not told, `refused` `null` or `{"code","message"}`.
    var json: JSONValue {
        .object([
            ("source", .string(source)),
            ("format", .string(format)),
            ("width", .integer(width)),
            ("height", .integer(height)),
            ("frames", .integer(frames)),
            ("pages", pages.map { .integer($0) } ?? .null),
            ("loopCount", loopCount.map { .integer($0) } ?? .null),
            ("durations", .array(durations.map { .number($0) })),
            ("hasAlpha", .bool(hasAlpha)),
            ("colorSpace", colorSpace.map { .string($0) } ?? .null),
            ("refused", refusal.map { Self.errorObject(ErrorReport($0)) } ?? .null),
        ])
    }

    private static func errorObject(_ report: ErrorReport) -> JSONValue {
        .object([("code", .string(report.code)), ("message", .string(report.message))])
    }

    /// `{"source","error":{"code","message"}}` for an input that could not be read or decoded.
    static func errorJSON(source: String, report: ErrorReport) -> JSONValue {
        .object([
            ("source", .string(source)),
            ("error", errorObject(report)),
        ])
    }

    /// One line for people:
    /// `anim.gif: gif 160x120, 12 frames, loops forever, 80 ms each, alpha`;
    /// `doc.pdf: pdf 612x792, 1 frame, 3 pages, no alpha`.
    var text: String {
        var parts = ["\(format) \(width)x\(height)", frames == 1 ? "1 frame" : "\(frames) frames"]
        if let pages { parts.append(pages == 1 ? "1 page" : "\(pages) pages") }
        if frames > 1 {
            switch loopCount {
            case nil: parts.append("no loop count")
            case 0: parts.append("loops forever")
            case let count?: parts.append("loop count \(count)")
            }
            let texts = durations.map(JSONValue.format)
            if Set(texts).count == 1 {
                parts.append("\(texts[0]) ms each")
            } else {
                parts.append("durations " + texts.joined(separator: ", ") + " ms")
            }
        }
        parts.append(hasAlpha ? "alpha" : "no alpha")
        if let colorSpace { parts.append("colour: \(colorSpace)") }
        let refused = refusal.map { "; a decode would be refused: \(ErrorReport($0).message)" } ?? ""
        return "\(source): " + parts.joined(separator: ", ") + refused
    }
}
