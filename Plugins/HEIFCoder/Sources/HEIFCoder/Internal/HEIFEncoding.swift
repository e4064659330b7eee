import CHEIF
import Foundation
import WebImageCore

/// Encoding of one bitmap to HEIC with libheif's HEVC encoder (x265 on Debian).
enum HEIFEncoding {
    /// How to encode.
    struct Settings: Sendable {
        /// libheif's lossy quality, 0...100.
        var quality: Int
        /// The box (side in pixels) of an embedded thumbnail, or `nil` for none.
        var thumbnailSide: Int?
        /// An ICC profile to write in a `colr` box (a kept ``/WebImageCore/WebImage/colorProfile``).
        var iccProfile: Data?
    }

    /// The largest side libheif's HEVC path takes in one image (x265's limit is 16888; libheif
    /// writes larger images as grids only from 1.16).
    static let maximumSide = 16384

    /// Encodes `bitmap` as HEIC.
    /// - Throws: ``WebImageError/Code/encodingFailed``.
    static func encode(_ bitmap: Bitmap, settings: Settings) throws -> Data {
        guard bitmap.width >= 1, bitmap.height >= 1, bitmap.width <= maximumSide, bitmap.height <= maximumSide else {
            throw WebImageError(.encodingFailed, "HEIC cannot hold a \(bitmap.size) image here (1...\(maximumSide) pixels per side)")
        }
        guard HEIFLibrary.initialized, HEIFLibrary.encodesHEVC else {
            throw WebImageError(.encodingFailed, "libheif \(HEIFLibrary.version) has no HEVC encoder (x265)")
        }
        guard let context = heif_context_alloc() else {
            throw WebImageError(.encodingFailed, "libheif is out of memory")
        }
        defer { heif_context_free(context) }
        var encoderPointer: OpaquePointer?
        try HEIFStatus.checkEncoding(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoderPointer), "find an HEVC encoder")
        guard let encoder = encoderPointer else { throw WebImageError(.encodingFailed, "libheif has no HEVC encoder") }
        defer { heif_encoder_release(encoder) }
        try HEIFStatus.checkEncoding(heif_encoder_set_lossy_quality(encoder, Int32(min(100, max(0, settings.quality)))), "set the quality \(settings.quality)")

        let image = try makeImage(bitmap)
        defer { heif_image_release(image) }
        if let profile = settings.iccProfile, !profile.isEmpty {
            try profile.withUnsafeBytes { icc in
                try HEIFStatus.checkEncoding(heif_image_set_raw_color_profile(image, "prof", icc.baseAddress, icc.count), "attach a \(profile.count)-byte ICC profile")
            }
        }
        guard let encodingOptions = heif_encoding_options_alloc() else {
            throw WebImageError(.encodingFailed, "libheif is out of memory")
        }
        defer { heif_encoding_options_free(encodingOptions) }
        encodingOptions.pointee.save_alpha_channel = bitmap.hasAlpha ? 1 : 0
        var handlePointer: OpaquePointer?
        try HEIFStatus.checkEncoding(heif_context_encode_image(context, image, encoder, encodingOptions, &handlePointer), "encode a \(bitmap.size) image")
        if let handle = handlePointer {
            defer { heif_image_handle_release(handle) }
            if let side = settings.thumbnailSide, side > 0, let size = thumbnailSize(of: bitmap.size, side: side) {
                // Resampled here with Lanczos-3: libheif 1.15's heif_context_encode_thumbnail
                // scales by nearest neighbour, whose aliasing a thumbnail decode would show.
                let thumbnailImage = try makeImage(try bitmap.resampled(to: size, filter: .lanczos3))
                defer { heif_image_release(thumbnailImage) }
                var thumbnailPointer: OpaquePointer?
                try HEIFStatus.checkEncoding(
                    heif_context_encode_image(context, thumbnailImage, encoder, encodingOptions, &thumbnailPointer),
                    "encode a \(size) thumbnail"
                )
                guard let thumbnail = thumbnailPointer else { throw WebImageError(.encodingFailed, "libheif gave no handle for a \(size) thumbnail") }
                defer { heif_image_handle_release(thumbnail) }
                // libheif's heif_context_assign_thumbnail hands its two handles to the context in
                // the opposite order of its declaration (master, thumbnail): the thumbnail goes
                // first here so that the file says "thumbnail of the primary image" (the tests
                // read the reference back).
                try HEIFStatus.checkEncoding(heif_context_assign_thumbnail(context, thumbnail, handle), "store a \(size) thumbnail")
            }
        }
        return try write(context)
    }

    /// The size of the thumbnail stored for an image of `size` in a box of `side` pixels, as
    /// libheif's `heif_context_encode_thumbnail` sizes it (the longer side `side`, the other
    /// scaled and rounded down, at least 1); `nil` when the image fits in the box (no thumbnail).
    static func thumbnailSize(of size: PixelSize, side: Int) -> PixelSize? {
        guard size.width > side || size.height > side else { return nil }
        return size.width > size.height
            ? PixelSize(width: side, height: max(1, size.height * side / size.width))
            : PixelSize(width: max(1, size.width * side / size.height), height: side)
    }

    /// An RGB(A) libheif image holding a copy of `bitmap`'s pixels (interleaved RGBA, or RGB for
    /// an opaque bitmap so that no alpha plane is written).
    private static func makeImage(_ bitmap: Bitmap) throws -> OpaquePointer {
        let chroma = bitmap.hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
        let channels = bitmap.hasAlpha ? 4 : 3
        var created: OpaquePointer?
        try HEIFStatus.checkEncoding(heif_image_create(Int32(bitmap.width), Int32(bitmap.height), heif_colorspace_RGB, chroma, &created), "make a \(bitmap.size) image")
        guard let image = created else { throw WebImageError(.encodingFailed, "libheif is out of memory") }
        do {
            try HEIFStatus.checkEncoding(heif_image_add_plane(image, heif_channel_interleaved, Int32(bitmap.width), Int32(bitmap.height), 8), "allocate a \(bitmap.size) image")
            var stride: Int32 = 0
            guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
                throw WebImageError(.encodingFailed, "libheif gave no plane for a \(bitmap.size) image")
            }
            bitmap.bytes.withUnsafeBufferPointer { source in
                guard let source = source.baseAddress else { return }
                for y in 0..<bitmap.height {
                    let from = source + y * bitmap.bytesPerRow
                    let to = plane + y * Int(stride)
                    if channels == 4 {
                        to.update(from: from, count: bitmap.width * 4)
                    } else {
                        for x in 0..<bitmap.width {
                            to[x * 3] = from[x * 4]
                            to[x * 3 + 1] = from[x * 4 + 1]
                            to[x * 3 + 2] = from[x * 4 + 2]
                        }
                    }
                }
            }
            return image
        } catch {
            heif_image_release(image)
            throw error
        }
    }

    /// The bytes of the file `context` holds, through a `heif_writer` into memory.
    private static func write(_ context: OpaquePointer) throws -> Data {
        let sink = OutputSink()
        var writer = heif_writer(writer_api_version: 1) { _, bytes, count, userData in
            if let userData, let bytes {
                Unmanaged<OutputSink>.fromOpaque(userData).takeUnretainedValue().data.append(bytes.assumingMemoryBound(to: UInt8.self), count: count)
            }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: OutputSink.okMessage)
        }
        let result = withExtendedLifetime(sink) {
            heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque())
        }
        try HEIFStatus.checkEncoding(result, "write the file")
        return sink.data
    }
}

/// Where `heif_context_write` puts the file (used on the calling thread only).
private final class OutputSink {
    /// The message of a successful write (libheif expects a C string).
    static var okMessage: UnsafePointer<CChar> { UnsafeRawPointer(("Success" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self) }
    var data = Data()
}
