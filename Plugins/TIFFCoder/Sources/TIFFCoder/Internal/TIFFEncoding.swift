import CTIFF
import Foundation
import WebImageCore

/// Writes RGBA8 bitmaps as TIFF directories.
enum TIFFEncoding {
    /// Writes `bitmap` as one directory: 8-bit RGB, or RGBA with unassociated alpha.
    static func writePage(_ bitmap: Bitmap, handle: TIFFHandle, compression: TIFFCoder.Compression, profile: Data?, page: (Int, Int)?) throws {
        let tif = handle.tif
        let alpha = bitmap.hasAlpha
        let samples = alpha ? 4 : 3
        let width = bitmap.width, height = bitmap.height
        var ok = true
        ok = ok && wi_tiff_set_u32(tif, UInt32(TIFFTAG_IMAGEWIDTH), UInt32(width)) != 0
        ok = ok && wi_tiff_set_u32(tif, UInt32(TIFFTAG_IMAGELENGTH), UInt32(height)) != 0
        ok = ok && wi_tiff_set_u16(tif, UInt32(TIFFTAG_BITSPERSAMPLE), 8) != 0
        ok = ok && wi_tiff_set_u16(tif, UInt32(TIFFTAG_SAMPLESPERPIXEL), UInt16(samples)) != 0
        ok = ok && wi_tiff_set_u16(tif, UInt32(TIFFTAG_PHOTOMETRIC), UInt16(PHOTOMETRIC_RGB)) != 0
        ok = ok && wi_tiff_set_u16(tif, UInt32(TIFFTAG_PLANARCONFIG), UInt16(PLANARCONFIG_CONTIG)) != 0
        ok = ok && wi_tiff_set_u16(tif, UInt32(TIFFTAG_ORIENTATION), UInt16(ORIENTATION_TOPLEFT)) != 0
        switch compression {
        case .deflate:
            ok = ok && wi_tiff_set_u16(tif, UInt32(TIFFTAG_COMPRESSION), UInt16(COMPRESSION_ADOBE_DEFLATE)) != 0
            ok = ok && wi_tiff_set_u16(tif, UInt32(TIFFTAG_PREDICTOR), UInt16(PREDICTOR_HORIZONTAL)) != 0
        case .lzw:
            ok = ok && wi_tiff_set_u16(tif, UInt32(TIFFTAG_COMPRESSION), UInt16(COMPRESSION_LZW)) != 0
            ok = ok && wi_tiff_set_u16(tif, UInt32(TIFFTAG_PREDICTOR), UInt16(PREDICTOR_HORIZONTAL)) != 0
        case .none:
            ok = ok && wi_tiff_set_u16(tif, UInt32(TIFFTAG_COMPRESSION), UInt16(COMPRESSION_NONE)) != 0
        }
        if alpha {
            var extra = UInt16(EXTRASAMPLE_UNASSALPHA)
            ok = ok && wi_tiff_set_extra_samples(tif, 1, &extra) != 0
        }
        if page != nil {
            ok = ok && wi_tiff_set_u32(tif, UInt32(TIFFTAG_SUBFILETYPE), UInt32(FILETYPE_PAGE)) != 0
        }
        if let profile, !profile.isEmpty {
            ok = ok && profile.withUnsafeBytes { wi_tiff_set_icc(tif, UInt32($0.count), $0.baseAddress) } != 0
        }
        ok = ok && wi_tiff_set_u32(tif, UInt32(TIFFTAG_ROWSPERSTRIP), TIFFDefaultStripSize(tif, 0)) != 0
        guard ok else { throw WebImageError(.encodingFailed, "libtiff refused the tags of a \(width)x\(height) page: \(handle.lastError ?? "no message")") }
        var row = [UInt8](repeating: 0, count: width * samples)
        for y in 0..<height {
            bitmap.bytes.withUnsafeBufferPointer { source in
                let base = y * bitmap.bytesPerRow
                for x in 0..<width {
                    for c in 0..<samples { row[x * samples + c] = source[base + x * 4 + c] }
                }
            }
            let written = row.withUnsafeMutableBytes { TIFFWriteScanline(tif, $0.baseAddress, UInt32(y), 0) }
            guard written >= 0 else { throw WebImageError(.encodingFailed, "libtiff failed to write row \(y): \(handle.lastError ?? "no message")") }
        }
        guard TIFFWriteDirectory(tif) != 0 else {
            throw WebImageError(.encodingFailed, "libtiff failed to write the directory of a \(width)x\(height) page: \(handle.lastError ?? "no message")")
        }
    }
}
