import CZlib
import Foundation
import WebImageCore

/// A still PNG's thumbnail decoded from a file a piece at a time (``PieceReader``): the chunks
/// before the image data are read whole and parsed as ``PNGFile/parse(_:maxFrameCount:)``
/// parses them, the IDAT chunks stream into zlib, and the chunks after them are walked to IEND
/// with their CRCs checked, so that the result and the errors are those of a decode of the
/// file's bytes. Anything else (a full-size decode, a thumbnail that does not reduce, an APNG,
/// more than 16 MiB of chunks before the image data) reads the whole file and decodes it
/// with ``PNGCoder/decode(_:options:)``.
enum PNGFileDecoding {
    /// The most bytes of chunks before the image data that are read into memory.
    static let prefixLimit = 16 * 1024 * 1024

    static func decode(contentsOf url: URL, options: ImageDecodeOptions) throws -> WebImage {
        try decode(PieceReader(url: url), options: options)
    }

    /// Decodes the file of `reader` (opened before: the test of a file that changes while it is read).
    static func decode(_ reader: PieceReader, options: ImageDecodeOptions) throws -> WebImage {
        if let image = try streamedThumbnail(reader, options: options) { return image }
        return try PNGCoder().decode(readWhole(reader.url, size: reader.fileSize), options: options)
    }

    private static func readWhole(_ url: URL, size: Int) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw WebImageError(.invalidDownloadResponse, "Cannot read \(url.path): \(error.localizedDescription)", underlyingError: error, url: url)
        }
    }

    /// The thumbnail, or `nil` when this file needs the whole-data decode.
    private static func streamedThumbnail(_ reader: PieceReader, options: ImageDecodeOptions) throws -> WebImage? {
        let byteCount = reader.fileSize
        // The signature and every chunk before the first IDAT, whole.
        var prefix = try reader.bytes(8)
        guard prefix.count == 8, prefix == PNGFile.signature else {
            throw WebImageError(.badImageData, "\(byteCount) bytes are not PNG data (no PNG signature)", url: reader.url)
        }
        var idatLength: Int?
        while idatLength == nil {
            let header = try reader.bytes(8)
            guard header.count == 8 else {
                prefix += header
                break
            }
            let (length, type) = chunkHeader(header)
            if type == PNGFile.IDAT, length <= 0x7FFF_FFFF {
                idatLength = length
                break
            }
            if type == PNGFile.acTL || length > 0x7FFF_FFFF || prefix.count + length > prefixLimit {
                return nil  // an APNG, a bad length (the data decode's error) or a very large prefix
            }
            prefix += header
            let body = try reader.bytes(length + 4)
            prefix += body
            if type == PNGFile.IEND || body.count < length + 4 { break }
        }
        var file = try prefix.withUnsafeBytes { raw in
            try PNGDecoding.parse(raw, options: options, byteCount: byteCount)
        }
        guard let idatLength else {
            throw PNGDecoding.missingImageData(file, byteCount: byteCount, url: reader.url)
        }
        let size = PixelSize(width: file.header.width, height: file.header.height)
        guard var reducer = PNGDecoding.thumbnailReducer(file, target: options.targetPixelSize(for: size), options: options) else { return nil }
        let idat = IDATStream(reader: reader, firstLength: idatLength)
        let source = try InflateSource { try idat.next() }
        let (bitmap, complete) = try PNGDecoding.thumbnail(source, format: file.format, hasTransparency: file.hasTransparency, reducer: &reducer)
        file.truncated = try idat.walkToEnd()
        return PNGDecoding.thumbnailImage(bitmap, complete: complete, truncated: file.truncated, options: options)
    }
}

/// The payload of consecutive IDAT chunks, a piece at a time, then the chunks after them.
private final class IDATStream {
    let reader: PieceReader
    /// Bytes left in the current IDAT chunk's data.
    private var remaining: Int
    /// The header of the first chunk after the image data, once read.
    private var following: [UInt8]?
    private var done = false

    init(reader: PieceReader, firstLength: Int) {
        self.reader = reader
        remaining = firstLength
    }

    /// The next piece of image data, or `nil` after the last IDAT chunk (or where the file ends).
    func next() throws -> UnsafeRawBufferPointer? {
        while remaining == 0 {
            guard !done, try advance() else { return nil }
        }
        guard let piece = try reader.piece(max: remaining) else {
            done = true
            return nil
        }
        remaining -= piece.count
        return piece
    }

    /// Steps over the CRC of the IDAT chunk just read to the next chunk: `true` for another
    /// IDAT (its length in `remaining`).
    private func advance() throws -> Bool {
        let offset = reader.position + 4
        guard try reader.skip(4) else {
            done = true
            return false
        }
        let header = try reader.bytes(8)
        guard header.count == 8 else {
            done = true
            return false
        }
        let (length, type) = try checkedChunkHeader(header, at: offset)
        guard type == PNGFile.IDAT else {
            done = true
            following = header
            return false
        }
        remaining = length
        return true
    }

    /// Skips the image data not read yet and checks the chunks after it as
    /// ``PNGFile/parse(_:maxFrameCount:)`` does (a bad CRC in a critical chunk throws).
    /// - Returns: Whether the file is truncated (ends before IEND).
    func walkToEnd() throws -> Bool {
        while !done {
            guard try reader.skip(remaining) else { return true }
            remaining = 0
            _ = try advance()
        }
        var header = following
        following = nil
        while let current = header, current.count == 8 {
            let offset = reader.position - 8
            let (length, type) = try checkedChunkHeader(current, at: offset)
            if type == PNGFile.IDAT || type == PNGFile.fdAT {
                // Image data after other chunks: ignored, its CRC unchecked.
                guard try reader.skip(length + 4) else { return true }
            } else {
                var crc = current.withUnsafeBufferPointer { crc32(0, $0.baseAddress! + 4, 4) }
                var left = length
                while left > 0 {
                    guard let piece = try reader.piece(max: left) else { return true }
                    crc = crc32(crc, piece.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(piece.count))
                    left -= piece.count
                }
                let stored = try reader.bytes(4)
                guard stored.count == 4 else { return true }
                let value = stored.withUnsafeBytes { UInt32(PNGFile.u32($0, 0)) }
                if UInt32(truncatingIfNeeded: crc) != value {
                    if current[4] & 0x20 == 0 {
                        throw WebImageError(.badImageData, "PNG chunk \(PNGFile.name(type)) at byte \(offset) has a bad CRC", url: reader.url)
                    }
                } else if type == PNGFile.IEND {
                    return false
                }
            }
            header = try reader.bytes(8)
        }
        return true
    }

    /// A chunk header's length and type, refusing a length over 2^31 - 1 as ``PNGFile/parse(_:maxFrameCount:)`` does.
    private func checkedChunkHeader(_ header: [UInt8], at offset: Int) throws -> (length: Int, type: UInt32) {
        let (length, type) = chunkHeader(header)
        guard length <= 0x7FFF_FFFF else {
            throw WebImageError(.badImageData, "PNG chunk at byte \(offset) has an invalid length \(length)", url: reader.url)
        }
        return (length, type)
    }
}

/// The length and type of an 8-byte chunk header (both big-endian).
private func chunkHeader(_ header: [UInt8]) -> (length: Int, type: UInt32) {
    header.withUnsafeBytes { (PNGFile.u32($0, 0), UInt32(PNGFile.u32($0, 4))) }
}
