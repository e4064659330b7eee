import Foundation
import WebImageCoders
import WebImageCore

/// A coder that decodes under a ``MemoryBudget``: before a decode allocates, its bitmap's bytes
/// (from the data's headers: width x height x 4, times the frames unless only the first is
/// asked for) are reserved, waiting while the budget is spent; after it, the reservation is
/// held for the request that renders the image (``MemoryBudget/hold(_:until:)``). Encoding and
/// everything else are the base coder's.
///
/// A JPEG still decoded for a thumbnail (shrink-on-load's reduced decode, ``ShrinkOnLoadCoder``)
/// reserves what that decode allocates, not the full size: libjpeg's output at the smallest DCT
/// scale (n/8) that covers the thumbnail, plus the thumbnail itself when the decoder resizes that
/// output again (JPEGCoder's rule). A 3000x2000 JPEG decoded at 1/4 for a 512-pixel answer holds
/// 1.5 MB of the budget, not 24 MB. Other formats reserve their full size, whatever the options
/// (their coders may decode whole and resize after).
///
/// Decisions: data whose headers the base coder cannot read (a plug-in coder that is no
/// ``/WebImageCore/ImageHeaderReader``) is decoded first and its image's bytes reserved after,
/// without waiting, so the decodes after it wait for them; data whose headers already break the
/// decode's pixel or frame limits goes straight to the base coder, which refuses it with its
/// own error (`422`), not with the budget's.
struct MemoryBudgetedCoder: SourceCoderWrapper {
    let base: any ImageCoder
    let budget: MemoryBudget

    func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        guard let properties = sourceProperties(of: data, options: options) else {
            let image = try base.decode(data, options: options)
            budget.hold(budget.forceReserve(image.memoryCost), until: image)
            return image
        }
        guard let bytes = Self.decodedBytes(properties, options: options) else {
            return try base.decode(data, options: options)
        }
        let reservation = try budget.reserve(bytes, for: "\(properties.format) image of \(properties.pixelSize) (\(data.count) bytes of data)")
        do {
            let image = try base.decode(data, options: options)
            budget.hold(reservation, until: image)
            return image
        } catch {
            reservation.release()
            throw error
        }
    }

    /// The bytes the decode's bitmaps take, or `nil` when the headers are over the decode's
    /// limits (the base coder refuses those) or the size overflows.
    static func decodedBytes(_ properties: ImageProperties, options: ImageDecodeOptions) -> Int? {
        guard let pixels = properties.pixelSize.pixelCount, pixels <= options.maxPixelCount else { return nil }
        let frames = options.firstFrameOnly ? 1 : max(1, properties.frameCount)
        guard frames <= options.maxFrameCount else { return nil }
        let (total, overflow) = pixels.multipliedReportingOverflow(by: frames)
        guard !overflow, total <= options.maxTotalPixelCount else { return nil }
        let (bytes, bytesOverflow) = total.multipliedReportingOverflow(by: Bitmap.bytesPerPixel)
        guard !bytesOverflow else { return nil }
        if properties.format == .jpeg, frames == 1, options.thumbnailPixelSize != nil {
            return min(bytes, reducedJPEGBytes(properties, options: options))
        }
        return bytes
    }

    /// The bytes of a JPEG's thumbnail decode: the DCT-scaled output (the smallest n/8 whose
    /// sides, rounded up, cover the target in the stored orientation) and the target when it
    /// differs from that output. The caller has checked the full size against the limits.
    static func reducedJPEGBytes(_ properties: ImageProperties, options: ImageDecodeOptions) -> Int {
        let stored = properties.pixelSize
        let upright = properties.orientedPixelSize
        let uprightTarget = options.targetPixelSize(for: upright)
        let target = properties.orientation >= 5 ? PixelSize(width: uprightTarget.height, height: uprightTarget.width) : uprightTarget
        // The decoder's own rules (JPEGDecoding), so the reservation follows them.
        let output = JPEGDecoding.scaledSize(stored, eighths: Int(JPEGDecoding.dctScale(from: stored, to: target)))
        let outputBytes = output.width * output.height * Bitmap.bytesPerPixel
        return output == target ? outputBytes : outputBytes + target.width * target.height * Bitmap.bytesPerPixel
    }
}
