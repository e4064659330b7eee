public import Foundation
public import WebImageCore

/// The BMP coder, in Swift.
///
/// Decoding reads 1, 4, 8, 16, 24 and 32 bits per pixel, uncompressed, RLE8, RLE4, BITFIELDS
/// and ALPHABITFIELDS, bottom-up and top-down, with every header version from
/// BITMAPCOREHEADER to BITMAPV5HEADER; the pixel count is checked from the header against
/// `maxPixelCount` before any allocation. A thumbnail at most a quarter of the source on a side
/// is made from the rows as they are decoded (integer box means, then Lanczos-3), without a
/// full-size bitmap. (The decisions where files disagree are on
/// `BMPDecoding`: 32-bit alpha, 16-bit default masks, skipped RLE pixels.)
///
/// Encoding writes 32-bit BGRA with a BITMAPV4HEADER and BITFIELDS masks, so alpha survives,
/// bottom-up as most readers expect.
///
/// Thread-safety: stateless; call from any thread, concurrently.
public struct BMPCoder: ImageCoder {
    /// Creates the coder.
    public init() {}

    /// `true` for data that starts with `BM` and a known header size.
    public func canDecode(_ data: Data) -> Bool {
        guard data.count >= 18, data.starts(with: [0x42, 0x4D]) else { return false }
        let base = data.startIndex
        let size = Int(data[base + 14]) | Int(data[base + 15]) << 8 | Int(data[base + 16]) << 16 | Int(data[base + 17]) << 24
        return [12, 16, 40, 52, 56, 64, 108, 124].contains(size)
    }

    /// Decodes a BMP.
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for data that is not a BMP this decoder
    ///   reads, ``/WebImageCore/WebImageError/Code/imageTooLarge`` over the pixel limit.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        guard canDecode(data) else {
            throw WebImageError(.badImageData, "\(data.count) bytes are not BMP data (no BM signature and known header)")
        }
        return try BMPDecoding.decode(data, options: options)
    }

    /// `true` for ``/WebImageCore/ImageFormat/bmp``.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .bmp
    }

    /// Encodes the first frame of `image` as a 32-bit BMP with alpha: a BITMAPV4HEADER marked
    /// sRGB, or, for an image that carries a ``/WebImageCore/WebImage/colorProfile``, a
    /// BITMAPV5HEADER with the profile embedded (`PROFILE_EMBEDDED`) after the pixels.
    /// - Throws: ``/WebImageCore/WebImageError/Code/unsupportedFormat`` for another format,
    ///   ``/WebImageCore/WebImageError/Code/encodingFailed`` for an image over the format's 2 GiB limit.
    public func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard canEncode(to: format) else {
            throw WebImageError(.unsupportedFormat, "BMPCoder cannot encode \(format)")
        }
        let bitmap = try EncodingPreparation.bitmap(of: image, maxPixelSize: options.maxPixelSize)
        let profile = image.colorProfile?.data
        let infoSize = profile == nil ? 108 : 124
        let headerSize = 14 + infoSize
        let (pixelBytes, overflow) = bitmap.width.multipliedReportingOverflow(by: bitmap.height * 4)
        let fileSize = pixelBytes + headerSize + (profile?.count ?? 0)
        guard !overflow, fileSize <= Int(Int32.max), bitmap.width > 0, bitmap.height > 0 else {
            throw WebImageError(.encodingFailed, "BMP cannot hold a \(bitmap.size) image")
        }
        var data = Data(capacity: fileSize)
        data.append(contentsOf: [0x42, 0x4D])
        data.appendLittleEndian(UInt32(fileSize))
        data.appendLittleEndian(UInt32(0))
        data.appendLittleEndian(UInt32(headerSize))
        data.appendLittleEndian(UInt32(infoSize))
        data.appendLittleEndian(Int32(bitmap.width))
        data.appendLittleEndian(Int32(bitmap.height))
        data.appendLittleEndian(UInt16(1))
        data.appendLittleEndian(UInt16(32))
        data.appendLittleEndian(UInt32(3))  // BI_BITFIELDS
        data.appendLittleEndian(UInt32(pixelBytes))
        data.appendLittleEndian(UInt32(2835))  // 72 dpi
        data.appendLittleEndian(UInt32(2835))
        data.appendLittleEndian(UInt32(0))
        data.appendLittleEndian(UInt32(0))
        for mask: UInt32 in [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0xFF00_0000] { data.appendLittleEndian(mask) }
        if let profile {
            data.append(contentsOf: Array("DEBM".utf8))  // PROFILE_EMBEDDED, little-endian 'MBED'
            data.append(contentsOf: [UInt8](repeating: 0, count: 48))  // endpoints and gamma: unused
            data.appendLittleEndian(UInt32(4))  // LCS_GM_IMAGES (perceptual)
            data.appendLittleEndian(UInt32(infoSize + pixelBytes))  // the profile, from the header's start
            data.appendLittleEndian(UInt32(profile.count))
            data.appendLittleEndian(UInt32(0))
        } else {
            data.append(contentsOf: Array("BGRs".utf8))  // LCS_sRGB, little-endian 'sRGB'
            data.append(contentsOf: [UInt8](repeating: 0, count: 48))  // endpoints and gamma: unused for sRGB
        }
        var pixels = [UInt8](repeating: 0, count: pixelBytes)
        bitmap.bytes.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for row in 0..<bitmap.height {
                    let from = (bitmap.height - 1 - row) * bitmap.bytesPerRow
                    let to = row * bitmap.width * 4
                    for x in 0..<bitmap.width {
                        target[to + x * 4] = source[from + x * 4 + 2]
                        target[to + x * 4 + 1] = source[from + x * 4 + 1]
                        target[to + x * 4 + 2] = source[from + x * 4]
                        target[to + x * 4 + 3] = bitmap.hasAlpha ? source[from + x * 4 + 3] : 255
                    }
                }
            }
        }
        data.append(contentsOf: pixels)
        if let profile { data.append(profile) }
        return data
    }
}
