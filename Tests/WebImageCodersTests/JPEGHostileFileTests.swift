import Foundation
import Testing
import WebImageTestSupport
import WebImageCoders
import WebImageCore

/// Progressive JPEGs built to exhaust memory (a huge coefficient buffer) or CPU (many scans).
@Suite struct JPEGHostileFileTests {
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

    /// The file: a few KB claiming 16000 x 16000. The default 50 MP limit refuses it
    /// from its size; with a 256 MP limit (1 GiB budget) it passes that check but needs 768 MB of
    /// coefficients plus a 1 GB bitmap, over the budget: refused from the header too.
    @Test func hugeProgressiveFileIsRefusedBeforeTheCoefficientBuffer() throws {
        let bytes = try withDimensions(try progressive(), width: 16000, height: 16000)
        #expect(16000 * 16000 > ImageDecodeOptions.defaultMaxPixelCount)
        let bySize = try #require(throws: WebImageError.self) { try coder.decode(Data(bytes)) }
        #expect(bySize.code == .imageTooLarge)
        var options = ImageDecodeOptions()
        options.maxPixelCount = 1 << 28
        options.maxTotalPixelCount = 1 << 28
        let error = try #require(throws: WebImageError.self) { try coder.decode(Data(bytes), options: options) }
        #expect(error.code == .imageTooLarge)
        // Y: 2000 x 2000 blocks, Cb and Cr: 1000 x 1000 blocks, 128 bytes each.
        #expect(error.message.contains("\(6_000_000 * 128) bytes of DCT coefficients"), "\(error.message)")
        #expect(error.message.contains("budget of \((1 << 28) * 4) bytes"))
    }

    /// 64 x 64 at 4:2:0: 96 blocks of 128 bytes plus 64 x 64 x 4 bytes of pixels = 28672 bytes,
    /// which is 4 x 7168 pixels. A baseline file needs no coefficient buffer.
    @Test func budgetIsTheCoefficientsPlusTheBitmapAtFourBytesPerAllowedPixel() throws {
        let progressive = Data(try progressive())
        var options = ImageDecodeOptions()
        options.maxPixelCount = 7168
        #expect(try coder.decode(progressive, options: options).pixelSize == PixelSize(width: 64, height: 64))
        options.maxPixelCount = 7167
        let error = try #require(throws: WebImageError.self) { try coder.decode(progressive, options: options) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("12288 bytes of DCT coefficients plus 16384 bytes of pixels"), "\(error.message)")
        let baseline = try coder.encode(TestImages.still(width: 64, height: 64), as: .jpeg)
        #expect(try coder.decode(baseline, options: options).pixelSize == PixelSize(width: 64, height: 64))
        // A thumbnail counts its DCT-scaled bitmap (8 x 8 at 1/8, 256 bytes) but every coefficient.
        options.maxPixelCount = 64 * 64
        #expect(throws: WebImageError.self) { try coder.decode(progressive, options: options) }
        options.thumbnailPixelSize = PixelSize(width: 8, height: 8)
        #expect(try coder.decode(progressive, options: options).pixelSize == PixelSize(width: 8, height: 8))
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
