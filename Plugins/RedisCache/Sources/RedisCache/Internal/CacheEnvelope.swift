import Foundation
import WebImageCore

/// The value stored under one cache key: the image's encoded data with its metadata, in one
/// Redis string so that a reader sees all of it or none (one SET, one GET).
///
/// Layout (version 1, little endian):
/// ```
/// "SWIRC" version(u8 = 1)
/// width(u32) height(u32)                 0 x 0 when unknown (data stored without an image)
/// formatLength(u16) format(UTF-8)        ImageFormat.rawValue
/// extendedLength(u32) extended bytes     0xFFFF_FFFF: no extended data
/// dataLength(u32) data
/// ```
/// Reading checks every length against the bytes present: a truncated or foreign value is
/// refused, never read past.
struct CacheEnvelope: Equatable {
    static let magic = Array("SWIRC".utf8)
    static let version: UInt8 = 1
    private static let noExtendedData = UInt32.max

    var format: ImageFormat
    var pixelSize: PixelSize
    var extendedData: Data?
    var data: Data

    init(format: ImageFormat, pixelSize: PixelSize, extendedData: Data?, data: Data) {
        self.format = format
        self.pixelSize = pixelSize
        self.extendedData = extendedData
        self.data = data
    }

    /// Why a stored value could not be read.
    enum ReadError: Error, Equatable {
        /// Not an envelope of this plug-in (or damaged): the reason.
        case corrupt(String)
        /// An envelope of a later version of this plug-in.
        case newerVersion(UInt8)
    }

    /// The stored bytes.
    /// - Returns: `nil` when a part is too large for the layout (over 4 GiB, or a format name
    ///   over 64 KiB).
    func encoded() -> Data? {
        let formatBytes = Array(format.rawValue.utf8)
        guard formatBytes.count <= Int(UInt16.max),
              data.count < Int(UInt32.max),
              (extendedData?.count ?? 0) < Int(UInt32.max) else { return nil }
        var bytes = Data()
        bytes.reserveCapacity(Self.magic.count + 1 + 8 + 2 + formatBytes.count + 4 + (extendedData?.count ?? 0) + 4 + data.count)
        bytes.append(contentsOf: Self.magic)
        bytes.append(Self.version)
        Self.append(UInt32(clamping: max(0, pixelSize.width)), to: &bytes)
        Self.append(UInt32(clamping: max(0, pixelSize.height)), to: &bytes)
        Self.append(UInt16(formatBytes.count), to: &bytes)
        bytes.append(contentsOf: formatBytes)
        if let extendedData {
            Self.append(UInt32(extendedData.count), to: &bytes)
            bytes.append(extendedData)
        } else {
            Self.append(Self.noExtendedData, to: &bytes)
        }
        Self.append(UInt32(data.count), to: &bytes)
        bytes.append(data)
        return bytes
    }

    /// Reads an envelope.
    /// - Throws: ``ReadError``.
    static func decode(_ value: Data) throws(ReadError) -> CacheEnvelope {
        var reader = Reader(bytes: value)
        guard let magic = reader.bytes(magic.count), Array(magic) == Self.magic else {
            throw .corrupt("it does not start with \"SWIRC\" (\(value.count) bytes)")
        }
        guard let version = reader.byte() else { throw .corrupt("it ends after the magic") }
        guard version == Self.version else {
            if version > Self.version { throw .newerVersion(version) }
            throw .corrupt("its version \(version) is unknown")
        }
        guard let width = reader.uint32(), let height = reader.uint32() else { throw .corrupt("it ends in the pixel size") }
        guard let formatLength = reader.uint16(), let formatBytes = reader.bytes(Int(formatLength)) else {
            throw .corrupt("it ends in the format name")
        }
        guard let extendedLength = reader.uint32() else { throw .corrupt("it ends before the extended data") }
        var extendedData: Data?
        if extendedLength != noExtendedData {
            guard let extended = reader.bytes(Int(extendedLength)) else {
                throw .corrupt("its extended data of \(extendedLength) bytes is truncated")
            }
            extendedData = Data(extended)
        }
        guard let dataLength = reader.uint32() else { throw .corrupt("it ends before the image data") }
        guard let data = reader.bytes(Int(dataLength)) else {
            throw .corrupt("its image data of \(dataLength) bytes is truncated to \(reader.remaining)")
        }
        guard reader.remaining == 0 else { throw .corrupt("\(reader.remaining) bytes follow the image data") }
        return CacheEnvelope(
            format: ImageFormat(rawValue: String(decoding: formatBytes, as: UTF8.self)),
            pixelSize: PixelSize(width: Int(width), height: Int(height)),
            extendedData: extendedData,
            data: Data(data)
        )
    }

    private static func append<Value: FixedWidthInteger>(_ value: Value, to bytes: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Reads little-endian fields from the front, never past the end.
    private struct Reader {
        let bytes: Data
        var offset: Int

        init(bytes: Data) {
            self.bytes = bytes
            self.offset = bytes.startIndex
        }

        var remaining: Int { bytes.endIndex - offset }

        mutating func bytes(_ count: Int) -> Data.SubSequence? {
            guard count >= 0, remaining >= count else { return nil }
            defer { offset += count }
            return bytes[offset..<(offset + count)]
        }

        mutating func byte() -> UInt8? {
            bytes(1)?.first
        }

        mutating func uint16() -> UInt16? {
            bytes(2).map { $0.reversed().reduce(0) { $0 << 8 | UInt16($1) } }
        }

        mutating func uint32() -> UInt32? {
            bytes(4).map { $0.reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        }
    }
}
