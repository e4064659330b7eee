import CTIFF
import Foundation
import WebImageColor
import WebImageCore

/// What one image file directory (IFD) says, read from its tags without decoding pixels.
struct TIFFDirectoryInfo {
    /// The directory's index in the main chain (for `TIFFSetDirectory`), or `nil` for a SubIFD.
    var index: Int?
    /// The SubIFD's offset (for `TIFFSetSubDirectory`), or `nil` in the main chain.
    var subOffset: UInt64?
    /// ImageWidth x ImageLength, as stored (before the orientation).
    var size: PixelSize
    /// BitsPerSample (default 1).
    var bitsPerSample: Int
    /// SamplesPerPixel (default 1), extra samples included.
    var samplesPerPixel: Int
    /// PhotometricInterpretation (`PHOTOMETRIC_*`).
    var photometric: Int
    /// PlanarConfiguration: 1 contiguous, 2 separate planes.
    var planarConfig: Int
    /// SampleFormat (`SAMPLEFORMAT_*`, default unsigned integer).
    var sampleFormat: Int
    /// Compression (`COMPRESSION_*`).
    var compression: Int
    /// Whether the image is in tiles (else strips).
    var isTiled: Bool
    /// Orientation, 1...8 (anything else reads as 1).
    var orientation: Int
    /// ExtraSamples: what each sample after the colour ones is (`EXTRASAMPLE_*`).
    var extraSamples: [UInt16]
    /// InkSet of a separated image (`INKSET_CMYK` by default).
    var inkSet: Int
    /// NewSubfileType bit 0: a reduced-resolution version of another image (a preview).
    var isReduced: Bool
    /// The ICC profile (tag 34675), if any.
    var iccProfile: Data?

    /// Reads the current directory of `handle`.
    init(_ handle: TIFFHandle, index: Int?, subOffset: UInt64? = nil) throws {
        self.index = index
        self.subOffset = subOffset
        guard let width = handle.u32(TIFFTAG_IMAGEWIDTH, defaulted: false), let height = handle.u32(TIFFTAG_IMAGELENGTH, defaulted: false) else {
            throw handle.failure("reading the image size of directory \(index.map(String.init) ?? "SubIFD")")
        }
        size = PixelSize(width: Int(width), height: Int(height))
        bitsPerSample = Int(handle.u16(TIFFTAG_BITSPERSAMPLE) ?? 1)
        samplesPerPixel = Int(handle.u16(TIFFTAG_SAMPLESPERPIXEL) ?? 1)
        photometric = Int(handle.u16(TIFFTAG_PHOTOMETRIC, defaulted: false) ?? UInt16(samplesPerPixel >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK))
        planarConfig = Int(handle.u16(TIFFTAG_PLANARCONFIG) ?? UInt16(PLANARCONFIG_CONTIG))
        sampleFormat = Int(handle.u16(TIFFTAG_SAMPLEFORMAT) ?? UInt16(SAMPLEFORMAT_UINT))
        compression = Int(handle.u16(TIFFTAG_COMPRESSION) ?? UInt16(COMPRESSION_NONE))
        isTiled = TIFFIsTiled(handle.tif) != 0
        let orientation = Int(handle.u16(TIFFTAG_ORIENTATION) ?? 1)
        self.orientation = (1...8).contains(orientation) ? orientation : 1
        var extraCount: UInt16 = 0
        var extraValues: UnsafeMutablePointer<UInt16>?
        if wi_tiff_get_extra_samples(handle.tif, &extraCount, &extraValues) != 0, let extraValues, extraCount > 0 {
            extraSamples = Array(UnsafeBufferPointer(start: extraValues, count: Int(extraCount)))
        } else {
            extraSamples = []
        }
        inkSet = Int(handle.u16(TIFFTAG_INKSET) ?? UInt16(INKSET_CMYK))
        isReduced = (handle.u32(TIFFTAG_SUBFILETYPE) ?? 0) & UInt32(FILETYPE_REDUCEDIMAGE) != 0
        var iccCount: UInt32 = 0
        var iccData: UnsafeMutableRawPointer?
        if wi_tiff_get_icc(handle.tif, &iccCount, &iccData) != 0, let iccData, iccCount > 0 {
            iccProfile = Data(bytes: iccData, count: Int(iccCount))
        } else {
            iccProfile = nil
        }
    }

    /// The first extra sample, when it is alpha: associated (premultiplied) or not.
    var alphaKind: Int? {
        guard let first = extraSamples.first else { return nil }
        return first == UInt16(EXTRASAMPLE_ASSOCALPHA) || first == UInt16(EXTRASAMPLE_UNASSALPHA) ? Int(first) : nil
    }

    /// Whether the image carries alpha: an alpha extra sample.
    var hasAlpha: Bool { alphaKind != nil }

    /// Whether the colour channels are CMYK inks.
    var isCMYK: Bool {
        photometric == Int(PHOTOMETRIC_SEPARATED) && inkSet == Int(INKSET_CMYK) && samplesPerPixel >= 4
    }

    /// The size shown once the orientation is applied (5...8 swap the sides).
    var orientedSize: PixelSize {
        orientation >= 5 ? PixelSize(width: size.height, height: size.width) : size
    }

    /// The colour space in words, for `webimage info`.
    var colorSpaceDescription: String {
        let model: String
        switch photometric {
        case Int(PHOTOMETRIC_MINISWHITE), Int(PHOTOMETRIC_MINISBLACK): model = "grey"
        case Int(PHOTOMETRIC_RGB): model = "RGB"
        case Int(PHOTOMETRIC_PALETTE): model = "palette"
        case Int(PHOTOMETRIC_SEPARATED): model = isCMYK ? "CMYK" : "separated"
        case Int(PHOTOMETRIC_YCBCR): model = "YCbCr"
        case Int(PHOTOMETRIC_CIELAB), Int(PHOTOMETRIC_ICCLAB), Int(PHOTOMETRIC_ITULAB): model = "Lab"
        default: model = "photometric \(photometric)"
        }
        guard let iccProfile else { return "\(model), untagged" }
        return "\(model), \(ColorConversion.summary(of: iccProfile))"
    }
}

/// The pages and previews of a TIFF, from one walk of its directory chain.
struct TIFFLayout {
    /// The main-chain directories that are not reduced-resolution previews: the pages.
    var pages: [TIFFDirectoryInfo]
    /// Reduced-resolution images: main-chain previews and the first page's SubIFDs.
    var previews: [TIFFDirectoryInfo]

    /// Walks the directory chain: at most `maxDirectories`; more is refused as a bomb, or, with
    /// `stopQuietly`, not read.
    static func read(_ handle: TIFFHandle, maxDirectories: Int, stopQuietly: Bool) throws -> TIFFLayout {
        var pages: [TIFFDirectoryInfo] = []
        var previews: [TIFFDirectoryInfo] = []
        var index = 0
        var subIFDs: [UInt64] = []
        while true {
            let info = try TIFFDirectoryInfo(handle, index: index)
            if info.isReduced { previews.append(info) } else { pages.append(info) }
            if index == 0 {
                var count: UInt16 = 0
                var offsets: UnsafeMutablePointer<UInt64>?
                if wi_tiff_get_sub_ifds(handle.tif, &count, &offsets) != 0, let offsets, count > 0 {
                    subIFDs = Array(UnsafeBufferPointer(start: offsets, count: min(Int(count), 16)))
                }
            }
            index += 1
            if index >= maxDirectories {
                if !stopQuietly, TIFFReadDirectory(handle.tif) != 0 {
                    throw WebImageError(.imageTooLarge, "TIFF data of \(handle.byteCount) bytes has more than \(maxDirectories) directories")
                }
                break
            }
            if TIFFReadDirectory(handle.tif) == 0 { break }
        }
        for offset in subIFDs where TIFFSetSubDirectory(handle.tif, offset) != 0 {
            if let info = try? TIFFDirectoryInfo(handle, index: nil, subOffset: offset), !info.size.isEmpty { previews.append(info) }
        }
        guard !pages.isEmpty else {
            throw WebImageError(.badImageData, "TIFF data of \(handle.byteCount) bytes has no full-resolution image")
        }
        return TIFFLayout(pages: pages, previews: previews)
    }

    /// Makes `info`'s directory the current one.
    static func select(_ info: TIFFDirectoryInfo, in handle: TIFFHandle) throws {
        let selected: Int32
        if let offset = info.subOffset {
            selected = TIFFSetSubDirectory(handle.tif, offset)
        } else {
            selected = TIFFSetDirectory(handle.tif, tdir_t(info.index ?? 0))
        }
        guard selected != 0 else { throw handle.failure("reading directory \(info.index.map(String.init) ?? "SubIFD")") }
    }
}
