import CCairoGLib
public import WebImageCore

/// Cairo image surfaces to ``/WebImageCore/Bitmap``s, for the plug-ins that draw with cairo
/// (SVGCoder, PDFCoder). A surface is cairo's `cairo_surface_t *`, as the `OpaquePointer` every
/// module that includes cairo's header gets; the caller destroys it.
public enum CairoPixels {
    /// A new ARGB32 image surface of `size`, cleared to transparent.
    /// - Throws: ``/WebImageCore/WebImageError/Code/imageTooLarge`` when cairo cannot make it (out of
    ///   memory, a side over 32767).
    public static func makeSurface(_ size: PixelSize, what: String) throws -> OpaquePointer {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size.width), Int32(size.height)) else {
            throw WebImageError(.imageTooLarge, "\(what): cairo made no \(size) surface")
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw WebImageError(.imageTooLarge, "\(what): cairo cannot make a \(size) surface (\(String(cString: cairo_status_to_string(status))))")
        }
        return surface
    }

    /// The pixels of an ARGB32 surface (native-endian 32-bit words, premultiplied alpha) as
    /// RGBA8 with straight alpha, rounding to nearest.
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` when the surface holds no pixels.
    public static func bitmap(of surface: OpaquePointer, what: String) throws -> Bitmap {
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard width > 0, height > 0, stride >= width * 4, let data = cairo_image_surface_get_data(surface) else {
            throw WebImageError(.badImageData, "\(what): cairo's surface holds no pixels")
        }
        let rowBytes = width * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, initialized in
            guard let destination = buffer.baseAddress else { return }
            data.withMemoryRebound(to: UInt8.self, capacity: stride * height) { source in
                for y in 0..<height {
                    let row = UnsafeRawPointer(source + y * stride)
                    let out = destination + y * rowBytes
                    for x in 0..<width {
                        let word = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                        let alpha = Int(word >> 24)
                        var red = Int((word >> 16) & 0xFF), green = Int((word >> 8) & 0xFF), blue = Int(word & 0xFF)
                        if alpha != 255 && alpha != 0 {
                            red = min(255, (red * 255 + alpha / 2) / alpha)
                            green = min(255, (green * 255 + alpha / 2) / alpha)
                            blue = min(255, (blue * 255 + alpha / 2) / alpha)
                        } else if alpha == 0 {
                            red = 0; green = 0; blue = 0
                        }
                        out[x * 4] = UInt8(red)
                        out[x * 4 + 1] = UInt8(green)
                        out[x * 4 + 2] = UInt8(blue)
                        out[x * 4 + 3] = UInt8(alpha)
                    }
                }
            }
            initialized = rowBytes * height
        }
        return try Bitmap(width: width, height: height, bytes: pixels, hasAlpha: true)
    }
}
