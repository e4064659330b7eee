import Foundation
import Testing
import WebImageCore

/// Magic-byte detection, file extensions and MIME types of ``ImageFormat``, and plug-in formats.
///
/// Every byte array here is built by hand from the format's specification, so each test says
/// exactly which bytes it feeds the sniffer.
@Suite struct ImageFormatTests {
    // MARK: - Fixture builders

    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)]
    }

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// One PNG chunk: length, type, data, CRC (the sniffer does not check CRCs; zeros).
    static func pngChunk(_ type: String, _ data: [UInt8] = [], length: UInt32? = nil) -> [UInt8] {
        be32(length ?? UInt32(data.count)) + ascii(type) + data + [0, 0, 0, 0]
    }

    /// IHDR of a 1x1 RGBA8 image.
    static let ihdr = pngChunk("IHDR", be32(1) + be32(1) + [8, 6, 0, 0, 0])
    /// acTL: 2 frames, loop forever.
    static let actl = pngChunk("acTL", be32(2) + be32(0))
    static let idat = pngChunk("IDAT", [0x78, 0x9C, 0x62, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF])
    static let iend = pngChunk("IEND")

    static func png(_ chunks: [[UInt8]]) -> Data { Data(pngSignature + chunks.joined()) }

    /// A minimal GIF: header, logical screen descriptor (1x1), optional global color table,
    /// then `imageCount` images (each with a graphic control extension), then the trailer.
    static func gif(
        version: String = "89a",
        imageCount: Int,
        globalColorTable: Bool = true,
        localColorTable: Bool = false,
        netscapeLoop: Bool = false,
        trailer: Bool = true
    ) -> [UInt8] {
        var bytes = ascii("GIF" + version)
        // Width 1, height 1, packed: global table flag + 8-bit color resolution + 2 entries.
        bytes += le16(1) + le16(1) + [globalColorTable ? 0xF0 : 0x70, 0x00, 0x00]
        if globalColorTable { bytes += [0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF] }
        if netscapeLoop {
            bytes += [0x21, 0xFF, 0x0B] + ascii("NETSCAPE2.0") + [0x03, 0x01, 0x00, 0x00, 0x00]
        }
        for _ in 0..<imageCount {
            // Graphic control extension: delay 10 cs.
            bytes += [0x21, 0xF9, 0x04, 0x00, 0x0A, 0x00, 0x00, 0x00]
            // Image descriptor: at 0,0, 1x1, packed (local table flag + 2 entries).
            bytes += [0x2C] + le16(0) + le16(0) + le16(1) + le16(1) + [localColorTable ? 0x80 : 0x00]
            if localColorTable { bytes += [0xFF, 0x00, 0x00, 0x00, 0xFF, 0x00] }
            // LZW minimum code size 2, one data sub-block of 2 bytes, block terminator.
            bytes += [0x02, 0x02, 0x44, 0x01, 0x00]
        }
        if trailer { bytes += [0x3B] }
        return bytes
    }

    /// A RIFF WebP file with one chunk.
    static func webp(chunk fourCC: String, payload: [UInt8]) -> [UInt8] {
        let chunk = ascii(fourCC) + le32(UInt32(payload.count)) + payload
        return ascii("RIFF") + le32(UInt32(4 + chunk.count)) + ascii("WEBP") + chunk
    }

    /// A VP8X chunk payload with `flags`, canvas 1x1.
    static func vp8xPayload(flags: UInt8) -> [UInt8] {
        [flags, 0, 0, 0] + [0, 0, 0] + [0, 0, 0]
    }

    /// An ISO base media `ftyp` box, followed by `trailing` bytes outside the box.
    static func ftyp(major: String, compatible: [String], boxSize: UInt32? = nil, trailing: [UInt8] = []) -> [UInt8] {
        let body = ascii(major) + be32(0) + compatible.flatMap { ascii($0) }
        return be32(boxSize ?? UInt32(8 + body.count)) + ascii("ftyp") + body + trailing
    }

    /// A BMP file header and the first 4 bytes of a DIB header of `dibHeaderSize`.
    static func bmp(dibHeaderSize: UInt32) -> [UInt8] {
        ascii("BM") + le32(70) + [0, 0, 0, 0] + le32(54) + le32(dibHeaderSize) + le32(1) + le32(1) + le16(1) + le16(32)
    }

    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + ascii("JFIF") + [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xFF, 0xD9]
    static let ico: [UInt8] = [0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x10, 0x10, 0x00, 0x00, 0x01, 0x00, 0x20, 0x00] + le32(68) + le32(22)
    static let jxlCodestream: [UInt8] = [0xFF, 0x0A, 0xFA, 0x7F, 0x01, 0x90, 0x08, 0x06, 0x01, 0x00, 0x48, 0x01, 0x00]
    static let jxlContainer: [UInt8] = [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A] + ftyp(major: "jxl ", compatible: ["jxl "])
    static let pdf: [UInt8] = ascii("%PDF-1.7\n%\u{E2}\u{E3}\n1 0 obj\n")
    static let svg: [UInt8] = ascii("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\"/>")

    static func detect(_ bytes: [UInt8]) -> ImageFormatDetection {
        ImageFormat.detectDetails(Data(bytes))
    }

    // MARK: - Signatures and their prefixes

    /// A valid file start and the shortest prefix of it that is recognised.
    struct Signature: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        let format: ImageFormat
        let isAnimated: Bool
        let minimumLength: Int

        init(_ name: String, _ bytes: [UInt8], _ format: ImageFormat, animated: Bool = false, minimumLength: Int) {
            self.name = name
            self.bytes = bytes
            self.format = format
            self.isAnimated = animated
            self.minimumLength = minimumLength
        }

        var testDescription: String { name }
    }

    static let signatures: [Signature] = [
        Signature("JPEG", jpeg, .jpeg, minimumLength: 3),
        Signature("PNG", Array(png([ihdr, idat, iend])), .png, minimumLength: 8),
        Signature("APNG", Array(png([ihdr, actl, idat, iend])), .png, animated: true, minimumLength: 8),
        Signature("GIF87a", gif(version: "87a", imageCount: 1), .gif, minimumLength: 6),
        Signature("GIF89a", gif(imageCount: 1), .gif, minimumLength: 6),
        Signature("animated GIF", gif(imageCount: 2, netscapeLoop: true), .gif, animated: true, minimumLength: 6),
        Signature("WebP VP8", webp(chunk: "VP8 ", payload: [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A, 0x01, 0x00, 0x01, 0x00]), .webp, minimumLength: 12),
        Signature("WebP VP8L", webp(chunk: "VP8L", payload: [0x2F, 0x00, 0x00, 0x00, 0x00]), .webp, minimumLength: 12),
        Signature("animated WebP", webp(chunk: "VP8X", payload: vp8xPayload(flags: 0x02)), .webp, animated: true, minimumLength: 12),
        Signature("HEIC", ftyp(major: "heic", compatible: ["mif1", "heic"]), .heic, minimumLength: 12),
        Signature("AVIF", ftyp(major: "avif", compatible: ["mif1", "avif"]), .avif, minimumLength: 12),
        Signature("HEIF", ftyp(major: "mif1", compatible: ["mif1", "miaf"]), .heif, minimumLength: 12),
        Signature("TIFF little-endian", [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], .tiff, minimumLength: 4),
        Signature("TIFF big-endian", [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00], .tiff, minimumLength: 4),
        Signature("BMP", bmp(dibHeaderSize: 40), .bmp, minimumLength: 18),
        Signature("ICO", ico, .ico, minimumLength: 6),
        Signature("PDF", pdf, .pdf, minimumLength: 4),
        Signature("SVG", svg, .svg, minimumLength: 4),
        Signature("JPEG XL codestream", jxlCodestream, .jpegXL, minimumLength: 2),
        Signature("JPEG XL container", jxlContainer, .jpegXL, minimumLength: 12),
    ]

    @Test("a complete signature is detected", arguments: signatures)
    func completeSignature(_ signature: Signature) {
        let detection = Self.detect(signature.bytes)
        #expect(detection == ImageFormatDetection(format: signature.format, isAnimated: signature.isAnimated))
        #expect(ImageFormat.detect(Data(signature.bytes)) == signature.format)
    }

    @Test("every prefix of 0...11 bytes gives exactly the expected result", arguments: signatures)
    func shortPrefixes(_ signature: Signature) throws {
        try #require(signature.bytes.count > 11)
        for length in 0...11 {
            let detection = Self.detect(Array(signature.bytes.prefix(length)))
            let expected: ImageFormat = length >= signature.minimumLength ? signature.format : .undefined
            #expect(detection.format == expected, "\(signature.name) prefix of \(length) bytes")
            #expect(detection.isAnimated == false, "\(signature.name) prefix of \(length) bytes")
        }
    }

    @Test("every prefix of a signature, up to the whole, gives exactly the expected format", arguments: signatures)
    func everyPrefix(_ signature: Signature) {
        for length in 0...signature.bytes.count {
            let format = ImageFormat.detect(Data(signature.bytes.prefix(length)))
            let expected: ImageFormat = length >= signature.minimumLength ? signature.format : .undefined
            #expect(format == expected, "\(signature.name) prefix of \(length) bytes")
        }
    }

    @Test func emptyDataIsUndefined() {
        #expect(ImageFormat.detect(Data()) == .undefined)
        #expect(ImageFormat.detectDetails(Data()) == ImageFormatDetection(format: .undefined))
    }

    @Test("single bytes are undefined", arguments: [UInt8(0x00), 0xFF, 0x89, 0x47, 0x3C, 0x42, 0x25, 0x49, 0x4D, 0x52, 0x20])
    func singleByte(_ byte: UInt8) {
        #expect(ImageFormat.detect(Data([byte])) == .undefined)
    }

    // MARK: - JPEG

    @Test func jpegNeedsAllThreeMagicBytes() {
        #expect(ImageFormat.detect(Data([0xFF, 0xD8, 0xFF])) == .jpeg)
        #expect(ImageFormat.detect(Data([0xFF, 0xD8, 0xFE, 0xE0])) == .undefined)
        #expect(ImageFormat.detect(Data([0xFF, 0xD9, 0xFF, 0xE0])) == .undefined)
        #expect(Self.detect(Self.jpeg).isAnimated == false)
    }

    // MARK: - PNG and APNG

    @Test func pngWithoutAcTLIsStill() {
        #expect(ImageFormat.detectDetails(Self.png([Self.ihdr, Self.idat, Self.iend])) == ImageFormatDetection(format: .png, isAnimated: false))
    }

    @Test func acTLBeforeIDATIsAnimated() {
        let data = Self.png([Self.ihdr, Self.pngChunk("sRGB", [0]), Self.actl, Self.idat, Self.iend])
        #expect(ImageFormat.detectDetails(data) == ImageFormatDetection(format: .png, isAnimated: true))
    }

    @Test func acTLAfterIDATIsNotAnimated() {
        let data = Self.png([Self.ihdr, Self.idat, Self.actl, Self.iend])
        #expect(ImageFormat.detectDetails(data) == ImageFormatDetection(format: .png, isAnimated: false))
    }

    @Test func acTLAfterIENDIsNotAnimated() {
        let data = Self.png([Self.ihdr, Self.iend, Self.actl])
        #expect(ImageFormat.detectDetails(data) == ImageFormatDetection(format: .png, isAnimated: false))
    }

    @Test func acTLAfterManyAncillaryChunksIsFound() {
        let text = (0..<1000).map { _ in Self.pngChunk("tEXt", Self.ascii("k\0v")) }
        let data = Self.png([Self.ihdr] + text + [Self.actl, Self.idat, Self.iend])
        #expect(ImageFormat.detectDetails(data).isAnimated)
    }

    @Test func signatureOnlyPNGIsStill() {
        #expect(ImageFormat.detectDetails(Data(Self.pngSignature)) == ImageFormatDetection(format: .png, isAnimated: false))
    }

    @Test("every truncation of an APNG chunk list is PNG and does not trap")
    func truncatedAPNG() {
        let bytes = Array(Self.png([Self.ihdr, Self.actl, Self.idat, Self.iend]))
        // The acTL chunk is recognised once its length and type (8 bytes) are there.
        let acTLTypeEnd = Self.pngSignature.count + Self.ihdr.count + 8
        for length in Self.pngSignature.count...bytes.count {
            let detection = ImageFormat.detectDetails(Data(bytes.prefix(length)))
            #expect(detection.format == .png, "prefix of \(length) bytes")
            #expect(detection.isAnimated == (length >= acTLTypeEnd), "prefix of \(length) bytes")
        }
    }

    @Test("a chunk with a huge length neither traps nor hangs", arguments: [UInt32(0x7FFF_FFFF), 0x8000_0000, 0xFFFF_FFFF, 0xFFFF_FFF0])
    func hugeChunkLength(_ length: UInt32) {
        // The huge chunk claims to run past the end; the acTL after its header is never reached.
        let data = Self.png([Self.pngChunk("IHDR", Array(Self.ihdr[8..<21]), length: length), Self.actl, Self.idat])
        #expect(ImageFormat.detectDetails(data) == ImageFormatDetection(format: .png, isAnimated: false))
    }

    @Test func chunkLengthRunningPastTheEndIsStill() {
        let data = Self.png([Self.pngChunk("tEXt", [1, 2, 3], length: 1000)])
        #expect(ImageFormat.detectDetails(data) == ImageFormatDetection(format: .png, isAnimated: false))
    }

    @Test func zeroLengthChunksDoNotLoopForever() {
        let empty = (0..<10_000).map { _ in Self.pngChunk("zzZz") }
        let data = Self.png(empty + [Self.actl])
        #expect(ImageFormat.detectDetails(data) == ImageFormatDetection(format: .png, isAnimated: true))
    }

    @Test func pngWithGarbageAfterSignatureIsStillPNG() {
        let data = Data(Self.pngSignature + [UInt8](repeating: 0xFF, count: 64))
        #expect(ImageFormat.detectDetails(data) == ImageFormatDetection(format: .png, isAnimated: false))
    }

    // MARK: - GIF

    @Test("GIF image count decides animation", arguments: ["87a", "89a"], [0, 1, 2, 3])
    func gifImageCount(version: String, images: Int) {
        let detection = Self.detect(Self.gif(version: version, imageCount: images))
        #expect(detection == ImageFormatDetection(format: .gif, isAnimated: images >= 2))
    }

    @Test("GIF parsing handles color tables and extensions", arguments: [false, true], [false, true])
    func gifColorTables(global: Bool, local: Bool) {
        let still = Self.gif(imageCount: 1, globalColorTable: global, localColorTable: local, netscapeLoop: true)
        let animated = Self.gif(imageCount: 2, globalColorTable: global, localColorTable: local, netscapeLoop: true)
        #expect(Self.detect(still) == ImageFormatDetection(format: .gif, isAnimated: false))
        #expect(Self.detect(animated) == ImageFormatDetection(format: .gif, isAnimated: true))
    }

    @Test func gifWithoutTrailerStillCountsImages() {
        #expect(Self.detect(Self.gif(imageCount: 2, trailer: false)).isAnimated)
        #expect(Self.detect(Self.gif(imageCount: 1, trailer: false)).isAnimated == false)
    }

    @Test func gifWithLargeGlobalColorTable() {
        // Packed 0xF7: a 256-entry global color table (768 bytes) between the header and the images.
        var bytes = Self.ascii("GIF89a") + Self.le16(1) + Self.le16(1) + [0xF7, 0, 0]
        bytes += [UInt8](repeating: 0x2C, count: 768)  // color bytes that look like image separators
        bytes += [0x2C] + Self.le16(0) + Self.le16(0) + Self.le16(1) + Self.le16(1) + [0x00, 0x02, 0x02, 0x44, 0x01, 0x00]
        bytes += [0x3B]
        #expect(Self.detect(bytes) == ImageFormatDetection(format: .gif, isAnimated: false))
    }

    @Test("every truncation of an animated GIF is a GIF and does not trap")
    func truncatedGIF() {
        let bytes = Self.gif(imageCount: 3, localColorTable: true, netscapeLoop: true)
        for length in 0...bytes.count {
            let detection = Self.detect(Array(bytes.prefix(length)))
            #expect(detection.format == (length >= 6 ? .gif : .undefined), "prefix of \(length) bytes")
        }
        // Complete up to the end of the second image: animated.
        #expect(Self.detect(bytes).isAnimated)
    }

    @Test func gifWithGarbageAfterHeaderIsStill() {
        let bytes = Self.ascii("GIF89a") + Self.le16(1) + Self.le16(1) + [0x00, 0, 0] + [UInt8](repeating: 0x99, count: 32)
        #expect(Self.detect(bytes) == ImageFormatDetection(format: .gif, isAnimated: false))
    }

    @Test func gifSubBlockSizesRunningPastTheEndDoNotTrap() {
        // A comment extension whose sub-block claims 255 bytes, then the data ends.
        let bytes = Self.ascii("GIF89a") + Self.le16(1) + Self.le16(1) + [0x00, 0, 0] + [0x21, 0xFE, 0xFF, 0x41]
        #expect(Self.detect(bytes) == ImageFormatDetection(format: .gif, isAnimated: false))
    }

    @Test func gifVersionMustBeKnown() {
        #expect(Self.detect(Self.gif(version: "88a", imageCount: 1)).format == .undefined)
    }

    // MARK: - WebP

    @Test("WebP VP8X animation flag", arguments: [
        (UInt8(0x00), false), (0x02, true), (0x10, false), (0x12, true), (0x20, false), (0x3E, true), (0xFD, false), (0xFF, true),
    ])
    func webpVP8XFlags(flags: UInt8, animated: Bool) {
        let bytes = Self.webp(chunk: "VP8X", payload: Self.vp8xPayload(flags: flags))
        #expect(Self.detect(bytes) == ImageFormatDetection(format: .webp, isAnimated: animated))
    }

    @Test func webpVP8XWithoutFlagsByteIsStill() {
        // RIFF header + VP8X chunk header, cut right before the flags byte at offset 20.
        let bytes = Array(Self.webp(chunk: "VP8X", payload: Self.vp8xPayload(flags: 0x02)).prefix(20))
        #expect(Self.detect(bytes) == ImageFormatDetection(format: .webp, isAnimated: false))
        let withFlags = Array(Self.webp(chunk: "VP8X", payload: Self.vp8xPayload(flags: 0x02)).prefix(21))
        #expect(Self.detect(withFlags) == ImageFormatDetection(format: .webp, isAnimated: true))
    }

    @Test("the animation bit counts only in a VP8X chunk", arguments: ["VP8 ", "VP8L"])
    func webpStaticChunksIgnoreFlagBits(_ chunk: String) {
        let bytes = Self.webp(chunk: chunk, payload: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Self.detect(bytes) == ImageFormatDetection(format: .webp, isAnimated: false))
    }

    @Test("other RIFF files are not WebP", arguments: ["WAVE", "AVI ", "webp", "WEBQ"])
    func otherRIFF(_ form: String) {
        let bytes = Self.ascii("RIFF") + Self.le32(100) + Self.ascii(form) + Self.ascii("fmt ") + Self.le32(0)
        #expect(Self.detect(bytes).format == .undefined)
    }

    // MARK: - HEIC, HEIF, AVIF

    @Test("ftyp major brands", arguments: [
        ("heic", ImageFormat.heic, false), ("heix", .heic, false), ("hevc", .heic, true), ("hevx", .heic, true),
        // HEIF (ISO/IEC 23008-12) B.4: heim / heis are multi-layer images, hevm / hevs their sequences.
        ("heim", .heic, false), ("heis", .heic, false), ("hevm", .heic, true), ("hevs", .heic, true),
        ("avif", .avif, false), ("avis", .avif, true),
    ])
    func ftypMajorBrand(major: String, format: ImageFormat, animated: Bool) {
        let bytes = Self.ftyp(major: major, compatible: ["mif1", "miaf"])
        #expect(Self.detect(bytes) == ImageFormatDetection(format: format, isAnimated: animated))
    }

    @Test("mif1 / msf1 majors are refined by the compatible brands", arguments: [
        ("mif1", ["mif1"], ImageFormat.heif, false),
        ("mif1", ["mif1", "miaf", "MiHB"], .heif, false),
        ("mif1", ["mif1", "heic"], .heic, false),
        ("mif1", ["mif1", "heix", "miaf"], .heic, false),
        ("mif1", ["mif1", "avif"], .avif, false),
        ("mif1", ["miaf", "MA1B", "avif", "mif1"], .avif, false),
        ("mif1", ["mif1", "heic", "avif"], .avif, false),
        ("msf1", ["msf1", "hevc"], .heic, true),
        ("msf1", ["msf1", "avis"], .avif, true),
        ("msf1", ["msf1", "iso8"], .heif, true),
        ("mif1", [], .heif, false),
    ])
    func ftypGenericMajor(major: String, compatible: [String], format: ImageFormat, animated: Bool) {
        let bytes = Self.ftyp(major: major, compatible: compatible)
        #expect(Self.detect(bytes) == ImageFormatDetection(format: format, isAnimated: animated))
    }

    @Test func compatibleBrandsOutsideTheFtypBoxAreIgnored() {
        // The box is 16 bytes (no compatible brands); "avif" follows in the next box.
        let bytes = Self.ftyp(major: "mif1", compatible: [], trailing: Self.ascii("avif") + Self.ascii("heic"))
        #expect(Self.detect(bytes) == ImageFormatDetection(format: .heif))
    }

    @Test func ftypBoxSizeLargerThanTheDataDoesNotTrap() {
        let bytes = Self.ftyp(major: "mif1", compatible: ["mif1", "avif"], boxSize: 0xFFFF_FFFF)
        #expect(Self.detect(bytes) == ImageFormatDetection(format: .avif))
        let cut = Self.ftyp(major: "mif1", compatible: ["mif1", "avif"], boxSize: 0xFFFF_FFFF).prefix(18)
        #expect(Self.detect(Array(cut)) == ImageFormatDetection(format: .heif))
    }

    @Test("other ISO media files are not images", arguments: ["isom", "mp41", "mp42", "qt  ", "M4A ", "3gp4", "crx "])
    func otherISOMedia(_ major: String) {
        let bytes = Self.ftyp(major: major, compatible: ["isom", "iso2", "avc1"])
        #expect(Self.detect(bytes).format == .undefined)
    }

    @Test func ftypBoxOfSize256IsNotMistakenForICO() {
        // Size 0x00000100 starts 00 00 01 00, like an ICO header.
        let bytes = Self.ftyp(major: "heic", compatible: ["mif1", "heic"], boxSize: 0x100)
        #expect(Self.detect(bytes).format == .heic)
    }

    // MARK: - TIFF

    @Test("TIFF byte orders", arguments: [
        [UInt8(0x49), 0x49, 0x2A, 0x00],
        [0x4D, 0x4D, 0x00, 0x2A],
    ])
    func tiff(_ magic: [UInt8]) {
        #expect(Self.detect(magic) == ImageFormatDetection(format: .tiff))
        #expect(Self.detect(magic + [0x08, 0, 0, 0, 0, 0]).format == .tiff)
    }

    @Test("mixed TIFF byte orders are not TIFF", arguments: [
        [UInt8(0x49), 0x49, 0x00, 0x2A],
        [0x4D, 0x4D, 0x2A, 0x00],
        [0x49, 0x4D, 0x2A, 0x00],
    ])
    func notTIFF(_ magic: [UInt8]) {
        #expect(Self.detect(magic + [0x08, 0, 0, 0]).format == .undefined)
    }

    // MARK: - BMP

    @Test("BMP with every known DIB header size", arguments: [UInt32(12), 16, 40, 52, 56, 64, 108, 124])
    func bmp(dibHeaderSize: UInt32) {
        #expect(Self.detect(Self.bmp(dibHeaderSize: dibHeaderSize)) == ImageFormatDetection(format: .bmp))
        #expect(Self.detect(Array(Self.bmp(dibHeaderSize: dibHeaderSize).prefix(18))).format == .bmp)
    }

    @Test("BM with an unknown DIB header size is not BMP", arguments: [UInt32(0), 1, 11, 13, 39, 41, 100, 128, 0x2020_2020, 0xFFFF_FFFF])
    func bmpUnknownHeaderSize(_ size: UInt32) {
        #expect(Self.detect(Self.bmp(dibHeaderSize: size)).format == .undefined)
    }

    @Test("text that starts with BM is not BMP", arguments: [
        "BMW is a car maker from Munich", "BM", "BMP", "BM followed by garbage: \u{1}\u{2}\u{3}",
    ])
    func bmpText(_ text: String) {
        #expect(Self.detect(Self.ascii(text)).format == .undefined)
    }

    @Test("BMP shorter than 18 bytes is undefined", arguments: Array(0..<18))
    func bmpTooShort(_ length: Int) {
        #expect(Self.detect(Array(Self.bmp(dibHeaderSize: 40).prefix(length))).format == .undefined)
    }

    // MARK: - ICO

    @Test func ico() {
        #expect(Self.detect(Self.ico) == ImageFormatDetection(format: .ico))
        #expect(Self.detect(Array(Self.ico.prefix(6))).format == .ico)
    }

    @Test func icoWithZeroImagesIsUndefined() {
        #expect(Self.detect([0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x10, 0x10]).format == .undefined)
    }

    @Test func icoWithManyImages() {
        #expect(Self.detect([0x00, 0x00, 0x01, 0x00, 0x00, 0x01, 0x10, 0x10]).format == .ico)
    }

    /// Not ICO: the built-in sniffer leaves it undefined, and once the ICOCoder plug-in has been
    /// made in the process (every test target runs in one), its registration detects `cur`.
    @Test func cursorIsNotICO() {
        #expect(Self.detect([0x00, 0x00, 0x02, 0x00, 0x01, 0x00, 0x10, 0x10]).format != .ico)
    }

    // MARK: - SVG

    @Test("SVG documents", arguments: [
        "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
        "<svg></svg>",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\"/>",
        "<?xml version=\"1.0\" standalone=\"no\"?>\r\n<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\r\n<svg/>",
        "   \n\t\r\n<svg/>",
        "\n\n<?xml version=\"1.0\"?><svg/>",
        "<!-- made by hand -->\n<svg/>",
    ])
    func svgDocuments(_ text: String) {
        #expect(Self.detect(Self.ascii(text)) == ImageFormatDetection(format: .svg))
    }

    @Test("SVG after a UTF-8 byte order mark", arguments: ["<svg/>", "<?xml version=\"1.0\"?>\n<svg/>", "  \n<svg/>"])
    func svgWithBOM(_ text: String) {
        #expect(Self.detect([0xEF, 0xBB, 0xBF] + Self.ascii(text)) == ImageFormatDetection(format: .svg))
    }

    @Test("text that is not SVG", arguments: [
        "hello world",
        "svg",
        "random text that mentions <svg in the middle",
        "<html><body><p>no image here</p></body></html>",
        "<?xml version=\"1.0\"?><rss version=\"2.0\"/>",
        "<",
        "<sv",
        "   ",
        "{\"svg\": \"<svg/>\"}",
    ])
    func notSVG(_ text: String) {
        #expect(Self.detect(Self.ascii(text)).format == .undefined)
    }

    @Test func svgAfterALongPrologIsFound() {
        let comment = "<!--" + String(repeating: "x", count: 2000) + "-->"
        #expect(Self.detect(Self.ascii("<?xml version=\"1.0\"?>" + comment + "<svg/>")).format == .svg)
    }

    @Test func largeMarkupWithoutSVGIsUndefinedAndBounded() {
        // 4 MiB of markup: the scan must stop early rather than walk all of it.
        let bytes = Self.ascii("<") + [UInt8](repeating: UInt8(ascii: "a"), count: 4 << 20)
        #expect(Self.detect(bytes).format == .undefined)
    }

    @Test func bomAloneIsUndefined() {
        #expect(Self.detect([0xEF, 0xBB, 0xBF]).format == .undefined)
        #expect(Self.detect([0xEF, 0xBB]).format == .undefined)
    }

    // MARK: - PDF and JPEG XL

    @Test func pdf() {
        #expect(Self.detect(Self.pdf) == ImageFormatDetection(format: .pdf))
        #expect(Self.detect(Self.ascii("%PDF")).format == .pdf)
        #expect(Self.detect(Self.ascii("%PD")).format == .undefined)
        #expect(Self.detect(Self.ascii("%!PS-Adobe-3.0")).format == .undefined)
    }

    @Test func jpegXLCodestream() {
        #expect(Self.detect(Self.jxlCodestream) == ImageFormatDetection(format: .jpegXL))
        #expect(Self.detect([0xFF, 0x0A]).format == .jpegXL)
        #expect(Self.detect([0xFF, 0x0B]).format == .undefined)
    }

    @Test func jpegXLContainer() {
        #expect(Self.detect(Self.jxlContainer) == ImageFormatDetection(format: .jpegXL))
        #expect(Self.detect(Array(Self.jxlContainer.prefix(12))).format == .jpegXL)
        var wrong = Self.jxlContainer
        wrong[11] = 0x0B
        #expect(Self.detect(wrong).format == .undefined)
    }

    // MARK: - Data slices

    @Test("a Data slice that does not start at index 0 is detected", arguments: signatures)
    func sliceWithOffset(_ signature: Signature) throws {
        let big = Data([UInt8](repeating: 0xAB, count: 5) + signature.bytes + [UInt8](repeating: 0xCD, count: 7))
        let slice = big[5..<(5 + signature.bytes.count)]
        try #require(slice.startIndex == 5)
        #expect(ImageFormat.detectDetails(slice) == ImageFormatDetection(format: signature.format, isAnimated: signature.isAnimated))
    }

    @Test func openEndedSliceIsDetected() throws {
        let apng = Self.png([Self.ihdr, Self.actl, Self.idat, Self.iend])
        let big = Data([1, 2, 3, 4, 5]) + apng
        let slice = big[5...]
        try #require(slice.startIndex == 5)
        #expect(ImageFormat.detectDetails(slice) == ImageFormatDetection(format: .png, isAnimated: true))
        let gif = Data([9, 9, 9, 9, 9] + Self.gif(imageCount: 2))[5...]
        #expect(ImageFormat.detectDetails(gif) == ImageFormatDetection(format: .gif, isAnimated: true))
    }

    @Test func sliceStartingInsideASignatureIsNotDetected() {
        let png = Self.png([Self.ihdr, Self.idat, Self.iend])
        #expect(ImageFormat.detect(png[1...]) == .undefined)
        #expect(ImageFormat.detect(png[png.startIndex..<png.startIndex + 7]) == .undefined)
    }

    @Test func emptySliceIsUndefined() {
        let data = Data(Self.jpeg)
        #expect(ImageFormat.detect(data[3..<3]) == .undefined)
    }

    // MARK: - File extensions

    @Test("format from file extension", arguments: [
        ("jpg", ImageFormat.jpeg), ("JPG", .jpeg), (".jpg", .jpeg), (".JPEG", .jpeg), ("jpeg", .jpeg), ("jpe", .jpeg), ("jfif", .jpeg),
        ("png", .png), ("PNG", .png), (".png", .png), ("apng", .png),
        ("gif", .gif), ("GiF", .gif),
        ("tif", .tiff), ("tiff", .tiff),
        ("webp", .webp), (".WebP", .webp),
        ("heic", .heic), ("heics", .heic),
        ("heif", .heif), ("hif", .heif),
        ("avif", .avif), ("avifs", .avif),
        ("pdf", .pdf), ("svg", .svg), ("svgz", .svg),
        ("bmp", .bmp), ("dib", .bmp), ("ico", .ico), ("jxl", .jpegXL), (".JXL", .jpegXL),
        ("", .undefined), (".", .undefined), ("txt", .undefined), ("jpgx", .undefined), ("pn", .undefined),
        ("image/png", .undefined), ("undefined", .undefined),
    ])
    func formatFromFileExtension(_ fileExtension: String, _ format: ImageFormat) {
        #expect(ImageFormat(fileExtension: fileExtension) == format)
    }

    @Test("preferred file extension and MIME type", arguments: [
        (ImageFormat.jpeg, "jpg", "image/jpeg"),
        (.png, "png", "image/png"),
        (.gif, "gif", "image/gif"),
        (.tiff, "tiff", "image/tiff"),
        (.webp, "webp", "image/webp"),
        (.heic, "heic", "image/heic"),
        (.heif, "heif", "image/heif"),
        (.avif, "avif", "image/avif"),
        (.pdf, "pdf", "application/pdf"),
        (.svg, "svg", "image/svg+xml"),
        (.bmp, "bmp", "image/bmp"),
        (.ico, "ico", "image/x-icon"),
        (.jpegXL, "jxl", "image/jxl"),
    ])
    func preferredExtensionAndMIMEType(_ format: ImageFormat, _ fileExtension: String, _ mimeType: String) {
        #expect(format.fileExtension == fileExtension)
        #expect(format.mimeType == mimeType)
        #expect(format.fileExtensions.first == fileExtension)
        // Both ways.
        #expect(ImageFormat(fileExtension: fileExtension) == format)
        #expect(ImageFormat(mimeType: mimeType) == format)
        for other in format.fileExtensions {
            #expect(ImageFormat(fileExtension: other) == format, "extension \(other)")
        }
    }

    @Test("unknown formats have no extension or MIME type", arguments: [
        ImageFormat.undefined, ImageFormat(rawValue: "test-never-registered"), ImageFormat(rawValue: ""),
    ])
    func unknownFormat(_ format: ImageFormat) {
        #expect(format.fileExtension == nil)
        #expect(format.mimeType == nil)
        #expect(format.fileExtensions.isEmpty)
    }

    @Test func rawValueAndDescription() {
        #expect(ImageFormat.jpeg.rawValue == "jpeg")
        #expect(ImageFormat.jpegXL.rawValue == "jxl")
        #expect(ImageFormat.png.description == "png")
        #expect(ImageFormat(rawValue: "gif") == .gif)
    }

    // MARK: - MIME types

    @Test("format from MIME type", arguments: [
        ("image/jpeg", ImageFormat.jpeg), ("IMAGE/JPEG", .jpeg), ("image/jpeg; charset=binary", .jpeg),
        ("IMAGE/JPEG; charset=binary", .jpeg), ("image/jpg", .jpeg), ("image/pjpeg", .jpeg),
        ("  image/png  ", .png), ("image/png;q=0.9", .png), ("image/apng", .png), ("image/vnd.mozilla.apng", .png),
        ("image/gif", .gif), ("image/tiff", .tiff), ("image/webp", .webp),
        ("image/heic", .heic), ("image/heic-sequence", .heic), ("image/heif", .heif), ("image/heif-sequence", .heif),
        ("image/avif", .avif), ("application/pdf", .pdf), ("image/svg+xml", .svg), ("image/svg+xml; charset=utf-8", .svg),
        ("image/bmp", .bmp), ("image/x-ms-bmp", .bmp), ("image/x-icon", .ico), ("image/vnd.microsoft.icon", .ico),
        ("image/jxl", .jpegXL),
        ("", .undefined), (";", .undefined), ("; charset=binary", .undefined), ("text/html", .undefined),
        ("image/*", .undefined), ("image", .undefined), ("png", .undefined), ("application/octet-stream", .undefined),
    ])
    func formatFromMIMEType(_ mimeType: String, _ format: ImageFormat) {
        #expect(ImageFormat(mimeType: mimeType) == format)
    }

    // MARK: - Plug-in formats

    @Test func registeredFormatIsDetectedAndResolvesBothWays() {
        let qoi = ImageFormat(rawValue: "test-qoi")
        // Its own magic, not QOI's "qoif": the article snippets' stand-in registers that one, and
        // the registry is shared by every test in the process.
        let magic = Self.ascii("tqoi")
        ImageFormat.register(ImageFormatDescriptor(format: qoi, fileExtensions: ["tqoi", "tqo"], mimeTypes: ["image/x-test-qoi"]) { data in
            data.starts(with: magic) ? ImageFormatDetection(format: qoi) : nil
        })
        let file = magic + Self.be32(1) + Self.be32(1) + [4, 0]
        #expect(ImageFormat.detect(Data(file)) == qoi)
        #expect(ImageFormat.detectDetails(Data(file)) == ImageFormatDetection(format: qoi))
        // A slice works as well, since the detector uses `starts(with:)`.
        #expect(ImageFormat.detect(Data([0, 0] + file)[2...]) == qoi)
        // Data it does not claim goes on to the built-in detectors.
        #expect(ImageFormat.detect(Data(Self.jpeg)) == .jpeg)
        #expect(ImageFormat.detect(Data(Self.ascii("tqo"))) == .undefined)

        #expect(qoi.fileExtension == "tqoi")
        #expect(qoi.fileExtensions == ["tqoi", "tqo"])
        #expect(qoi.mimeType == "image/x-test-qoi")
        #expect(ImageFormat(fileExtension: "tqoi") == qoi)
        #expect(ImageFormat(fileExtension: ".TQO") == qoi)
        #expect(ImageFormat(mimeType: "image/x-test-qoi") == qoi)
        #expect(ImageFormat(mimeType: "Image/X-Test-QOI; charset=binary") == qoi)
    }

    @Test func registeredAnimatedDetection() {
        let format = ImageFormat(rawValue: "test-anim")
        let magic = Self.ascii("TANM")
        ImageFormat.register(ImageFormatDescriptor(format: format, fileExtensions: ["tanm"], mimeTypes: ["image/x-test-anim"]) { data in
            guard data.starts(with: magic) else { return nil }
            return ImageFormatDetection(format: format, isAnimated: data.dropFirst(4).first == 1)
        })
        #expect(ImageFormat.detectDetails(Data(magic + [1])) == ImageFormatDetection(format: format, isAnimated: true))
        #expect(ImageFormat.detectDetails(Data(magic + [0])) == ImageFormatDetection(format: format, isAnimated: false))
    }

    @Test func descriptorLowercasesExtensionsAndMIMETypes() {
        let format = ImageFormat(rawValue: "test-case")
        let descriptor = ImageFormatDescriptor(format: format, fileExtensions: ["TCASE"], mimeTypes: ["Image/X-Test-Case"])
        #expect(descriptor.fileExtensions == ["tcase"])
        #expect(descriptor.mimeTypes == ["image/x-test-case"])
        #expect(descriptor.detector == nil)
        ImageFormat.register(descriptor)
        #expect(ImageFormat(fileExtension: "tcase") == format)
        #expect(ImageFormat(fileExtension: "TCase") == format)
        #expect(ImageFormat(mimeType: "IMAGE/X-TEST-CASE") == format)
        #expect(format.fileExtension == "tcase")
        #expect(format.mimeType == "image/x-test-case")
    }

    @Test func registeredDetectorWinsOverBuiltIn() {
        // JPEG bytes with a marker only this test uses: the plug-in claims them, plain JPEG stays JPEG.
        let format = ImageFormat(rawValue: "test-jpeg-variant")
        let marker = Self.ascii("SWI-TEST-JPEG-VARIANT")
        ImageFormat.register(ImageFormatDescriptor(format: format, fileExtensions: ["tjv"], mimeTypes: ["image/x-test-jpeg-variant"]) { data in
            data.starts(with: [0xFF, 0xD8, 0xFF]) && data.dropFirst(3).starts(with: marker)
                ? ImageFormatDetection(format: format) : nil
        })
        let claimed = [0xFF, 0xD8, 0xFF] + marker + [0xFF, 0xD9]
        #expect(ImageFormat.detect(Data(claimed)) == format)
        #expect(ImageFormat.detect(Data(Self.jpeg)) == .jpeg)
        #expect(ImageFormat(fileExtension: "jpg") == .jpeg)
    }

    @Test func laterRegisteredDetectorIsAskedFirst() {
        let first = ImageFormat(rawValue: "test-order-first")
        let second = ImageFormat(rawValue: "test-order-second")
        let magic = Self.ascii("SWI-TEST-ORDER")
        ImageFormat.register(ImageFormatDescriptor(format: first, fileExtensions: ["tof"], mimeTypes: ["image/x-test-order-first"]) { data in
            data.starts(with: magic) ? ImageFormatDetection(format: first) : nil
        })
        ImageFormat.register(ImageFormatDescriptor(format: second, fileExtensions: ["tos"], mimeTypes: ["image/x-test-order-second"]) { data in
            data.starts(with: magic) ? ImageFormatDetection(format: second) : nil
        })
        #expect(ImageFormat.detect(Data(magic)) == second)
    }

    @Test func registeringTheSameFormatAgainReplacesIt() {
        let format = ImageFormat(rawValue: "test-replace")
        ImageFormat.register(ImageFormatDescriptor(format: format, fileExtensions: ["trp1"], mimeTypes: ["image/x-test-replace-1"]) { data in
            data.starts(with: Self.ascii("SWI-TEST-REPLACE-1")) ? ImageFormatDetection(format: format) : nil
        })
        #expect(ImageFormat(fileExtension: "trp1") == format)
        ImageFormat.register(ImageFormatDescriptor(format: format, fileExtensions: ["trp2"], mimeTypes: ["image/x-test-replace-2"]) { data in
            data.starts(with: Self.ascii("SWI-TEST-REPLACE-2")) ? ImageFormatDetection(format: format) : nil
        })
        #expect(ImageFormat(fileExtension: "trp1") == .undefined)
        #expect(ImageFormat(mimeType: "image/x-test-replace-1") == .undefined)
        #expect(ImageFormat(fileExtension: "trp2") == format)
        #expect(ImageFormat(mimeType: "image/x-test-replace-2") == format)
        #expect(format.fileExtensions == ["trp2"])
        #expect(ImageFormat.detect(Data(Self.ascii("SWI-TEST-REPLACE-1"))) == .undefined)
        #expect(ImageFormat.detect(Data(Self.ascii("SWI-TEST-REPLACE-2"))) == format)
    }

    @Test func concurrentRegistrationAndDetection() async {
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask {
                    let format = ImageFormat(rawValue: "test-concurrent-\(index)")
                    let magic = Self.ascii("SWI-TEST-CONCURRENT-\(index);")
                    ImageFormat.register(ImageFormatDescriptor(format: format, fileExtensions: ["tc\(index)"], mimeTypes: ["image/x-test-concurrent-\(index)"]) { data in
                        data.starts(with: magic) ? ImageFormatDetection(format: format) : nil
                    })
                    #expect(ImageFormat.detect(Data(magic)) == format)
                    #expect(ImageFormat(fileExtension: "tc\(index)") == format)
                    #expect(ImageFormat.detect(Data(Self.jpeg)) == .jpeg)
                }
            }
        }
    }
}
