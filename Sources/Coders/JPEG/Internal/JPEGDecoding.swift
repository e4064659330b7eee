import CJPEGShim
import Foundation
package import WebImageCore
import WebImageColor

/// One JPEG decode on libjpeg-turbo, through the C shim (which owns the setjmp error exit).
package enum JPEGDecoding {
    /// The scan limit of a progressive file of `byteCount` bytes: `byteCount / 256`, at least
    /// 100 and at most 500. Each scan is a pass over the whole coefficient buffer, so a crafted
    /// file with hundreds of tiny scans is a CPU bomb; a genuine scan carries entropy-coded data
    /// for the whole image, and encoders write about 10 scans (libjpeg's simple progression) to a
    /// few dozen. 500 is the bound libjpeg-turbo's TurboJPEG API uses.
    static func maxScans(byteCount: Int) -> Int {
        min(500, max(100, byteCount / 256))
    }

    /// The memory budget of one decode, in bytes: 10 bytes per pixel of `options.maxPixelCount`:
    /// the largest allowed RGBA bitmap (4 bytes per pixel) plus the DCT coefficients of a
    /// progressive file of that size with three full-resolution components (3 x 2 bytes per
    /// pixel), so that any 4:4:4 or 4:2:0 colour photo within the pixel limit decodes.
    static func memoryBudget(_ options: ImageDecodeOptions) -> Int {
        let (budget, overflow) = options.maxPixelCount.multipliedReportingOverflow(by: bytesPerAllowedPixel)
        return overflow ? Int.max : budget
    }

    /// See ``memoryBudget(_:)``.
    static let bytesPerAllowedPixel = 10

    /// Passes over the whole image that any multi-scan file may make, whatever its size: more
    /// than libjpeg's simple progression (about 5.3 passes for YCbCr: its AC scans cover one
    /// component each).
    static let freeImagePasses = 8

    /// Blocks of scan work that each byte of data justifies beyond ``freeImagePasses``. A scan
    /// visits every block of its components whatever its data holds (libjpeg walks them all,
    /// even when the data has run out), so a small file declaring a large image can make each
    /// of its scans a full pass: 32 blocks a byte keeps a file's scan work to about what
    /// decoding its bytes would cost, while real files (well over a bit per block) never
    /// come near it.
    static let blocksPerByte = 32

    /// Refuses a multi-scan file before libjpeg allocates anything for it: more scans than
    /// ``maxScans(byteCount:)``, or scans that together visit more blocks than
    /// ``freeImagePasses`` passes over the image plus ``blocksPerByte`` per byte of data.
    /// - Throws: ``WebImageError/Code/imageTooLarge``.
    static func checkScans(_ walk: JPEGMarkerWalk, byteCount: Int) throws {
        guard walk.scans > 1 else { return }
        let limit = maxScans(byteCount: byteCount)
        guard walk.scans <= limit else {
            throw WebImageError(
                .imageTooLarge,
                "JPEG data of \(byteCount) bytes is refused: the progressive JPEG has more than \(limit) scans (the limit for \(byteCount) bytes of data; it has \(walk.scans))"
            )
        }
        let allowed = walk.imageBlocks.multipliedReportingOverflow(by: freeImagePasses).partialValue
            &+ byteCount.multipliedReportingOverflow(by: blocksPerByte).partialValue
        guard walk.blockVisits <= allowed else {
            let passes = Double(walk.blockVisits) / Double(max(1, walk.imageBlocks))
            throw WebImageError(
                .imageTooLarge,
                "JPEG data of \(byteCount) bytes is refused: its \(walk.scans) scans of a \(walk.width)x\(walk.height) image visit \(walk.blockVisits) blocks (\(String(format: "%.1f", passes)) passes over the image), more than its size justifies (\(allowed) blocks: \(freeImagePasses) passes plus \(blocksPerByte) per byte)"
            )
        }
    }

    /// What a decode produced.
    struct Output {
        var bitmap: Bitmap
        var metadata: ImageMetadata
        /// The RGB profile kept with ``/WebImageCore/ColorProfileHandling/keep``.
        var colorProfile: ColorProfile?

        /// The image of this output.
        func image(scale: Double) -> WebImage {
            var image = WebImage(bitmap: bitmap, scale: scale, format: .jpeg, metadata: metadata)
            image.colorProfile = colorProfile
            return image
        }
    }

    /// Decodes `data`.
    /// - Parameter blankMissingRows: Make rows whose data has not arrived transparent (the
    ///   incremental decoder) instead of the grey filler libjpeg produces.
    static func decode(_ data: Data, options: ImageDecodeOptions, blankMissingRows: Bool = true) throws -> Output {
        guard !data.isEmpty else {
            throw WebImageError(.badImageData, "JPEG data is empty")
        }
        return try data.withUnsafeBytes { raw in
            do {
                return try decode(raw, options: options, blankMissingRows: blankMissingRows)
            } catch let error as WebImageError where error.code == .badImageData {
                // Data cut inside a marker segment between progressive scans (a table, say) makes
                // libjpeg fail; cut it before that segment and show the scans that did arrive.
                guard let cut = lastMarkerOffset(raw), cut < raw.count, cut > 2 else { throw error }
                guard let partial = try? decode(UnsafeRawBufferPointer(rebasing: raw[0..<cut]), options: options, blankMissingRows: blankMissingRows) else {
                    throw error
                }
                var output = partial
                output.metadata.insert(.incremental)
                return output
            }
        }
    }

    /// The offset of the last marker in `raw` (0xFF then a byte other than 0x00, 0xFF or an
    /// RSTn), or `nil` if the data ends with EOI or has no marker after the start.
    static func lastMarkerOffset<Bytes: JPEGBytes>(_ raw: Bytes) -> Int? {
        let count = raw.count
        guard count >= 4 else { return nil }
        if raw[count - 2] == 0xFF && raw[count - 1] == 0xD9 { return nil }
        var index = count - 2
        while index > 2 {
            let next = raw[index + 1]
            if raw[index] == 0xFF && next != 0x00 && next != 0xFF && !(0xD0...0xD7).contains(next) { return index }
            index -= 1
        }
        return nil
    }

    /// Decodes the JPEG file at `url` as ``decode(_:options:blankMissingRows:)`` decodes its
    /// bytes, reading it a piece at a time (``FileBytes``: libjpeg pulls it through one buffer of
    /// ``fileBufferSize`` bytes; a progressive file's marker walk reads it once before, a window
    /// at a time), so the compressed file is never held in memory. Errors name the file.
    static func decode(contentsOf url: URL, options: ImageDecodeOptions) throws -> Output {
        try decode(FileBytes(url: url), options: options)
    }

    /// Decodes `file` (opened before: the test of a file that changes while it is read).
    static func decode(_ file: FileBytes, options: ImageDecodeOptions) throws -> Output {
        let url = file.url
        do {
            guard file.count >= 3, file[0] == 0xFF, file[1] == 0xD8, file[2] == 0xFF else {
                if let failure = file.failure { throw failure }
                throw WebImageError(.badImageData, "\(file.count) bytes are not JPEG data (no SOI marker)")
            }
            do {
                return try decode(.file(file, count: file.count), options: options, blankMissingRows: true)
            } catch let error as WebImageError where error.code == .badImageData {
                // As for data in memory: a file cut inside a marker segment between scans.
                let whole = FilePrefix(file: file, count: file.count)
                guard file.failure == nil, let cut = lastMarkerOffset(whole), cut < whole.count, cut > 2 else { throw error }
                guard let partial = try? decode(.file(file, count: cut), options: options, blankMissingRows: true) else {
                    throw error
                }
                var output = partial
                output.metadata.insert(.incremental)
                return output
            }
        } catch let error as WebImageError {
            var named = error
            named.message = "\(url.path): \(error.message)"
            named.url = url
            throw named
        }
    }

    /// The buffer through which libjpeg reads a file: 64 KiB.
    static let fileBufferSize = 64 * 1024

    /// Where a decode's compressed bytes are.
    enum Input {
        /// In memory.
        case memory(UnsafeRawBufferPointer)
        /// The first `count` bytes of a file.
        case file(FileBytes, count: Int)

        var byteCount: Int {
            switch self {
            case let .memory(raw): raw.count
            case let .file(_, count): count
            }
        }
    }

    /// libjpeg's reading position in a file (the context of ``readFile``).
    private final class FileCursor {
        let file: FileBytes
        let end: Int
        var offset = 0

        init(file: FileBytes, end: Int) {
            self.file = file
            self.end = end
        }
    }

    /// libjpeg's read function for a file: the next bytes at the cursor, up to its end.
    private static let readFile: wi_jpeg_read_function = { context, buffer, capacity in
        guard let context, let buffer else { return -1 }
        let cursor = Unmanaged<FileCursor>.fromOpaque(context).takeUnretainedValue()
        let got = cursor.file.read(at: cursor.offset, into: buffer, count: min(capacity, cursor.end - cursor.offset))
        if got > 0 { cursor.offset += got }
        return got
    }

    private static func decode(_ raw: UnsafeRawBufferPointer, options: ImageDecodeOptions, blankMissingRows: Bool) throws -> Output {
        try decode(.memory(raw), options: options, blankMissingRows: blankMissingRows)
    }

    private static func decode(_ input: Input, options: ImageDecodeOptions, blankMissingRows: Bool) throws -> Output {
        let byteCount = input.byteCount
        let scanLimit = Int32(maxScans(byteCount: byteCount))
        var cursor: FileCursor?
        let created: OpaquePointer?
        switch input {
        case let .memory(raw):
            created = raw.baseAddress.flatMap { wi_jpeg_decoder_create($0.assumingMemoryBound(to: UInt8.self), byteCount, scanLimit, memoryBudget(options)) }
        case let .file(file, count):
            let fileCursor = FileCursor(file: file, end: count)
            cursor = fileCursor
            created = wi_jpeg_decoder_create_reading(readFile, Unmanaged.passUnretained(fileCursor).toOpaque(), fileBufferSize, byteCount, scanLimit, memoryBudget(options))
        }
        guard let decoder = created else {
            throw WebImageError(.badImageData, "JPEG decoder could not be created for \(byteCount) bytes")
        }
        defer {
            wi_jpeg_decoder_destroy(decoder)
            withExtendedLifetime(cursor) {}
        }
        func failure(_ status: Int32, _ stage: String) -> WebImageError {
            let message = String(cString: wi_jpeg_decoder_message(decoder))
            switch status {
            case Int32(WI_JPEG_READ_FAILED):
                return cursor?.file.failure ?? WebImageError(.invalidDownloadResponse, "JPEG data of \(byteCount) bytes could not be read (\(stage))")
            case Int32(WI_JPEG_TRUNCATED_HEADER):
                return WebImageError(.badImageData, "JPEG data of \(byteCount) bytes is truncated before the image data")
            case Int32(WI_JPEG_TOO_LARGE):
                return WebImageError(.imageTooLarge, "JPEG data of \(byteCount) bytes is too large for libjpeg: \(message)")
            case Int32(WI_JPEG_TOO_MANY_SCANS):
                return WebImageError(.imageTooLarge, "JPEG data of \(byteCount) bytes is refused: \(message)")
            default:
                return WebImageError(.badImageData, "JPEG data of \(byteCount) bytes is corrupt (\(stage)): \(message)")
            }
        }

        var info = wi_jpeg_info()
        let headerStatus = wi_jpeg_decoder_read_header(decoder, &info)
        guard headerStatus == WI_JPEG_OK else { throw failure(headerStatus, "header") }
        let sourceSize = PixelSize(width: Int(info.width), height: Int(info.height))
        try PixelLimit.check(sourceSize, options: options, format: "JPEG", byteCount: byteCount)

        var orientation = 1
        if options.applyOrientation {
            if let exif = info.exif, info.exif_length > 0,
               let value = EXIFOrientation.orientation(inTIFF: UnsafeRawBufferPointer(start: exif, count: info.exif_length)) {
                orientation = value
            } else if let xmp = info.xmp, info.xmp_length > 0,
                      let value = EXIFOrientation.orientation(inXMP: UnsafeRawBufferPointer(start: xmp, count: info.xmp_length)) {
                orientation = value
            }
        }
        // Thumbnail sizes are asked for in upright terms; libjpeg works in stored terms.
        let uprightSource = EXIFOrientation.orientedSize(sourceSize, orientation)
        let uprightTarget = options.targetPixelSize(for: uprightSource)
        let target = EXIFOrientation.orientedSize(uprightTarget, orientation)
        let isThumbnail = target != sourceSize
        let eighths = isThumbnail ? dctScale(from: sourceSize, to: target) : 8

        // A multi-scan file (`progressive` is libjpeg's jpeg_has_multiple_scans): before libjpeg
        // allocates the coefficient buffer and runs the scans (in start), on every path: full
        // size, DCT-scaled thumbnail, and each pass of the incremental decoder. A single-scan
        // file needs neither the walk nor the buffer.
        if info.progressive != 0 {
            switch input {
            case let .memory(raw):
                try checkScans(JPEGMarkerWalk.walk(raw, scans: true), byteCount: byteCount)
            case let .file(file, count):
                let walk = JPEGMarkerWalk.walk(FilePrefix(file: file, count: count), scans: true)
                if let error = file.failure { throw error }
                try checkScans(walk, byteCount: byteCount)
            }
            try checkCoefficientBuffer(info, source: sourceSize, eighths: Int(eighths), options: options, byteCount: byteCount)
        }

        // An RGB profile that converts: libjpeg outputs RGB rows, converted strip by strip into
        // the RGBA buffer (lcms2 converts RGB input about 1.5 times as fast as RGBA input).
        let isCMYK = info.color_space == Int32(WI_JPEG_COLOR_CMYK) || info.color_space == Int32(WI_JPEG_COLOR_YCCK)
        var profile: Data? = info.icc.flatMap { icc in info.icc_length > 0 ? Data(bytes: icc, count: info.icc_length) : nil }
        // Keep: an RGB profile is carried, the numbers stay (CMYK is converted all the same).
        let keptProfile = isCMYK || options.colorProfileHandling != .keep ? nil : profile.flatMap(ColorConversion.keptProfile)
        if keptProfile != nil { profile = nil }
        let rgbConverter = isCMYK ? nil : profile.flatMap { ColorConversion.converter(for: $0, layout: .rgb) }
        let convertsRGBRows = rgbConverter != nil
        if convertsRGBRows { wi_jpeg_decoder_use_rgb_output(decoder) }

        var outWidth: Int32 = 0, outHeight: Int32 = 0
        // The fast IDCT without fancy upsampling when the scaled output is resampled again
        // (its errors are averaged away); the accurate one when it is the answer itself (a
        // thumbnail the size of a DCT scale: the server's shrink-on-load, as Pillow's draft).
        let scaledSize = Self.scaledSize(sourceSize, eighths: Int(eighths))
        let fast: Int32 = eighths < 8 && scaledSize != target ? 1 : 0
        let startStatus = wi_jpeg_decoder_start(decoder, eighths, fast, &outWidth, &outHeight)
        guard startStatus == WI_JPEG_OK else { throw failure(startStatus, "start") }
        let width = Int(outWidth), height = Int(outHeight)
        guard width > 0, height > 0 else {
            throw WebImageError(.badImageData, "JPEG data of \(byteCount) bytes decodes to an empty image")
        }
        let rowBytes = width * 4
        var readStatus: Int32 = Int32(WI_JPEG_OK)
        var rowsRead: Int32 = 0
        var pixels = PixelBuffer.make(count: rowBytes * height) { buffer in
            wi_jpeg_advise_pixel_buffer(buffer.baseAddress!, buffer.count)
            if let rgbConverter {
                (readStatus, rowsRead) = readConvertedRows(decoder, into: buffer, width: width, height: height, converter: rgbConverter)
            } else {
                readStatus = wi_jpeg_decoder_read_rows(decoder, buffer.baseAddress!, rowBytes, Int32(height), &rowsRead)
            }
            let done = max(0, Int(rowsRead)) * rowBytes
            if done < buffer.count {
                // Rows libjpeg did not deliver (it stopped on an error): transparent.
                (buffer.baseAddress! + done).initialize(repeating: 0, count: buffer.count - done)
            }
        }
        guard readStatus == WI_JPEG_OK else { throw failure(readStatus, "scanlines") }

        let exhausted = wi_jpeg_decoder_data_exhausted(decoder) != 0
        var blankFrom = Int(rowsRead)
        let shortRow = wi_jpeg_decoder_exhausted_row(decoder)
        if blankMissingRows, shortRow >= 0 { blankFrom = min(blankFrom, Int(shortRow)) }
        let blanked = blankFrom < height
        if blanked {
            pixels.withUnsafeMutableBufferPointer { buffer in
                let start = blankFrom * rowBytes
                (buffer.baseAddress! + start).update(repeating: 0, count: buffer.count - start)
            }
        }
        // Colour: the embedded ICC profile to sRGB (the rows that arrived; RGB ones were converted
        // as they were read); CMYK without a usable profile takes the plain formula.
        var colorConverted = convertsRGBRows
        if let profile, !convertsRGBRows, blankFrom > 0 {
            let layout: ColorConversion.Layout = isCMYK ? .cmyk(inverted: info.saw_adobe_marker != 0) : .rgba
            colorConverted = ColorConversion.convert(&pixels, width: width, height: blankFrom, bytesPerRow: rowBytes, profile: profile, layout: layout) == .converted
        }
        if isCMYK, !colorConverted {
            convertCMYK(&pixels, inverted: info.saw_adobe_marker != 0, rows: blankFrom, rowBytes: rowBytes)
        }

        var bitmap = try Bitmap(width: width, height: height, bytes: pixels, hasAlpha: blanked)
        if bitmap.size != target {
            bitmap = try resampled(bitmap, to: target)
        }
        var metadata: ImageMetadata = .decoded
        if orientation != 1 {
            bitmap = try EXIFOrientation.apply(orientation, to: bitmap)
            metadata.insert(.orientationApplied)
        }
        if isThumbnail { metadata.insert(.thumbnail) }
        if exhausted { metadata.insert(.incremental) }
        if colorConverted { metadata.insert(.colorConverted) }
        return Output(bitmap: bitmap, metadata: metadata, colorProfile: keptProfile)
    }

    /// Reads every row libjpeg gives as RGB, 16 at a time, and converts each strip from
    /// the profile (`converter`) into the RGBA rows of `buffer` (alpha 255) while it is in the cache. Returns
    /// libjpeg's status and the rows read, as one `wi_jpeg_decoder_read_rows` call would.
    private static func readConvertedRows(_ decoder: OpaquePointer, into buffer: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int, converter: ColorConverter) -> (Int32, Int32) {
        let stripRows = 16
        let rgbRowBytes = width * 3, rowBytes = width * 4
        var strip = [UInt8](repeating: 0, count: rgbRowBytes * stripRows)
        var done = 0
        var status = Int32(WI_JPEG_OK)
        while done < height {
            var got: Int32 = 0
            let want = min(stripRows, height - done)
            status = strip.withUnsafeMutableBufferPointer { wi_jpeg_decoder_read_rows(decoder, $0.baseAddress!, rgbRowBytes, Int32(want), &got) }
            let rows = Int(max(0, got))
            if rows > 0 {
                let destination = buffer.baseAddress! + done * rowBytes
                destination.initialize(repeating: 255, count: rows * rowBytes)
                strip.withUnsafeBufferPointer { source in
                    converter.convertRows(from: source.baseAddress!, sourceBytesPerRow: rgbRowBytes, to: destination, destinationBytesPerRow: rowBytes, width: width, rows: rows)
                }
                done += rows
            }
            if status != WI_JPEG_OK || rows < want { break }
        }
        return (status, Int32(done))
    }

    /// `bitmap` resampled to `size` with Lanczos-3 by the C shim (the same weights and
    /// premultiplied filtering as Core's `Bitmap.resampled(to:filter:)`, within float rounding).
    /// In C because a scale-down resamples nearly the whole image when the nearest DCT scale is
    /// 8/8 (a 5250x3450 photo to a 60 MB budget: 0.93), which Swift's SIMD code does about 100
    /// times slower in a debug build than in release: over a minute instead of a second.
    static func resampled(_ bitmap: Bitmap, to size: PixelSize) throws -> Bitmap {
        let rowBytes = size.width * 4
        var status: Int32 = Int32(WI_JPEG_OK)
        let pixels = PixelBuffer.make(count: rowBytes * size.height) { output in
            status = bitmap.bytes.withUnsafeBufferPointer { source in
                wi_resample_lanczos3(source.baseAddress, Int32(bitmap.width), Int32(bitmap.height), bitmap.bytesPerRow,
                                     output.baseAddress, Int32(size.width), Int32(size.height))
            }
            if status != Int32(WI_JPEG_OK) { output.initialize(repeating: 0) }
        }
        guard status == Int32(WI_JPEG_OK) else {
            throw WebImageError(.imageTooLarge, "resampling a \(bitmap.size) JPEG image to \(size) failed: out of memory")
        }
        return try Bitmap(width: size.width, height: size.height, bytes: pixels, hasAlpha: bitmap.hasAlpha)
    }

    /// A progressive (multi-scan) file makes libjpeg keep every DCT coefficient of the whole
    /// image (2 bytes per sample of every component, padded to whole MCUs) however small the
    /// output: refused with ``WebImageError/Code/imageTooLarge`` when that buffer plus the output
    /// bitmap (4 bytes per pixel at the DCT-scaled size) is over ``memoryBudget(_:)``. Checked
    /// on the header, before libjpeg allocates the buffer.
    static func checkCoefficientBuffer(_ info: wi_jpeg_info, source: PixelSize, eighths: Int, options: ImageDecodeOptions, byteCount: Int) throws {
        let budget = memoryBudget(options)
        let output = scaledSize(source, eighths: eighths)
        let outputBytes = output.width * output.height * 4
        let coefficientBytes = Int(clamping: info.coefficient_bytes)
        let (total, overflow) = coefficientBytes.addingReportingOverflow(outputBytes)
        guard overflow || total > budget else { return }
        throw WebImageError(
            .imageTooLarge,
            "progressive JPEG image of \(source) (\(byteCount) bytes of data) needs \(coefficientBytes) bytes of DCT coefficients plus \(outputBytes) bytes of pixels, over the budget of \(budget) bytes (\(bytesPerAllowedPixel) x maxPixelCount \(options.maxPixelCount))"
        )
    }

    /// The smallest DCT scale M/8 (M in 1...8; libjpeg-turbo scales by any number of eighths,
    /// with its scaled IDCTs) whose output still covers `target`, so that the final resample only ever shrinks, and by
    /// as little as the scales allow. libjpeg rounds scaled sides up.
    /// (Package: the server's memory budget reserves what this decode allocates.)
    package static func dctScale(from source: PixelSize, to target: PixelSize) -> Int32 {
        for eighths in 1...7 {
            let output = scaledSize(source, eighths: eighths)
            if output.width >= target.width, output.height >= target.height { return Int32(eighths) }
        }
        return 8
    }

    /// libjpeg's output size for a source of `source` at the DCT scale `eighths`/8: each side
    /// scaled and rounded up. (Package: the server's memory budget reserves it.)
    package static func scaledSize(_ source: PixelSize, eighths: Int) -> PixelSize {
        PixelSize(width: (source.width * eighths + 7) / 8, height: (source.height * eighths + 7) / 8)
    }

    /// CMYK (or YCCK, which libjpeg turns into CMYK) to RGBA in place: R = (1 - C)(1 - K) in
    /// ink terms. Files with an Adobe APP14 marker (Photoshop and most others) store the channels
    /// inverted (255 = no ink), as browsers and Pillow assume.
    static func convertCMYK(_ pixels: inout [UInt8], inverted: Bool, rows: Int, rowBytes: Int) {
        let count = min(pixels.count, rows * rowBytes)
        pixels.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            while index < count {
                var c = Int(buffer[index]), m = Int(buffer[index + 1]), y = Int(buffer[index + 2]), k = Int(buffer[index + 3])
                if !inverted {
                    c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k
                }
                buffer[index] = UInt8((c * k + 127) / 255)
                buffer[index + 1] = UInt8((m * k + 127) / 255)
                buffer[index + 2] = UInt8((y * k + 127) / 255)
                buffer[index + 3] = 255
                index += 4
            }
        }
    }
}
