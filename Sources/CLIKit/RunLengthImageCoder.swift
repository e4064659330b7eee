package import Foundation
package import SwiftWebImage

/// A coder for WIRL, a made-up run-length format: what registering a custom coder at launch
/// looks like. `webimage` registers it (and the format) before any command runs, so every
/// command reads and writes `.wirl` files and the demo loads one over HTTP.
///
/// The format: `"WIRL"`, a version byte (1), the width and height as big-endian `UInt16`
/// (1...65535 each), a flags byte (bit 0: has alpha), then runs of five bytes (a count 1...255,
/// then red, green, blue, alpha, straight alpha) that cover the pixels row by row, exactly.
///
/// Decoding checks the header against `options.maxPixelCount` before allocating, refuses runs
/// that overflow the image or stop short of it, and honours thumbnail sizes and the scale
/// factor. Encoding writes the first frame.
///
/// The coder counts the calls it gets (``counts``) so that the demo can show it is asked first.
///
/// Thread-safety: call from any thread; the counters sit behind a lock.
package final class RunLengthImageCoder: ImageCoder {
    /// The coder `webimage` registers at launch.
    package static let shared = RunLengthImageCoder()

    /// The first bytes of every WIRL file.
    package static let signature = Array("WIRL".utf8)
    /// The format version this coder reads and writes.
    package static let version: UInt8 = 1
    private static let headerSize = 10

    /// How often the coder was asked.
    package struct Counts: Sendable, Equatable {
        /// Calls to ``RunLengthImageCoder/canDecode(_:)``.
        package var canDecode = 0
        /// Images decoded.
        package var decoded = 0
        /// Images encoded.
        package var encoded = 0
    }

    private let state = Locked(Counts())

    /// A coder with its counters at zero.
    package init() {}

    /// The calls so far.
    package var counts: Counts { state.withLock { $0 } }

    /// The format descriptor to register: extension `wirl`, MIME type `image/x-wirl`, detected by
    /// its signature.
    package static var formatDescriptor: ImageFormatDescriptor {
        ImageFormatDescriptor(format: .wirl, fileExtensions: ["wirl"], mimeTypes: ["image/x-wirl"]) { data in
            data.starts(with: signature) ? ImageFormatDetection(format: .wirl) : nil
        }
    }

    /// `true` for data that starts with `"WIRL"`.
    package func canDecode(_ data: Data) -> Bool {
        state.withLock { $0.canDecode += 1 }
        return data.starts(with: Self.signature)
    }

    /// Decodes WIRL data.
    /// - Throws: ``WebImageError/Code/badImageData`` for a bad header or runs that do not cover
    ///   the image exactly; ``WebImageError/Code/imageTooLarge`` over `options.maxPixelCount`.
    package func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        let bytes = [UInt8](data)
        guard bytes.count >= Self.headerSize, bytes.starts(with: Self.signature) else {
            throw WebImageError(.badImageData, "\(bytes.count) bytes are not WIRL data (no WIRL header)")
        }
        guard bytes[4] == Self.version else {
            throw WebImageError(.badImageData, "WIRL version \(bytes[4]) is not supported (only \(Self.version))")
        }
        let width = Int(bytes[5]) << 8 | Int(bytes[6])
        let height = Int(bytes[7]) << 8 | Int(bytes[8])
        guard width > 0, height > 0 else {
            throw WebImageError(.badImageData, "WIRL image size \(width)x\(height) is empty")
        }
        guard width * height <= options.maxPixelCount else {
            throw WebImageError(.imageTooLarge, "WIRL image of \(width)x\(height) pixels is over the limit of \(options.maxPixelCount) pixels")
        }
        let total = width * height
        var pixels = [UInt8](repeating: 0, count: total * 4)
        var filled = 0
        var offset = Self.headerSize
        while offset < bytes.count {
            guard offset + 5 <= bytes.count else {
                throw WebImageError(.badImageData, "WIRL data ends inside a run at byte \(offset) of \(bytes.count)")
            }
            let count = Int(bytes[offset])
            guard count > 0, filled + count <= total else {
                throw WebImageError(.badImageData, "WIRL run at byte \(offset) of \(count) pixels does not fit the \(width)x\(height) image")
            }
            for pixel in filled..<(filled + count) {
                pixels[pixel * 4] = bytes[offset + 1]
                pixels[pixel * 4 + 1] = bytes[offset + 2]
                pixels[pixel * 4 + 2] = bytes[offset + 3]
                pixels[pixel * 4 + 3] = bytes[offset + 4]
            }
            filled += count
            offset += 5
        }
        guard filled == total else {
            throw WebImageError(.badImageData, "WIRL data is truncated: \(filled) of \(total) pixels")
        }
        var bitmap = try Bitmap(width: width, height: height, bytes: pixels, hasAlpha: bytes[9] & 1 == 1)
        var metadata: ImageMetadata = .decoded
        let target = options.targetPixelSize(for: bitmap.size)
        if target != bitmap.size {
            bitmap = try bitmap.resampled(to: target)
            metadata.insert(.thumbnail)
        }
        state.withLock { $0.decoded += 1 }
        return WebImage(bitmap: bitmap, scale: options.scaleFactor, format: .wirl, metadata: metadata)
    }

    /// `true` for ``ImageFormat/wirl``.
    package func canEncode(to format: ImageFormat) -> Bool {
        format == .wirl
    }

    /// Encodes the first frame of `image` as WIRL.
    /// - Throws: ``WebImageError/Code/unsupportedFormat`` for another format;
    ///   ``WebImageError/Code/encodingFailed`` for a side over 65535 pixels.
    package func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard canEncode(to: format) else {
            throw WebImageError(.unsupportedFormat, "RunLengthImageCoder cannot encode \(format)")
        }
        let bitmap = image.bitmap
        guard (1...0xFFFF).contains(bitmap.width), (1...0xFFFF).contains(bitmap.height) else {
            throw WebImageError(.encodingFailed, "WIRL cannot hold a \(bitmap.size) image (each side 1...65535)")
        }
        var output = Self.signature + [Self.version]
        output += [UInt8(bitmap.width >> 8), UInt8(bitmap.width & 0xFF), UInt8(bitmap.height >> 8), UInt8(bitmap.height & 0xFF)]
        output.append(bitmap.hasAlpha ? 1 : 0)
        var run: (count: Int, pixel: RGBAColor)?
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let pixel = bitmap[x, y]
                if let current = run, current.pixel == pixel, current.count < 255 {
                    run = (current.count + 1, pixel)
                } else {
                    if let current = run { Self.append(current, to: &output) }
                    run = (1, pixel)
                }
            }
        }
        if let current = run { Self.append(current, to: &output) }
        state.withLock { $0.encoded += 1 }
        return Data(output)
    }

    private static func append(_ run: (count: Int, pixel: RGBAColor), to output: inout [UInt8]) {
        output += [UInt8(run.count), run.pixel.red, run.pixel.green, run.pixel.blue, run.pixel.alpha]
    }
}
