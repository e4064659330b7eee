import CWebP
import Foundation
import WebImageCore

/// What the header of a WebP file says, read by `WebPGetFeatures` without decoding pixels.
struct WebPHeader: Sendable {
    /// The image size; for an animation, the canvas size.
    var size: PixelSize
    var hasAlpha: Bool
    var isAnimated: Bool
    /// 1 lossy, 2 lossless, 0 mixed or unknown (animations).
    var encoding: Int
    /// `false` when the data ends before libwebp could read every header it needs (only the
    /// size is known): decoding it can only fail.
    var isComplete = true

    /// The RIFF signature: `RIFF`, 4 bytes of size, `WEBP`.
    static func hasSignature(_ data: Data) -> Bool {
        guard data.count >= 12 else { return false }
        let riff: [UInt8] = Array("RIFF".utf8), webp: [UInt8] = Array("WEBP".utf8)
        let start = data.startIndex
        return data[start..<start + 4].elementsEqual(riff) && data[start + 8..<start + 12].elementsEqual(webp)
    }

    /// Whether `data` could still be the first bytes of a WebP file (a prefix of the signature,
    /// or the signature itself).
    static func couldStartWebP(_ data: Data) -> Bool {
        if data.count >= 12 { return hasSignature(data) }
        let riff: [UInt8] = Array("RIFF".utf8), webp: [UInt8] = Array("WEBP".utf8)
        for (offset, byte) in data.enumerated() {
            if offset < 4, byte != riff[offset] { return false }
            if offset >= 8, byte != webp[offset - 8] { return false }
        }
        return true
    }

    /// Reads the header of `data`.
    /// - Returns: `nil` when more data is needed to read it (only when `partial` is true). Data
    ///   cut short after the size gives a header (decoding it later says "truncated").
    /// - Throws: ``WebImageError/Code/badImageData`` for data that is not WebP or a header that
    ///   libwebp rejects (or that is cut short, unless `partial`).
    static func read(_ data: Data, partial: Bool = false) throws -> WebPHeader? {
        guard hasSignature(data) else {
            if partial && couldStartWebP(data) { return nil }
            throw WebImageError(.badImageData, "\(data.count) bytes are not WebP data (no RIFF....WEBP signature)")
        }
        var features = WebPBitstreamFeatures()
        let status = data.withUnsafeBytes { raw in
            WebPGetFeatures(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &features)
        }
        // Data cut short after the size is known (a VP8X header alone) still gives the size, so
        // the pixel limit is checked before "truncated" is reported.
        let sizeKnown = features.width > 0 && features.height > 0
        if status == VP8_STATUS_NOT_ENOUGH_DATA && !sizeKnown && partial { return nil }
        guard status == VP8_STATUS_OK || status == VP8_STATUS_NOT_ENOUGH_DATA && sizeKnown else {
            throw WebPStatus.decodingError(status, "the header of WebP data of \(data.count) bytes")
        }
        return WebPHeader(
            size: PixelSize(width: Int(features.width), height: Int(features.height)),
            hasAlpha: features.has_alpha != 0,
            isAnimated: features.has_animation != 0,
            encoding: Int(features.format),
            isComplete: status == VP8_STATUS_OK
        )
    }

    /// Throws ``WebImageError/Code/badImageData`` for an empty size and
    /// ``WebImageError/Code/imageTooLarge`` over `options.maxPixelCount`, before any pixel memory
    /// is allocated.
    func checkLimit(_ options: ImageDecodeOptions, byteCount: Int) throws {
        guard !size.isEmpty else {
            throw WebImageError(.badImageData, "WebP data of \(byteCount) bytes claims an empty image (\(size))")
        }
        guard let pixels = size.pixelCount, pixels <= options.maxPixelCount else {
            let kind = isAnimated ? "animated WebP canvas" : "WebP image"
            throw WebImageError(
                .imageTooLarge,
                "\(kind) of \(size) (\(byteCount) bytes of data) is over the limit of \(options.maxPixelCount) pixels"
            )
        }
    }
}
