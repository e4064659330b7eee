import CHEIF
import Foundation
import WebImageCore
import WebImageColor

/// Decoding of the primary image of a HEIF file (HEVC, or AV1 when libheif has a decoder for
/// it) into RGBA8, with libheif's transformations (`clap` crop, `irot` rotation, `imir` mirror)
/// applied, alpha kept, and HDR (10/12-bit) reduced to 8 bits by libheif.
enum HEIFDecoding {
    /// What ``decode(_:options:embeddedThumbnails:)`` made.
    struct Output {
        /// The pixels, at the size the options ask for.
        var bitmap: Bitmap
        /// Whether the bitmap is smaller than the primary image (a thumbnail).
        var isThumbnail: Bool
        /// Whether it came from a thumbnail image stored in the file.
        var fromEmbeddedThumbnail: Bool
        /// What was done with the image's colour profile (converted to sRGB, or kept).
        var color = ColorPlan.none
    }

    /// The most thumbnails looked at in one file (files have 0 or 1).
    static let maximumThumbnails: Int32 = 16

    /// Decodes the primary image of `data`.
    /// - Parameters:
    ///   - embeddedThumbnails: For a thumbnail request, decode a thumbnail stored in the file
    ///     (at least as large as the request on both sides, of the primary image's aspect ratio)
    ///     instead of the primary image.
    /// - Throws: ``WebImageError/Code/badImageData``, ``WebImageError/Code/imageTooLarge``.
    static func decode(_ data: Data, options: ImageDecodeOptions, embeddedThumbnails: Bool) throws -> Output {
        let what = "HEIF data of \(data.count) bytes"
        guard !data.isEmpty else { throw WebImageError(.badImageData, "\(what) is empty") }
        guard HEIFLibrary.initialized else {
            throw WebImageError(.badImageData, "\(what) cannot be decoded: libheif failed to initialise")
        }
        let truncated = { HEIFBoxes.isTruncated(data) }
        return try data.withUnsafeBytes { raw in
            guard let context = heif_context_alloc() else {
                throw WebImageError(.badImageData, "\(what) cannot be decoded: libheif is out of memory")
            }
            defer { heif_context_free(context) }
            heif_context_set_maximum_image_size_limit(context, sideLimit(options.maxPixelCount))
            // The data outlives the context: both end in this closure.
            try HEIFStatus.check(heif_context_read_from_memory_without_copy(context, raw.baseAddress, raw.count, nil), what, truncated: truncated())
            var primaryHandle: OpaquePointer?
            try HEIFStatus.check(heif_context_get_primary_image_handle(context, &primaryHandle), "\(what) (its primary image)", truncated: truncated())
            guard let primary = primaryHandle else {
                throw WebImageError(.badImageData, "\(what) has no primary image")
            }
            defer { heif_image_handle_release(primary) }
            let size = try checkedSize(primary, options: options, what: "the primary image of \(what)")
            let target = options.targetPixelSize(for: size)
            var output: Output
            if target == size {
                output = Output(bitmap: try decodeHandle(primary, expected: size, what: what, truncated: truncated), isThumbnail: false, fromEmbeddedThumbnail: false)
            } else if embeddedThumbnails, let bitmap = decodeEmbeddedThumbnail(of: primary, size: size, target: target, options: options, what: what) {
                output = Output(bitmap: bitmap, isThumbnail: true, fromEmbeddedThumbnail: true)
            } else {
                let full = try decodeHandle(primary, expected: size, what: what, truncated: truncated)
                output = Output(bitmap: try full.resampled(to: target, filter: .lanczos3), isThumbnail: true, fromEmbeddedThumbnail: false)
            }
            // The primary image's colour profile to sRGB, or kept (a thumbnail item shows the
            // same picture).
            output.color = ColorConversion.plan(for: colorProfile(of: primary), options: options)
            output.color.apply(to: &output.bitmap)
            return output
        }
    }

    /// What a HEIF file's boxes say about its primary image, read without decoding pixels.
    struct Header {
        /// The displayed size (after the transformations).
        var size: PixelSize
        var hasAlpha: Bool
        /// The sizes of the stored thumbnails a thumbnail decode may use (``hasAspect(_:of:)``).
        var thumbnailSizes: [PixelSize]
    }

    /// Reads the primary image's header of `data` (libheif parses the boxes; nothing is decoded).
    /// - Throws: ``WebImageError/Code/badImageData``.
    static func readHeader(_ data: Data) throws -> Header {
        let what = "HEIF data of \(data.count) bytes"
        guard !data.isEmpty else { throw WebImageError(.badImageData, "\(what) is empty") }
        guard HEIFLibrary.initialized else {
            throw WebImageError(.badImageData, "\(what) cannot be read: libheif failed to initialise")
        }
        return try data.withUnsafeBytes { raw in
            guard let context = heif_context_alloc() else {
                throw WebImageError(.badImageData, "\(what) cannot be read: libheif is out of memory")
            }
            defer { heif_context_free(context) }
            try HEIFStatus.check(heif_context_read_from_memory_without_copy(context, raw.baseAddress, raw.count, nil), what, truncated: HEIFBoxes.isTruncated(data))
            var primaryHandle: OpaquePointer?
            try HEIFStatus.check(heif_context_get_primary_image_handle(context, &primaryHandle), "\(what) (its primary image)", truncated: HEIFBoxes.isTruncated(data))
            guard let primary = primaryHandle else { throw WebImageError(.badImageData, "\(what) has no primary image") }
            defer { heif_image_handle_release(primary) }
            let size = PixelSize(width: Int(heif_image_handle_get_width(primary)), height: Int(heif_image_handle_get_height(primary)))
            guard size.width > 0, size.height > 0 else {
                throw WebImageError(.badImageData, "the primary image of \(what) claims an empty image (\(size))")
            }
            let thumbnails = thumbnailHandles(of: primary).compactMap { handle -> PixelSize? in
                defer { heif_image_handle_release(handle) }
                let thumbnail = PixelSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
                return hasAspect(thumbnail, of: size) ? thumbnail : nil
            }
            return Header(size: size, hasAlpha: heif_image_handle_has_alpha_channel(primary) != 0, thumbnailSizes: thumbnails)
        }
    }

    /// Whether a thumbnail of `thumbnail` shows an image of `size` (not empty, the same aspect
    /// ratio within 2%): the thumbnails a thumbnail decode may use.
    static func hasAspect(_ thumbnail: PixelSize, of size: PixelSize) -> Bool {
        guard !thumbnail.isEmpty, !size.isEmpty else { return false }
        let aspect = Double(size.width) / Double(size.height)
        return abs(Double(thumbnail.width) / Double(thumbnail.height) - aspect) <= aspect * 0.02
    }

    /// The handles of the thumbnails stored for `primary` (at most ``maximumThumbnails``); the
    /// caller releases each.
    private static func thumbnailHandles(of primary: OpaquePointer) -> [OpaquePointer] {
        let count = min(maximumThumbnails, heif_image_handle_get_number_of_thumbnails(primary))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: Int(count))
        let listed = heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, count)
        return ids.prefix(Int(max(0, listed))).compactMap { id in
            var handle: OpaquePointer?
            guard heif_image_handle_get_thumbnail(primary, id, &handle).code == heif_error_Ok else { return nil }
            return handle
        }
    }

    /// The colour profile of `handle`: its ICC profile (`prof`, `rICC`), else the profile its
    /// `nclx` code points name (`nil` for sRGB, unspecified, PQ and HLG), else `nil`. libheif
    /// converts YCbCr to RGB with the matrix; the primaries and the curve are ours to convert.
    static func colorProfile(of handle: OpaquePointer) -> Data? {
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        if size > 0, size <= ColorConversion.maximumProfileBytes {
            var profile = Data(count: size)
            let error = profile.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
            if error.code == heif_error_Ok { return profile }
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        let error = heif_image_handle_get_nclx_color_profile(handle, &nclx)
        guard error.code == heif_error_Ok, let nclx else { return nil }
        defer { heif_nclx_color_profile_free(nclx) }
        return ColorConversion.profile(primaries: Int(nclx.pointee.color_primaries.rawValue), transfer: Int(nclx.pointee.transfer_characteristics.rawValue))
    }

    /// The displayed size of `handle` (after its transformations), checked against the pixel
    /// limit together with its coded (`ispe`) size, which is what the codec allocates.
    static func checkedSize(_ handle: OpaquePointer, options: ImageDecodeOptions, what: String) throws -> PixelSize {
        let size = PixelSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
        let coded = PixelSize(width: Int(heif_image_handle_get_ispe_width(handle)), height: Int(heif_image_handle_get_ispe_height(handle)))
        guard size.width > 0, size.height > 0 else {
            throw WebImageError(.badImageData, "\(what) claims an empty image (\(size))")
        }
        for candidate in [size, coded] {
            guard let pixels = candidate.pixelCount, pixels <= options.maxPixelCount else {
                throw WebImageError(.imageTooLarge, "\(what) of \(candidate) is over the limit of \(options.maxPixelCount) pixels")
            }
        }
        return size
    }

    /// libheif 1.15's default limit on each side (its `MAX_IMAGE_WIDTH` and `MAX_IMAGE_HEIGHT`).
    static let libraryDefaultSideLimit = 32768

    /// libheif's own per-side limit for a pixel budget: no side of an allowed image is longer
    /// than the budget (the other side is at least 1); never above libheif's default, so that
    /// a large budget does not loosen libheif's own guard.
    static func sideLimit(_ maxPixelCount: Int) -> Int32 {
        Int32(min(libraryDefaultSideLimit, max(1, maxPixelCount)))
    }

    /// The smallest stored thumbnail at least `target` on both sides with the aspect ratio of
    /// `size` (within 2%), decoded and resampled (Lanczos-3) to `target`; `nil` when there is
    /// none or it fails to decode (the primary image is decoded instead).
    private static func decodeEmbeddedThumbnail(of primary: OpaquePointer, size: PixelSize, target: PixelSize, options: ImageDecodeOptions, what: String) -> Bitmap? {
        var best: (handle: OpaquePointer, size: PixelSize)?
        defer { if let best { heif_image_handle_release(best.handle) } }
        for handle in thumbnailHandles(of: primary) {
            guard let thumbnailSize = try? checkedSize(handle, options: options, what: "a thumbnail"),
                  thumbnailSize.width >= target.width, thumbnailSize.height >= target.height,
                  hasAspect(thumbnailSize, of: size),
                  (thumbnailSize.pixelCount ?? .max) < (best?.size.pixelCount ?? .max) else {
                heif_image_handle_release(handle)
                continue
            }
            if let previous = best { heif_image_handle_release(previous.handle) }
            best = (handle, thumbnailSize)
        }
        guard let best, let bitmap = try? decodeHandle(best.handle, expected: best.size, what: "the thumbnail of \(what)") else { return nil }
        return bitmap.size == target ? bitmap : try? bitmap.resampled(to: target, filter: .lanczos3)
    }

    /// Decodes `handle` to RGBA8 (libheif converts YCbCr and HDR, applies the transformations
    /// and, for an image without alpha, fills alpha with 255).
    /// - Parameters:
    ///   - truncated: Tells, after a failure, whether the data is cut short (for the message).
    static func decodeHandle(_ handle: OpaquePointer, expected: PixelSize, what: String, truncated: () -> Bool = { false }) throws -> Bitmap {
        let hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
        guard let decodingOptions = heif_decoding_options_alloc() else {
            throw WebImageError(.badImageData, "\(what) cannot be decoded: libheif is out of memory")
        }
        defer { heif_decoding_options_free(decodingOptions) }
        decodingOptions.pointee.convert_hdr_to_8bit = 1
        var decoded: OpaquePointer?
        try HEIFStatus.check(heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, decodingOptions), what, truncated: truncated())
        guard let image = decoded else { throw WebImageError(.badImageData, "\(what) decoded to nothing") }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width == expected.width, height == expected.height,
              heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) == 8,
              let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
              Int(stride) >= width * 4 else {
            throw WebImageError(.badImageData, "\(what) decoded to a \(width)x\(height) image, not the RGBA8 \(expected) its header states")
        }
        let rowBytes = width * 4
        let count = rowBytes * height
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let destination = buffer.baseAddress else { return }
            if Int(stride) == rowBytes {
                destination.update(from: plane, count: count)
            } else {
                for row in 0..<height {
                    (destination + row * rowBytes).update(from: plane + row * Int(stride), count: rowBytes)
                }
            }
            initialized = count
            // libheif 1.15 hands a `prem` image's colour over still multiplied by alpha; the
            // bitmap holds straight alpha.
            if hasAlpha, heif_image_is_premultiplied_alpha(image) != 0 {
                unpremultiply(destination, count: width * height)
            }
        }
        return try Bitmap(width: width, height: height, bytes: pixels, hasAlpha: hasAlpha)
    }

    /// Premultiplied to straight alpha in place, rounding to nearest (a fully transparent pixel
    /// keeps its zeros).
    static func unpremultiply(_ pixels: UnsafeMutablePointer<UInt8>, count: Int) {
        for index in 0..<count {
            let alpha = Int(pixels[4 * index + 3])
            guard alpha != 0, alpha != 255 else { continue }
            for channel in 0..<3 {
                pixels[4 * index + channel] = UInt8(min(255, (Int(pixels[4 * index + channel]) * 255 + alpha / 2) / alpha))
            }
        }
    }
}
