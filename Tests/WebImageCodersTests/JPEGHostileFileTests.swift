import Foundation
import Testing
import WebImageTestSupport
import WebImageCoders
import WebImageCore

/// Progressive JPEGs built to exhaust memory (a huge coefficient buffer) or CPU (many scans).
@Suite(.onOwnThreads) struct JPEGHostileFileTests {
    let coder = JPEGCoder()

    /// A progressive 4:2:0 JPEG of `width` x `height` (libjpeg's simple progression: 10 scans).
    func progressive(width: Int = 64, height: Int = 64) throws -> [UInt8] {
        [UInt8](try JPEGCoder(progressiveEncoding: true).encode(TestImages.still(width: width, height: height), as: .jpeg))
    }

    /// The offset of the first `FF <marker>` in `bytes`.
    func offset(of marker: UInt8, in bytes: [UInt8], last: Bool = false) throws -> Int {
        let offsets = (0..<bytes.count - 1).filter { bytes[$0] == 0xFF && bytes[$0 + 1] == marker }
        return try #require(last ? offsets.last : offsets.first)
    }

    /// `bytes` with its SOF2 claiming `width` x `height`.
    func withDimensions(_ bytes: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        var bytes = bytes
        let sof = try offset(of: 0xC2, in: bytes)
        bytes[sof + 5] = UInt8(height >> 8); bytes[sof + 6] = UInt8(height & 0xFF)
        bytes[sof + 7] = UInt8(width >> 8); bytes[sof + 8] = UInt8(width & 0xFF)
        return bytes
    }

    /// `bytes` with its last scan repeated `copies` more times (libjpeg warns and goes on).
    func withRepeatedLastScan(_ bytes: [UInt8], copies: Int) throws -> [UInt8] {
        let lastScan = try offset(of: 0xDA, in: bytes, last: true)
        let eoi = bytes.count - 2
        #expect(bytes[eoi] == 0xFF && bytes[eoi + 1] == 0xD9)
        let scan = bytes[lastScan..<eoi]
        var result = [UInt8](bytes[..<eoi])
        for _ in 0..<copies { result += scan }
        return result + [0xFF, 0xD9]
    }

    /// `bytes` with a COM segment of `count` bytes after SOI (to make the file larger).
    func withComment(_ bytes: [UInt8], count: Int) -> [UInt8] {
        let length = count + 2
        return [UInt8](bytes[..<2]) + [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)]
            + [UInt8](repeating: 0x20, count: count) + [UInt8](bytes[2...])
    }

    /// `bytes` with its SOF2's first component sampled `horizontal` x `vertical`.
    func withLumaSampling(_ bytes: [UInt8], horizontal: Int, vertical: Int) throws -> [UInt8] {
        var bytes = bytes
        let sof = try offset(of: 0xC2, in: bytes)
        bytes[sof + 11] = UInt8(horizontal << 4 | vertical)
        return bytes
    }

    /// The file claiming 16000 x 16000 is over a 50 MP per-frame limit: refused from the
    /// header whatever its scans.
    @Test func hugeProgressiveFileIsRefusedByThePixelLimit() throws {
        let bytes = try withDimensions(try progressive(), width: 16000, height: 16000)
        var options = ImageDecodeOptions()
        options.maxPixelCount = 50_000_000
        let error = try #require(throws: WebImageError.self) { try coder.decode(Data(bytes), options: options) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("over the limit of 50000000 pixels"), "\(error.message)")
    }

    /// The budget is 10 bytes per allowed pixel: any 3-component image within the pixel limit
    /// fits (64 x 64 at 4:2:0 needs 12288 bytes of coefficients plus 16384 of pixels), but an
    /// image whose MCU padding makes its coefficients many times its pixels does not: 1 x 60000
    /// with luma sampled 4 x 2 pads every luma block row to 4 blocks (37500 blocks in all,
    /// 4.8 MB, for 60000 pixels). Refused from the header, before libjpeg allocates.
    @Test func budgetIsTenBytesPerAllowedPixel() throws {
        let progressive = Data(try progressive())
        var options = ImageDecodeOptions()
        options.maxPixelCount = 64 * 64
        #expect(try coder.decode(progressive, options: options).pixelSize == PixelSize(width: 64, height: 64))
        let thin = try withDimensions(try withLumaSampling(try self.progressive(), horizontal: 4, vertical: 2), width: 1, height: 60000)
        options.maxPixelCount = 60000
        let error = try #require(throws: WebImageError.self) { try coder.decode(Data(thin), options: options) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("\(37500 * 128) bytes of DCT coefficients plus 240000 bytes of pixels, over the budget of 600000 bytes"), "\(error.message)")
    }

    /// Under 8 KB claiming 7000 x 7000 (49 MP, within a 50 MP limit) with 60 scans (under the scan
    /// count cap): each scan is a pass over up to 765,625 blocks however little data it has,
    /// about 24 passes in all, far more than 8 passes plus 32 blocks per byte. Refused before
    /// libjpeg allocates the 147 MB coefficient buffer, on every path.
    @Test func smallFileCannotJustifySixtyScansOfFortyNineMegapixels() throws {
        let bytes = Data(try withDimensions(try withRepeatedLastScan(try progressive(width: 16, height: 16), copies: 50), width: 7000, height: 7000))
        #expect(bytes.count < 8000, "\(bytes.count) bytes")
        var options = ImageDecodeOptions()
        options.maxPixelCount = 50_000_000
        let full = try #require(throws: WebImageError.self) { try coder.decode(bytes, options: options) }
        #expect(full.code == .imageTooLarge)
        #expect(full.message.contains("its 60 scans of a 7000x7000 image visit"), "\(full.message)")
        #expect(full.message.contains("more than its size justifies"), "\(full.message)")
        options.thumbnailPixelSize = PixelSize(width: 100, height: 100)
        let thumbnail = try #require(throws: WebImageError.self) { try coder.decode(bytes, options: options) }
        #expect(thumbnail.message == full.message)
        let incremental = coder.makeIncrementalDecoder(options: options)
        incremental.update(data: bytes.prefix(bytes.count / 2), finished: false)
        #expect(incremental.currentImage() == nil)
        incremental.update(data: bytes, finished: true)
        #expect(incremental.currentImage() == nil)
    }

    /// libjpeg's simple progression (10 scans, about 5.3 passes) is within the 8 free passes at
    /// any size: a tiny file claiming 2000 x 2000 still decodes (grey where data is missing).
    @Test func theSimpleProgressionOfAnySizeIsWithinTheFreePasses() throws {
        let bytes = Data(try withDimensions(try progressive(), width: 2000, height: 2000))
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 50, height: 50)
        #expect(try coder.decode(bytes, options: options).pixelSize == PixelSize(width: 50, height: 50))
    }

    /// Scan work beyond the free passes is justified by bytes: 50 extra passes over the luma of
    /// 512 x 512 (204,800 blocks) in a few KB is refused; the same scans with 16 KB more
    /// data decode.
    @Test func moreBytesJustifyMoreScanWork() throws {
        let scans = try withDimensions(try withRepeatedLastScan(try progressive(width: 16, height: 16), copies: 50), width: 512, height: 512)
        #expect(scans.count < 4000, "\(scans.count) bytes")
        let error = try #require(throws: WebImageError.self) { try coder.decode(Data(scans)) }
        #expect(error.message.contains("more than its size justifies"), "\(error.message)")
        let padded = withComment(scans, count: 16000)
        #expect(try coder.decode(Data(padded)).pixelSize == PixelSize(width: 512, height: 512))
    }

    /// Real progressive files (the fixtures, libjpeg's own progression) decode as before.
    @Test func realProgressiveFilesDecode() throws {
        #expect(try coder.decode(JPEGFixtures.progressive.data).pixelSize == PixelSize(width: 40, height: 24))
        let large = try JPEGCoder(progressiveEncoding: true).encode(TestImages.still(width: 1200, height: 900), as: .jpeg)
        #expect(try coder.decode(large).pixelSize == PixelSize(width: 1200, height: 900))
    }

    /// A small file may have up to 100 scans; more are refused at once.
    @Test func smallFileWithTooManyScansIsRefused() throws {
        let base = try progressive(width: 16, height: 16)
        let allowed = try withRepeatedLastScan(base, copies: 90)  // 100 scans
        #expect(allowed.count < 100 * 256)
        #expect(try coder.decode(Data(allowed)).pixelSize == PixelSize(width: 16, height: 16))
        let hostile = try withRepeatedLastScan(base, copies: 91)  // 101 scans
        let error = try #require(throws: WebImageError.self) { try coder.decode(Data(hostile)) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("more than 100 scans"), "\(error.message)")
    }

    /// A file of n bytes may have n / 256 scans (up to 500).
    @Test func largerFileJustifiesMoreScans() throws {
        let base = try progressive(width: 16, height: 16)
        let scans = try withRepeatedLastScan(base, copies: 140)  // 150 scans
        #expect(scans.count < 100 * 256, "\(scans.count) bytes")
        #expect(throws: WebImageError.self) { try coder.decode(Data(scans)) }
        let padded = withComment(scans, count: 150 * 256 - scans.count)
        #expect(padded.count >= 150 * 256)
        #expect(try coder.decode(Data(padded)).pixelSize == PixelSize(width: 16, height: 16))
        let hostile = withComment(try withRepeatedLastScan(base, copies: 600), count: 65000)
        let error = try #require(throws: WebImageError.self) { try coder.decode(Data(hostile)) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("more than \(hostile.count / 256) scans"), "\(error.message)")
        #expect(hostile.count / 256 < 610)
    }
}
