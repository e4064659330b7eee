import CZlib
import WebImageCore

/// The chunk structure of a PNG or APNG file, parsed without decompressing anything: the
/// header, palette, transparency, where the image data lies, and the APNG frames.
///
/// Every read is bounds-checked. Chunk CRCs are verified for every chunk but the image data
/// (IDAT, fdAT), whose integrity the deflate stream itself guards: a bad CRC in a critical
/// chunk is an error, in an ancillary chunk the chunk is skipped (as libpng does). Data that
/// ends early is not an error here: ``truncated`` says so and the image data found so far is
/// kept (the last range may be a partial chunk), for incremental decoding.
struct PNGFile {
    struct Header {
        var width: Int
        var height: Int
        var bitDepth: Int
        var colorType: Int
        var interlaced: Bool

        /// Samples per pixel.
        var channels: Int {
            switch colorType {
            case 0, 3: 1
            case 2: 3
            case 4: 2
            default: 4
            }
        }

        var bitsPerPixel: Int { channels * bitDepth }
        /// Whether the color type carries an alpha channel.
        var hasAlphaChannel: Bool { colorType == 4 || colorType == 6 }
    }

    /// What the pixel decoder needs besides the bytes.
    struct PixelFormat {
        var bitDepth: Int
        var colorType: Int
        var interlaced: Bool
        /// 256 RGBA entries packed little-endian (R in the low byte): PLTE with tRNS alpha; entries
        /// past the palette are opaque black.
        var palette: [UInt32]
        /// The tRNS color key: one sample (gray) or three (RGB), at the file's bit depth.
        var colorKey: [UInt16]?

        var channels: Int { Header(width: 0, height: 0, bitDepth: bitDepth, colorType: colorType, interlaced: interlaced).channels }
        var bitsPerPixel: Int { channels * bitDepth }
        /// 8-bit RGB with no colour key: every pixel opaque, three bytes (the fast paths' format).
        var isOpaqueRGB8: Bool { colorType == 2 && bitDepth == 8 && colorKey == nil }
    }

    /// One APNG frame control (fcTL).
    struct FrameControl {
        var width: Int
        var height: Int
        var x: Int
        var y: Int
        var delayNumerator: Int
        var delayDenominator: Int
        /// 0 none, 1 background, 2 previous.
        var dispose: Int
        /// 0 source, 1 over.
        var blend: Int
    }

    struct Frame {
        var control: FrameControl
        /// The compressed data of the frame (after the fdAT sequence numbers).
        var data: [Range<Int>]
    }

    var header: Header
    var format: PixelFormat
    var hasTransparency: Bool
    /// The default image's compressed data (IDAT).
    var imageData: [Range<Int>] = []
    /// The data ended before IEND.
    var truncated = true
    /// The APNG frames, when an acTL came before the image data and at least one valid frame
    /// follows. Frame 0 is the default image when its fcTL came before IDAT (an fcTL before
    /// acTL counts, as browsers read it).
    var frames: [Frame] = []
    /// acTL's num_plays (0 = forever), when the file is an APNG.
    var numPlays: Int?
    /// The colour chunks before the image data (cICP, iCCP, sRGB, gAMA, cHRM).
    var color = PNGColorChunks()

    /// Whether frame 0 is the default image (true when there are no frames): false when the
    /// default image is not part of the animation (no fcTL before IDAT).
    var defaultImageIsFirstFrame: Bool {
        frames.first.map { $0.data == imageData } ?? true
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static func type(_ text: StaticString) -> UInt32 {
        text.withUTF8Buffer { bytes in
            UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
        }
    }

    static let IHDR = type("IHDR"), PLTE = type("PLTE"), IDAT = type("IDAT"), IEND = type("IEND")
    static let cICP = type("cICP"), iCCP = type("iCCP"), sRGB = type("sRGB"), gAMA = type("gAMA"), cHRM = type("cHRM")
    static let tRNS = type("tRNS"), acTL = type("acTL"), fcTL = type("fcTL"), fdAT = type("fdAT")

    static func u32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> Int {
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }

    static func u16(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> Int {
        Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    /// Parses the chunks of `bytes`.
    /// - Throws: ``WebImageError/Code/badImageData`` for a missing signature or IHDR, an invalid
    ///   header, a bad critical chunk; nothing for data that merely ends early.
    /// - Parameter maxFrameCount: Throw ``WebImageError/Code/imageTooLarge`` as soon as more
    ///   APNG frames than this are found.
    static func parse(_ bytes: UnsafeRawBufferPointer, maxFrameCount: Int = .max) throws -> PNGFile {
        let count = bytes.count
        guard count >= 8, signature.indices.allSatisfy({ bytes[$0] == signature[$0] }) else {
            throw WebImageError(.badImageData, "\(count) bytes are not PNG data (no PNG signature)")
        }
        guard count >= 33 else {
            throw WebImageError(.badImageData, "PNG data of \(count) bytes is truncated before the end of its header")
        }
        guard u32(bytes, 8) == 13, UInt32(u32(bytes, 12)) == IHDR else {
            throw WebImageError(.badImageData, "PNG data of \(count) bytes does not start with an IHDR chunk")
        }
        guard crcMatches(bytes, chunkAt: 8, length: 13) else {
            throw WebImageError(.badImageData, "PNG data of \(count) bytes has a bad CRC in its IHDR chunk")
        }
        let header = Header(
            width: u32(bytes, 16), height: u32(bytes, 20), bitDepth: Int(bytes[24]), colorType: Int(bytes[25]),
            interlaced: bytes[28] == 1
        )
        let validDepths: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard let depths = validDepths[header.colorType], depths.contains(header.bitDepth),
              bytes[26] == 0, bytes[27] == 0, bytes[28] <= 1 else {
            throw WebImageError(.badImageData, "PNG header is invalid: color type \(header.colorType), bit depth \(header.bitDepth), compression \(bytes[26]), filter \(bytes[27]), interlace \(bytes[28])")
        }
        guard header.width > 0, header.height > 0, header.width <= 0x7FFF_FFFF, header.height <= 0x7FFF_FFFF else {
            throw WebImageError(.badImageData, "PNG header claims an invalid size \(header.width)x\(header.height)")
        }

        var file = PNGFile(
            header: header,
            format: PixelFormat(bitDepth: header.bitDepth, colorType: header.colorType, interlaced: header.interlaced,
                                palette: [UInt32](repeating: 0xFF00_0000, count: 256), colorKey: nil),
            hasTransparency: header.hasAlphaChannel
        )
        var paletteCount = 0
        var sawImageData = false
        var afterImageData = false
        var animationFrameCount: Int?
        var animationEnded = false
        var pending: Frame?
        var frames: [Frame] = []
        var offset = 33
        /// Where the data of an fcTL that came before acTL (and IDAT) starts.
        var earlyControl: Int?

        /// Reads the fcTL whose data starts at `start` (26 bytes there): ends the pending frame
        /// and starts the next, or ends the animation at an invalid one.
        func readControl(at start: Int) {
            guard let limit = animationFrameCount, limit > 0, !animationEnded else { return }
            if let done = pending, !done.data.isEmpty { frames.append(done) }
            pending = nil
            let control = FrameControl(
                width: u32(bytes, start + 4), height: u32(bytes, start + 8),
                x: u32(bytes, start + 12), y: u32(bytes, start + 16),
                delayNumerator: u16(bytes, start + 20), delayDenominator: u16(bytes, start + 22),
                dispose: Int(bytes[start + 24]), blend: Int(bytes[start + 25])
            )
            let valid = control.width > 0 && control.height > 0
                && control.x + control.width <= header.width && control.y + control.height <= header.height
                && control.dispose <= 2 && control.blend <= 1 && frames.count < limit
            guard valid else {
                animationEnded = true  // an invalid frame ends the animation where it stands
                return
            }
            if !sawImageData, control.x != 0 || control.y != 0 || control.width != header.width || control.height != header.height {
                animationFrameCount = 0  // the default image's fcTL must cover the canvas: not a valid APNG
                return
            }
            pending = Frame(control: control, data: [])
        }

        chunks: while offset + 8 <= count {
            let length = u32(bytes, offset)
            let type = UInt32(u32(bytes, offset + 4))
            guard length <= 0x7FFF_FFFF else {
                throw WebImageError(.badImageData, "PNG chunk at byte \(offset) has an invalid length \(length)")
            }
            let start = offset + 8
            let complete = start + length + 4 <= count
            let isData = type == IDAT || type == fdAT
            if !complete && !isData { break }
            if complete && !isData && !crcMatches(bytes, chunkAt: offset, length: length) {
                if bytes[offset + 4] & 0x20 == 0 {
                    throw WebImageError(.badImageData, "PNG chunk \(name(type)) at byte \(offset) has a bad CRC")
                }
                offset = start + length + 4
                continue
            }
            let end = min(count, start + length)
            if sawImageData && type != IDAT { afterImageData = true }
            switch type {
            case IEND:
                file.truncated = false
                break chunks
            case PLTE:
                guard !sawImageData, length % 3 == 0, length / 3 <= 256, length > 0 else {
                    if header.colorType == 3 {
                        throw WebImageError(.badImageData, "PNG PLTE chunk of \(length) bytes is invalid")
                    }
                    break
                }
                paletteCount = length / 3
                for index in 0..<paletteCount {
                    let p = start + index * 3
                    file.format.palette[index] = UInt32(bytes[p]) | UInt32(bytes[p + 1]) << 8 | UInt32(bytes[p + 2]) << 16 | 0xFF00_0000
                }
            case tRNS:
                guard !sawImageData else { break }
                switch header.colorType {
                case 3:
                    for index in 0..<min(length, 256) {
                        file.format.palette[index] = (file.format.palette[index] & 0x00FF_FFFF) | UInt32(bytes[start + index]) << 24
                    }
                    file.hasTransparency = true
                case 0 where length >= 2:
                    file.format.colorKey = [UInt16(u16(bytes, start))]
                    file.hasTransparency = true
                case 2 where length >= 6:
                    file.format.colorKey = [UInt16(u16(bytes, start)), UInt16(u16(bytes, start + 2)), UInt16(u16(bytes, start + 4))]
                    file.hasTransparency = true
                default:
                    break
                }
            case cICP:
                if !sawImageData, length >= 4, file.color.codePoints == nil {
                    file.color.codePoints = (bytes[start], bytes[start + 1])
                }
            case iCCP:
                // A profile name of 1-79 bytes, a NUL, the method (0: zlib), the zlib stream.
                if !sawImageData, file.color.compressedProfile == nil,
                   let nul = (start..<min(end, start + 80)).first(where: { bytes[$0] == 0 }), nul + 2 < end, bytes[nul + 1] == 0 {
                    file.color.compressedProfile = (nul + 2)..<end
                }
            case sRGB:
                if !sawImageData { file.color.sRGB = true }
            case gAMA:
                if !sawImageData, length >= 4 { file.color.gamma = u32(bytes, start) }
            case cHRM:
                if !sawImageData, length >= 32 { file.color.chromaticities = (0..<8).map { u32(bytes, start + $0 * 4) } }
            case acTL:
                if !sawImageData, length >= 8, animationFrameCount == nil {
                    animationFrameCount = u32(bytes, start)
                    file.numPlays = u32(bytes, start + 4)
                    if let early = earlyControl { readControl(at: early) }
                }
            case fcTL:
                guard length >= 26 else { break }
                if animationFrameCount == nil && !sawImageData {
                    earlyControl = start  // before acTL: read once acTL comes (browsers do)
                } else {
                    readControl(at: start)
                    if frames.count + (pending == nil ? 0 : 1) > maxFrameCount {
                        throw WebImageError(
                            .imageTooLarge,
                            "APNG animation of \(frames.count + 1) or more frames (\(bytes.count) bytes of data) is over the limit of \(maxFrameCount) frames"
                        )
                    }
                }
            case IDAT:
                if afterImageData { break }  // IDAT after other chunks: ignored
                sawImageData = true
                file.imageData.append(start..<end)
                if let control = pending?.control, frames.isEmpty {
                    pending = Frame(control: control, data: file.imageData)  // the default image is frame 0
                }
            case fdAT:
                if pending != nil, sawImageData, length >= 4, end - start > 4 {
                    pending!.data.append(start + 4..<end)
                }
            default:
                break
            }
            if !complete { break }
            offset = start + length + 4
        }

        if header.colorType == 3 && paletteCount == 0 {
            throw WebImageError(.badImageData, "PNG of color type 3 (palette) has no PLTE chunk")
        }
        if let done = pending, !done.data.isEmpty { frames.append(done) }
        if let limit = animationFrameCount, limit > 0, !frames.isEmpty {
            file.frames = Array(frames.prefix(limit))
        } else {
            file.numPlays = nil
        }
        return file
    }

    /// Whether the CRC stored after the chunk at `offset` matches its type and data.
    static func crcMatches(_ bytes: UnsafeRawBufferPointer, chunkAt offset: Int, length: Int) -> Bool {
        let stored = UInt32(u32(bytes, offset + 8 + length))
        let computed = crc32(0, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset + 4, UInt32(length + 4))
        return UInt32(truncatingIfNeeded: computed) == stored
    }

    static func name(_ type: UInt32) -> String {
        String(decoding: [UInt8(type >> 24 & 0xFF), UInt8(type >> 16 & 0xFF), UInt8(type >> 8 & 0xFF), UInt8(type & 0xFF)], as: UTF8.self)
    }
}
