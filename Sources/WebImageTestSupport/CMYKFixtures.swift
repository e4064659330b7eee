import CJPEG
import CLCMS2
package import Foundation
package import WebImageCore

/// CMYK fixtures for colour tests: sRGB pictures separated into CMYK by Little CMS 2 with a
/// real CMYK profile, written as Adobe-style (inverted) CMYK JPEGs by libjpeg, as Photoshop and
/// Pillow write them.
package enum CMYKFixtures {
    /// Ghostscript's default CMYK profile (Debian `libgs-common`), or `nil` when it is absent.
    package static var defaultCMYKProfile: Data? {
        FileManager.default.contents(atPath: "/usr/share/color/icc/ghostscript/default_cmyk.icc")
    }

    /// `bitmap` (sRGB) separated into `profile`'s CMYK (relative colorimetric), inverted as
    /// Adobe stores it (255 is no ink): 4 bytes a pixel.
    package static func separate(_ bitmap: Bitmap, _ profile: Data) -> [UInt8] {
        let count = bitmap.width * bitmap.height
        var cmyk = [UInt8](repeating: 0, count: count * 4)
        profile.withUnsafeBytes { raw in
            let target = cmsOpenProfileFromMem(raw.baseAddress, UInt32(raw.count))
            let srgb = cmsCreate_sRGBProfile()
            defer { cmsCloseProfile(target); cmsCloseProfile(srgb) }
            let transform = cmsCreateTransform(srgb, wi_lcms_type_rgba_8(), target, wi_lcms_type_cmyk_8_rev(), UInt32(INTENT_RELATIVE_COLORIMETRIC), 0)
            defer { cmsDeleteTransform(transform) }
            cmsDoTransform(transform, bitmap.bytes, &cmyk, UInt32(count))
        }
        return cmyk
    }

    /// The sRGB pixels lcms2 itself makes of Adobe-inverted `cmyk` in `profile`: the reference a
    /// colour-managed decode is compared with.
    package static func reference(_ cmyk: [UInt8], size: PixelSize, _ profile: Data) throws -> Bitmap {
        let count = size.width * size.height
        var rgba = [UInt8](repeating: 255, count: count * 4)
        profile.withUnsafeBytes { raw in
            let source = cmsOpenProfileFromMem(raw.baseAddress, UInt32(raw.count))
            let srgb = cmsCreate_sRGBProfile()
            defer { cmsCloseProfile(source); cmsCloseProfile(srgb) }
            let transform = cmsCreateTransform(source, wi_lcms_type_cmyk_8_rev(), srgb, wi_lcms_type_rgba_8(), UInt32(INTENT_RELATIVE_COLORIMETRIC), 0)
            defer { cmsDeleteTransform(transform) }
            cmsDoTransform(transform, cmyk, &rgba, UInt32(count))
        }
        for index in stride(from: 3, to: rgba.count, by: 4) { rgba[index] = 255 }
        return try Bitmap(width: size.width, height: size.height, bytes: rgba, hasAlpha: false)
    }

    /// `cmyk` (4 bytes a pixel, as stored) as a baseline CMYK JPEG at `quality`, with the
    /// Adobe APP14 marker libjpeg writes for CMYK (so readers take it as inverted).
    package static func jpeg(_ cmyk: [UInt8], size: PixelSize, quality: Int32 = 100) -> Data {
        var errors = jpeg_error_mgr()
        var info = jpeg_compress_struct()
        info.err = jpeg_std_error(&errors)
        jpeg_CreateCompress(&info, JPEG_LIB_VERSION, MemoryLayout<jpeg_compress_struct>.size)
        defer { jpeg_destroy_compress(&info) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        jpeg_mem_dest(&info, &buffer, &length)
        info.image_width = JDIMENSION(size.width)
        info.image_height = JDIMENSION(size.height)
        info.input_components = 4
        info.in_color_space = JCS_CMYK
        jpeg_set_defaults(&info)
        jpeg_set_colorspace(&info, JCS_CMYK)
        jpeg_set_quality(&info, quality, 1)
        jpeg_start_compress(&info, 1)
        cmyk.withUnsafeBufferPointer { pixels in
            while info.next_scanline < info.image_height {
                var row: UnsafeMutablePointer<UInt8>? = UnsafeMutablePointer(mutating: pixels.baseAddress! + Int(info.next_scanline) * size.width * 4)
                jpeg_write_scanlines(&info, &row, 1)
            }
        }
        jpeg_finish_compress(&info)
        defer { free(buffer) }
        return Data(bytes: buffer!, count: Int(length))
    }
}
