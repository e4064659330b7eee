/// What thumbor 7.8's `/meta/` endpoint answers for a request (`thumbor/engines/json_engine.py`):
/// the image, the operations the transformer did, the target size and the focal points, written
/// as thumbor writes them (Python's `json.dumps` with its default separators, keys in thumbor's
/// order, integers and floats as thumbor's arithmetic typed them), so that a client parsing
/// thumbor's answer byte by byte reads this one the same:
///
/// ```json
/// {"thumbor": {"source": {"url": "photo.jpg", "width": 48, "height": 48, "frameCount": 1},
///  "operations": [{"type": "crop", "left": 16, "top": 0, "right": 80, "bottom": 64},
///  {"type": "resize", "width": 48.0, "height": 48.0}], "target": {"width": 48.0, "height": 48.0},
///  "focal_points": [{"x": 48, "y": 32, "z": 1.0, "height": 1, "width": 1, "origin": "alignment"}]}}
/// ```
/// (on one line). As in thumbor:
/// - `source.width` and `source.height` are the image's size once every operation and filter
///   has run (thumbor reads its engine's size after the transformation), not the original's;
/// - `operations` are the transformer's own (trim, manual crop, the crop to the aspect ratio,
///   the resize or fit-in resize, the flips), not the filters', and a resize to the size the
///   image already has is not one;
/// - `target` is the last crop's or resize's size, else the image's;
/// - `focal_points` are those the crop was centred on: the `focal(...)` regions inside the
///   manual crop (moved with it), else the point `halign`/`valign` name.
struct ThumborMetadata: Sendable, Equatable {
    /// A number as Python typed it: `int`, or `float` (written `48.0`).
    enum Number: Sendable, Equatable {
        case int(Int)
        case float(Double)

        /// The number as `json.dumps` writes it.
        var json: String {
            switch self {
            case .int(let value):
                return String(value)
            case .float(let value):
                if value == value.rounded(), abs(value) < 1e16 { return String(Int(value)) + ".0" }
                return value.description
            }
        }

        /// The value.
        var value: Double {
            switch self {
            case .int(let value): Double(value)
            case .float(let value): value
            }
        }
    }

    /// One of the transformer's operations.
    enum Operation: Sendable, Equatable {
        /// A crop of the current image, its edges in its pixels (`right` and `bottom` exclusive).
        case crop(left: Int, top: Int, right: Int, bottom: Int)
        /// A resize of the current image.
        case resize(width: Number, height: Number)
        case flipHorizontally
        case flipVertically
    }

    /// A focal point (thumbor's `FocalPoint.to_dict`).
    struct FocalPoint: Sendable, Equatable {
        var x: Int
        var y: Int
        /// Its weight (`z`): the region's area, or `1.0` for an alignment point.
        var weight: Number
        var width: Int
        var height: Int
        /// `Explicit` (a `focal(...)` region) or `alignment`.
        var origin: String
    }

    /// The source as the URL names it, percent-encoded as thumbor writes it (Python's `quote`,
    /// `/` kept: `127.0.0.1%3A8080/a.png`).
    var url: String
    /// The image's size after every operation and filter (thumbor's engine size).
    var width: Int
    var height: Int
    /// The source's frames (1 for a still image).
    var frameCount: Int
    var operations: [Operation]
    var focalPoints: [FocalPoint]

    /// A metadata answer; `source` is the source as parsed (percent-decoded once).
    init(source: String, width: Int, height: Int, frameCount: Int, operations: [Operation], focalPoints: [FocalPoint]) {
        url = Self.quoted(source)
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.operations = operations
        self.focalPoints = focalPoints
    }

    /// thumbor's `get_target_dimensions`: the size of the last crop or resize, else the image's.
    var target: (width: Number, height: Number) {
        var target: (width: Number, height: Number) = (.int(width), .int(height))
        for operation in operations {
            switch operation {
            case .crop(let left, let top, let right, let bottom): target = (.int(right - left), .int(bottom - top))
            case .resize(let width, let height): target = (width, height)
            case .flipHorizontally, .flipVertically: break
            }
        }
        return target
    }

    /// The JSON thumbor writes, or with `callback` the JSONP form `callback({...});`.
    func json(callback: String? = nil) -> String {
        var out = #"{"thumbor": {"source": {"url": "# + Self.string(url)
        out += #", "width": \#(width), "height": \#(height), "frameCount": \#(frameCount)}, "operations": ["#
        out += operations.map { operation in
            switch operation {
            case .crop(let left, let top, let right, let bottom):
                #"{"type": "crop", "left": \#(left), "top": \#(top), "right": \#(right), "bottom": \#(bottom)}"#
            case .resize(let width, let height):
                #"{"type": "resize", "width": \#(width.json), "height": \#(height.json)}"#
            case .flipHorizontally:
                #"{"type": "flip_horizontally"}"#
            case .flipVertically:
                #"{"type": "flip_vertically"}"#
            }
        }.joined(separator: ", ")
        let target = target
        out += #"], "target": {"width": \#(target.width.json), "height": \#(target.height.json)}"#
        if !focalPoints.isEmpty {
            out += #", "focal_points": ["#
            out += focalPoints.map { point in
                #"{"x": \#(point.x), "y": \#(point.y), "z": \#(point.weight.json), "height": \#(point.height), "width": \#(point.width), "origin": "#
                    + Self.string(point.origin) + "}"
            }.joined(separator: ", ")
            out += "]"
        }
        out += "}}"
        guard let callback else { return out }
        return callback + "(" + out + ");"
    }

    /// Whether `name` may name a JSONP callback: dot-separated JavaScript identifiers of ASCII
    /// letters, digits, `_` and `$` (`cb`, `jQuery123_456`, `app.meta`), at most 128 characters.
    /// thumbor checks nothing; a callback is written into a script, so anything else is refused.
    static func isCallbackName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 128 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            guard let first = part.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
            return part.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
            }
        }
    }

    /// `text` as Python's `quote(text)` writes it: every UTF-8 byte but the letters, digits,
    /// `_.-~` and `/` as `%XX`.
    static func quoted(_ text: String) -> String {
        var out = ""
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            let kept = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "_.-~/".utf8.contains(byte)
            if kept {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(Unicode.Scalar(hex[Int(byte >> 4)])) + String(Unicode.Scalar(hex[Int(byte & 0xF)]))
            }
        }
        return out
    }

    /// `text` as a JSON string the way `json.dumps` writes it (`ensure_ascii`: every character
    /// outside ASCII as `\uXXXX`, in UTF-16).
    static func string(_ text: String) -> String {
        var out = "\""
        for unit in text.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let digits = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            }
        }
        return out + "\""
    }
}
