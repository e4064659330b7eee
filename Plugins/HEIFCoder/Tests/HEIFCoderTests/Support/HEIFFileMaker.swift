import CHEIF
import Foundation
import WebImageCore

/// Writes HEIC files with libheif's C API directly, for what the coder's encoder does not
/// write: an orientation (`irot`/`imir`), a `clap` crop, 10-bit pixels, a thumbnail whose
/// pixels differ from the primary image's.
enum HEIFFileMaker {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Encodes `bitmap` (opaque, 8-bit) with the given orientation, crop style and optional
    /// separate thumbnail.
    /// - Parameters:
    ///   - orientation: EXIF-style orientation 1...8 written as `irot`/`imir`.
    ///   - clap: Crop odd sizes with a `clap` box (`true`) or libheif's grid wrapper (`false`).
    ///   - thumbnail: Pixels stored as the thumbnail (encoded at most `thumbnailSide` pixels).
    static func heic(_ bitmap: Bitmap, orientation: Int = 1, clap: Bool = false, thumbnail: Bitmap? = nil, thumbnailSide: Int = 64, quality: Int = 90) throws -> Data {
        let image = try makeImage(width: bitmap.width, height: bitmap.height, bitDepth: 8) { x, y in
            let color = bitmap[x, y]
            return (Int(color.red), Int(color.green), Int(color.blue))
        }
        defer { heif_image_release(image) }
        let thumbnailImage = try thumbnail.map { thumb in
            try makeImage(width: thumb.width, height: thumb.height, bitDepth: 8) { x, y in
                let color = thumb[x, y]
                return (Int(color.red), Int(color.green), Int(color.blue))
            }
        }
        defer { if let thumbnailImage { heif_image_release(thumbnailImage) } }
        return try encode(image, orientation: orientation, clap: clap, thumbnail: thumbnailImage, thumbnailSide: thumbnailSide, quality: quality)
    }

    /// A 10-bit HEIC of `width` x `height` whose every pixel is `value` (0...1023) on each
    /// channel.
    static func heic10Bit(width: Int, height: Int, value: (Int, Int) -> (Int, Int, Int)) throws -> Data {
        let image = try makeImage(width: width, height: height, bitDepth: 10, value)
        defer { heif_image_release(image) }
        return try encode(image, orientation: 1, clap: false, thumbnail: nil, thumbnailSide: 0, quality: 95)
    }

    private static func check(_ error: heif_error, _ step: String) throws {
        guard error.code != heif_error_Ok else { return }
        throw Failure(description: "\(step): \(String(cString: error.message))")
    }

    private static func makeImage(width: Int, height: Int, bitDepth: Int32, _ color: (Int, Int) -> (Int, Int, Int)) throws -> OpaquePointer {
        let chroma = bitDepth > 8 ? heif_chroma_interleaved_RRGGBB_LE : heif_chroma_interleaved_RGB
        var created: OpaquePointer?
        try check(heif_image_create(Int32(width), Int32(height), heif_colorspace_RGB, chroma, &created), "create")
        guard let image = created else { throw Failure(description: "no image") }
        try check(heif_image_add_plane(image, heif_channel_interleaved, Int32(width), Int32(height), bitDepth), "add plane")
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else { throw Failure(description: "no plane") }
        for y in 0..<height {
            let row = plane + y * Int(stride)
            for x in 0..<width {
                let (r, g, b) = color(x, y)
                if bitDepth > 8 {
                    for (index, value) in [r, g, b].enumerated() {
                        row[x * 6 + index * 2] = UInt8(value & 0xFF)
                        row[x * 6 + index * 2 + 1] = UInt8(value >> 8)
                    }
                } else {
                    row[x * 3] = UInt8(r)
                    row[x * 3 + 1] = UInt8(g)
                    row[x * 3 + 2] = UInt8(b)
                }
            }
        }
        return image
    }

    private static func encode(_ image: OpaquePointer, orientation: Int, clap: Bool, thumbnail: OpaquePointer?, thumbnailSide: Int, quality: Int) throws -> Data {
        guard let context = heif_context_alloc() else { throw Failure(description: "no context") }
        defer { heif_context_free(context) }
        var encoderPointer: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoderPointer), "encoder")
        guard let encoder = encoderPointer else { throw Failure(description: "no encoder") }
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, Int32(quality)), "quality")
        guard let options = heif_encoding_options_alloc() else { throw Failure(description: "no options") }
        defer { heif_encoding_options_free(options) }
        options.pointee.macOS_compatibility_workaround = clap ? 0 : 1
        options.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation))
        var handle: OpaquePointer?
        try check(heif_context_encode_image(context, image, encoder, options, &handle), "encode")
        defer { if let handle { heif_image_handle_release(handle) } }
        if let thumbnail, let handle {
            var thumbnailHandle: OpaquePointer?
            try check(heif_context_encode_thumbnail(context, thumbnail, handle, encoder, options, Int32(thumbnailSide), &thumbnailHandle), "thumbnail")
            if let thumbnailHandle { heif_image_handle_release(thumbnailHandle) }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("heifcoder-maker-\(UUID().uuidString).heic")
        defer { try? FileManager.default.removeItem(at: file) }
        try check(heif_context_write_to_file(context, file.path), "write")
        return try Data(contentsOf: file)
    }

    /// The number of thumbnails of the primary image of `data`.
    static func thumbnailCount(_ data: Data) throws -> Int {
        guard let context = heif_context_alloc() else { throw Failure(description: "no context") }
        defer { heif_context_free(context) }
        try data.withUnsafeBytes { raw in
            try check(heif_context_read_from_memory(context, raw.baseAddress, raw.count, nil), "read")
        }
        var handle: OpaquePointer?
        try check(heif_context_get_primary_image_handle(context, &handle), "primary")
        defer { heif_image_handle_release(handle) }
        return Int(heif_image_handle_get_number_of_thumbnails(handle))
    }
}
