import CTIFF
import Foundation
import WebImageColor
import WebImageCore

/// Decodes one directory's pixels into RGBA8 with straight alpha, row band by row band, handing
/// each row to a ``RowReducer`` for a thumbnail (so a thumbnail never holds the full image) or
/// into a full-size buffer.
///
/// Two readers:
/// - Contiguous strips of 8-bit grey, RGB, CMYK and CIE Lab, with or without alpha, and the
///   wider samples libtiff's RGBA reader has no rule for (16-bit CMYK; grey, RGB and CMYK of 9
///   to 15 bits, such as 12-bit scans), are read scanline by scanline (`TIFFReadScanline`: a
///   strip of any size is inflated incrementally) and converted here: wide samples are scaled
///   to 8 bits by their depth, unassociated alpha stays exact, associated alpha is divided out,
///   CMYK goes through the file's ICC profile (lcms2) or the plain formula without one, Lab
///   through ``CIELabConversion`` (D50, as colour-managed readers take it).
/// - Everything else (1/2/4/16-bit grey and RGB, palette, tiles, separate planes, YCbCr) goes
///   through libtiff's `TIFFRGBAImage`, one strip or tile row at a time; its output is
///   premultiplied whenever there is alpha, and is divided back to straight alpha.
enum TIFFPageDecoding {
    /// The decoded page at its stored orientation, and whether its colour was converted.
    struct Result {
        /// The pixels, at the target size, in stored orientation.
        var bitmap: Bitmap
        /// The CMYK rows went through an ICC profile.
        var convertedCMYK: Bool
    }

    /// Decodes the current directory (`info`) at `storedTarget` (the stored orientation).
    static func decode(_ info: TIFFDirectoryInfo, handle: TIFFHandle, storedTarget: PixelSize) throws -> Result {
        let size = info.size
        var reducer = RowReducer(source: size, target: storedTarget)
        var full: [UInt8] = []
        if reducer == nil {
            // Every row is written before it is read: no need to zero 4 bytes a pixel first.
            full = [UInt8](unsafeUninitializedCapacity: size.width * size.height * 4) { _, count in
                count = size.width * size.height * 4
            }
        }
        let rowBytes = size.width * 4
        let emit = { (y: Int, row: UnsafePointer<UInt8>) in
            if reducer != nil {
                reducer!.add(row: y, pixels: row)
            } else {
                full.withUnsafeMutableBytes { raw in
                    (raw.baseAddress! + y * rowBytes).copyMemory(from: row, byteCount: rowBytes)
                }
            }
        }
        var convertedCMYK = false
        if usesScanlines(info), reducer == nil {
            // Rows straight into the bitmap: no row buffer to copy from.
            convertedCMYK = try full.withUnsafeMutableBufferPointer { buffer in
                try readScanlines(info, handle: handle, directRows: buffer.baseAddress!, emit: { _, _ in })
            }
        } else if usesScanlines(info) {
            convertedCMYK = try readScanlines(info, handle: handle, directRows: nil, emit: emit)
        } else {
            try readRGBAImage(info, handle: handle, emit: emit)
        }
        var bitmap: Bitmap
        if var reducer {
            bitmap = try reducer.finish(hasAlpha: info.hasAlpha)
        } else {
            bitmap = try Bitmap(width: size.width, height: size.height, bytes: full, hasAlpha: info.hasAlpha)
        }
        if bitmap.size != storedTarget {
            bitmap = try bitmap.resampled(to: storedTarget, filter: .lanczos3)
        }
        return Result(bitmap: bitmap, convertedCMYK: convertedCMYK)
    }

    /// Whether the scanline reader handles `info`: 8-bit grey, RGB, CMYK and Lab, and the wide
    /// samples (9 to 16 bits) `TIFFRGBAImage` refuses: 16-bit CMYK, any grey, RGB or CMYK of 9 to
    /// 15 bits (16-bit grey and RGB stay with libtiff, which reads them).
    static func usesScanlines(_ info: TIFFDirectoryInfo) -> Bool {
        guard !info.isTiled, info.planarConfig == Int(PLANARCONFIG_CONTIG), info.sampleFormat == Int(SAMPLEFORMAT_UINT) else { return false }
        let bits = info.bitsPerSample
        guard bits == 8 || (9...16).contains(bits) else { return false }
        switch info.photometric {
        case Int(PHOTOMETRIC_MINISBLACK), Int(PHOTOMETRIC_MINISWHITE): return info.samplesPerPixel >= 1 && bits != 16
        case Int(PHOTOMETRIC_RGB): return info.samplesPerPixel >= 3 && info.compression != Int(COMPRESSION_JPEG) && bits != 16
        case Int(PHOTOMETRIC_SEPARATED): return info.isCMYK
        case Int(PHOTOMETRIC_CIELAB): return info.samplesPerPixel >= 3 && bits == 8
        default: return false
        }
    }

    /// The scanline reader. Returns whether CMYK went through an ICC profile.
    /// - Parameter directRows: Where row `y` goes (at `y` x width x 4), when the caller keeps the
    ///   whole bitmap; `nil` to get each row through `emit`.
    private static func readScanlines(_ info: TIFFDirectoryInfo, handle: TIFFHandle, directRows: UnsafeMutablePointer<UInt8>?, emit: (Int, UnsafePointer<UInt8>) -> Void) throws -> Bool {
        let width = info.size.width, height = info.size.height
        let samples = info.samplesPerPixel
        let bits = info.bitsPerSample
        let scanlineSize = Int(TIFFScanlineSize64(handle.tif))
        guard scanlineSize >= (width * samples * bits + 7) / 8 else {
            throw handle.failure("sizing a scanline of \(width) pixels of \(samples) \(bits)-bit samples")
        }
        let grey = info.photometric == Int(PHOTOMETRIC_MINISBLACK) || info.photometric == Int(PHOTOMETRIC_MINISWHITE)
        let inverted = info.photometric == Int(PHOTOMETRIC_MINISWHITE)
        let lab = info.photometric == Int(PHOTOMETRIC_CIELAB)
        let colorSamples = grey ? 1 : info.isCMYK ? 4 : 3
        let alphaSample = info.alphaKind != nil && samples > colorSamples ? colorSamples : nil
        let associated = info.alphaKind == Int(EXTRASAMPLE_ASSOCALPHA)
        let cmykConverter = info.isCMYK ? info.iccProfile.flatMap { ColorConversion.converter(for: $0, layout: .cmyk(inverted: false)) } : nil
        let isCMYK = info.isCMYK
        let layout: ScanlineLayout
        if !grey, !isCMYK, !lab, alphaSample == nil {
            layout = .rgb
        } else if !grey, !isCMYK, !lab, alphaSample == 3, !associated {
            layout = .rgbaStraight
        } else {
            layout = .general
        }
        var row = [UInt8](repeating: 255, count: width * 4)
        /// Converts one stored row (`samples` bytes a pixel) to RGBA8 in `d`.
        func fill(_ d: UnsafeMutableBufferPointer<UInt8>, from s: UnsafeBufferPointer<UInt8>) {
            switch layout {
            case .rgb:
                // The common photo: a tight loop over raw pointers, no per-pixel decisions.
                var source = s.baseAddress!, destination = d.baseAddress!
                for _ in 0..<width {
                    destination[0] = source[0]; destination[1] = source[1]; destination[2] = source[2]; destination[3] = 255
                    source += samples
                    destination += 4
                }
            case .rgbaStraight:
                if samples == 4 {
                    d.baseAddress!.update(from: s.baseAddress!, count: width * 4)
                } else {
                    for x in 0..<width {
                        let i = x * samples, o = x * 4
                        d[o] = s[i]; d[o + 1] = s[i + 1]; d[o + 2] = s[i + 2]; d[o + 3] = s[i + 3]
                    }
                }
            case .general:
                for x in 0..<width {
                    let i = x * samples, o = x * 4
                    if grey {
                        let v = inverted ? 255 - s[i] : s[i]
                        d[o] = v; d[o + 1] = v; d[o + 2] = v
                    } else if lab {
                        (d[o], d[o + 1], d[o + 2]) = CIELabConversion.rgb(l: s[i], a: Int8(bitPattern: s[i + 1]), b: Int8(bitPattern: s[i + 2]))
                    } else {
                        d[o] = s[i]; d[o + 1] = s[i + 1]; d[o + 2] = s[i + 2]
                        if isCMYK { d[o + 3] = s[i + 3] }
                    }
                    if !isCMYK { d[o + 3] = alphaSample.map { s[i + $0] } ?? 255 }
                    if associated, alphaSample != nil { unpremultiply(d, at: o) }
                }
            }
            if info.isCMYK {
                if let cmykConverter {
                    cmykConverter.convertRows(from: d.baseAddress!, sourceBytesPerRow: width * 4, to: d.baseAddress!, destinationBytesPerRow: width * 4, width: width, rows: 1)
                    for x in 0..<width { d[x * 4 + 3] = 255 }
                } else {
                    for x in 0..<width {
                        let o = x * 4
                        let k = 255 - Int(d[o + 3])
                        d[o] = UInt8(((255 - Int(d[o])) * k + 127) / 255)
                        d[o + 1] = UInt8(((255 - Int(d[o + 1])) * k + 127) / 255)
                        d[o + 2] = UInt8(((255 - Int(d[o + 2])) * k + 127) / 255)
                        d[o + 3] = 255
                    }
                }
            }
        }
        /// Wide samples narrowed to 8 bits, one row of them.
        var narrowed = [UInt8](repeating: 0, count: bits == 8 ? 0 : width * samples)
        /// Converts one stored row into the caller's bitmap, or into `row` and emits it.
        func convert(_ stored: UnsafeBufferPointer<UInt8>, y: Int) {
            guard bits == 8 else {
                narrowed.withUnsafeMutableBufferPointer { Self.narrow(stored, bits: bits, into: $0) }
                narrowed.withUnsafeBufferPointer { convertNarrow($0, y: y) }
                return
            }
            convertNarrow(stored, y: y)
        }
        /// Converts one row of 8-bit samples into the caller's bitmap, or into `row` and emits it.
        func convertNarrow(_ s: UnsafeBufferPointer<UInt8>, y: Int) {
            if let directRows {
                fill(UnsafeMutableBufferPointer(start: directRows + y * width * 4, count: width * 4), from: s)
            } else {
                row.withUnsafeMutableBufferPointer { fill($0, from: s) }
                row.withUnsafeBufferPointer { emit(y, $0.baseAddress!) }
            }
        }
        // Whole strips when one is small: libtiff then inflates a strip in one call (with
        // libdeflate when it has it; 2-3x faster than zlib's incremental inflate behind
        // TIFFReadScanline). A large strip (a one-strip file) is read a scanline at a time, so
        // a thumbnail never holds it.
        let rowsPerStrip = max(1, min(height, Int(handle.u32(TIFFTAG_ROWSPERSTRIP) ?? UInt32(height))))
        let stripSize = Int(TIFFStripSize64(handle.tif))
        if stripSize > 0, stripSize <= Self.largestStripBuffer, stripSize >= rowsPerStrip * scanlineSize {
            var strip = [UInt8](repeating: 0, count: stripSize)
            var y = 0
            while y < height {
                let rows = min(rowsPerStrip, height - y)
                let index = TIFFComputeStrip(handle.tif, UInt32(y), 0)
                let status = strip.withUnsafeMutableBytes { TIFFReadEncodedStrip(handle.tif, index, $0.baseAddress, tmsize_t(rows * scanlineSize)) }
                guard status >= 0 else { throw handle.failure("reading rows \(y)..<\(y + rows) of \(height) (\(info.size))") }
                strip.withUnsafeBufferPointer { all in
                    for r in 0..<rows {
                        convert(UnsafeBufferPointer(rebasing: all[(r * scanlineSize)..<((r + 1) * scanlineSize)]), y: y + r)
                    }
                }
                y += rows
            }
            return cmykConverter != nil
        }
        var scanline = [UInt8](repeating: 0, count: scanlineSize)
        for y in 0..<height {
            let status = scanline.withUnsafeMutableBytes { TIFFReadScanline(handle.tif, $0.baseAddress, UInt32(y), 0) }
            guard status >= 0 else { throw handle.failure("reading row \(y) of \(height) (\(info.size))") }
            scanline.withUnsafeBufferPointer { convert($0, y: y) }
        }
        return cmykConverter != nil
    }

    /// Scales the `bits`-bit samples of `stored` (9 to 16 bits; 16-bit ones in the machine's byte
    /// order, as libtiff hands them over; narrower ones packed from the most significant bit) to
    /// 8 bits, rounding: as many as `out` holds.
    static func narrow(_ stored: UnsafeBufferPointer<UInt8>, bits: Int, into out: UnsafeMutableBufferPointer<UInt8>) {
        let top = (1 << bits) - 1
        if bits == 16 {
            let raw = UnsafeRawBufferPointer(stored)
            for i in 0..<out.count {
                out[i] = UInt8((Int(raw.loadUnaligned(fromByteOffset: i * 2, as: UInt16.self)) * 255 + top / 2) / top)
            }
            return
        }
        var accumulator = 0, held = 0, next = 0
        for i in 0..<out.count {
            while held < bits {
                accumulator = (accumulator << 8) | Int(stored[next])
                next += 1
                held += 8
            }
            held -= bits
            let value = (accumulator >> held) & top
            accumulator &= (1 << held) - 1
            out[i] = UInt8((value * 255 + top / 2) / top)
        }
    }

    /// The largest decoded strip read in one call (8 MiB); larger strips are read a scanline
    /// at a time.
    static let largestStripBuffer = 8 << 20

    /// How the scanline reader turns a stored row into RGBA8: the two common layouts get a
    /// loop of their own, the rest (grey, CMYK, associated alpha, extra samples) the general one.
    private enum ScanlineLayout {
        /// 8-bit RGB, no alpha.
        case rgb
        /// 8-bit RGB with unassociated alpha as the fourth sample.
        case rgbaStraight
        /// Anything else the scanline reader takes.
        case general
    }

    /// libtiff's RGBA reader, a band of rows (a strip, or a row of tiles) at a time.
    private static func readRGBAImage(_ info: TIFFDirectoryInfo, handle: TIFFHandle, emit: (Int, UnsafePointer<UInt8>) -> Void) throws {
        var message = [CChar](repeating: 0, count: 1024)
        guard TIFFRGBAImageOK(handle.tif, &message) != 0 else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw WebImageError(.badImageData, "TIFF data of \(handle.byteCount) bytes: unsupported image (\(info.bitsPerSample)-bit, photometric \(info.photometric), \(info.samplesPerPixel) samples): \(reason)")
        }
        var image = TIFFRGBAImage()
        guard TIFFRGBAImageBegin(&image, handle.tif, 1, &message) != 0 else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw WebImageError(.badImageData, "TIFF data of \(handle.byteCount) bytes cannot be read: \(reason)")
        }
        defer { TIFFRGBAImageEnd(&image) }
        // Rows in stored order: the orientation is applied by the coder afterwards.
        image.orientation = UInt16(ORIENTATION_TOPLEFT)
        image.req_orientation = UInt16(ORIENTATION_TOPLEFT)
        let width = info.size.width, height = info.size.height
        let bandTag = info.isTiled ? TIFFTAG_TILELENGTH : TIFFTAG_ROWSPERSTRIP
        let band = max(1, min(height, Int(handle.u32(bandTag) ?? UInt32(height))))
        let premultiplied = image.alpha != 0
        var raster = [UInt32](repeating: 0, count: width * band)
        var row = [UInt8](repeating: 0, count: width * 4)
        var start = 0
        while start < height {
            let rows = min(band, height - start)
            image.row_offset = Int32(start)
            image.col_offset = 0
            let ok = raster.withUnsafeMutableBufferPointer { TIFFRGBAImageGet(&image, $0.baseAddress, UInt32(width), UInt32(rows)) }
            guard ok != 0 else { throw handle.failure("reading rows \(start)..<\(start + rows) of \(height) (\(info.size))") }
            for r in 0..<rows {
                raster.withUnsafeBufferPointer { source in
                    row.withUnsafeMutableBufferPointer { d in
                        for x in 0..<width {
                            let pixel = source[r * width + x]
                            let o = x * 4
                            d[o] = UInt8(truncatingIfNeeded: pixel)
                            d[o + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
                            d[o + 2] = UInt8(truncatingIfNeeded: pixel >> 16)
                            d[o + 3] = UInt8(truncatingIfNeeded: pixel >> 24)
                            if premultiplied { unpremultiply(d, at: o) }
                        }
                    }
                }
                row.withUnsafeBufferPointer { emit(start + r, $0.baseAddress!) }
            }
            start += rows
        }
    }

    /// Divides the colour of the pixel at `offset` by its alpha (premultiplied to straight).
    @inline(__always)
    private static func unpremultiply(_ pixels: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let a = Int(pixels[offset + 3])
        guard a > 0, a < 255 else { return }
        for c in 0..<3 {
            pixels[offset + c] = UInt8(min(255, (Int(pixels[offset + c]) * 255 + a / 2) / a))
        }
    }
}
