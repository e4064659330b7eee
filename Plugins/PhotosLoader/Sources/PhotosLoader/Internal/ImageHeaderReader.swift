import WebImageCore

/// Reads the pixel size (and for JPEG the EXIF metadata) of the formats the index knows, from
/// their headers only: JPEG (segment walk), PNG (IHDR), GIF (logical screen), BMP (DIB header),
/// WebP (VP8, VP8L and VP8X headers).
enum ImageHeaderReader {
    /// The formats whose headers are read; files of other image formats are skipped.
    static let formats: [ImageFormat] = [.jpeg, .png, .gif, .bmp, .webp]

    /// Reads the header of a file sniffed as `format`.
    /// - Throws: ``HeaderProblem`` (unsupported format, truncated or corrupt header), or a
    ///   ``SystemCallError`` from reading.
    static func read(_ format: ImageFormat, from source: some ByteSource) throws -> ImageHeader {
        switch format {
        case .jpeg:
            let header = try JPEGHeaderReader.read(source)
            return ImageHeader(format: .jpeg, storedSize: header.storedSize, orientation: header.orientation, exif: header.exif, thumbnail: header.thumbnail)
        case .png:
            let bytes = EndianBytes(bytes: try source.bytes(at: 0, count: 24), littleEndian: false)
            guard bytes.bytes.count == 24, bytes.bytes[12..<16].elementsEqual("IHDR".utf8) else {
                throw HeaderProblem(reason: "PNG data has no IHDR chunk first (\(source.count) bytes)")
            }
            return ImageHeader(format: .png, storedSize: try size(bytes.u32(16), bytes.u32(20), "PNG IHDR"))
        case .gif:
            let bytes = EndianBytes(bytes: try source.bytes(at: 0, count: 10), littleEndian: true)
            guard bytes.bytes.count == 10 else { throw HeaderProblem(reason: "GIF data of \(source.count) bytes is too short for its screen descriptor") }
            return ImageHeader(format: .gif, storedSize: try size(bytes.u16(6), bytes.u16(8), "GIF screen descriptor"))
        case .bmp:
            let bytes = EndianBytes(bytes: try source.bytes(at: 0, count: 26), littleEndian: true)
            guard let dibSize = bytes.u32(14) else { throw HeaderProblem(reason: "BMP data of \(source.count) bytes is too short for its DIB header") }
            if dibSize == 12 {
                return ImageHeader(format: .bmp, storedSize: try size(bytes.u16(18), bytes.u16(20), "BMP core header"))
            }
            guard let width = bytes.u32(18), let height = bytes.u32(22) else {
                throw HeaderProblem(reason: "BMP data of \(source.count) bytes is too short for its DIB header")
            }
            // Signed: a negative height means rows stored top-down.
            let signedWidth = Int(Int32(truncatingIfNeeded: width)), signedHeight = Int(Int32(truncatingIfNeeded: height))
            return ImageHeader(format: .bmp, storedSize: try size(signedWidth, abs(signedHeight), "BMP info header"))
        case .webp:
            return ImageHeader(format: .webp, storedSize: try webPSize(source))
        default:
            throw HeaderProblem(reason: "\(format) image: PhotosLoader reads the headers of \(formats.map(\.rawValue).joined(separator: ", ")) only")
        }
    }

    static func webPSize(_ source: some ByteSource) throws -> PixelSize {
        let bytes = EndianBytes(bytes: try source.bytes(at: 0, count: 30), littleEndian: true)
        let raw = bytes.bytes
        guard raw.count >= 30, raw[8..<12].elementsEqual("WEBP".utf8) else {
            throw HeaderProblem(reason: "WebP data of \(source.count) bytes is too short for its first chunk header")
        }
        let chunk = String(decoding: raw[12..<16], as: UTF8.self)
        switch chunk {
        case "VP8 ":
            guard raw[23] == 0x9D, raw[24] == 0x01, raw[25] == 0x2A, let width = bytes.u16(26), let height = bytes.u16(28) else {
                throw HeaderProblem(reason: "WebP VP8 frame header has no start code")
            }
            return try size(width & 0x3FFF, height & 0x3FFF, "WebP VP8 header")
        case "VP8L":
            guard raw[20] == 0x2F, let bits = bytes.u32(21) else { throw HeaderProblem(reason: "WebP VP8L header has no signature byte") }
            return try size((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1, "WebP VP8L header")
        case "VP8X":
            let width = Int(raw[24]) | Int(raw[25]) << 8 | Int(raw[26]) << 16
            let height = Int(raw[27]) | Int(raw[28]) << 8 | Int(raw[29]) << 16
            return try size(width + 1, height + 1, "WebP VP8X header")
        default:
            throw HeaderProblem(reason: "WebP data starts with an unknown chunk \"\(chunk)\"")
        }
    }

    private static func size(_ width: Int?, _ height: Int?, _ what: String) throws -> PixelSize {
        guard let width, let height else { throw HeaderProblem(reason: "\(what) is truncated") }
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw HeaderProblem(reason: "\(what) declares an invalid size \(width)x\(height)")
        }
        return PixelSize(width: width, height: height)
    }
}
