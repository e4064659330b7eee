import Foundation
import HEIFCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// Hostile and broken inputs give a ``WebImageError`` that says what was wrong, never a trap,
/// and the pixel limit is enforced from the headers before libheif decodes.
@Suite(.onOwnThreads) struct HostileInputTests {
    /// A 64x32 HEIC whose every `ispe` box (the coded size) is rewritten to `width` x `height`.
    static func declaring(width: UInt32, height: UInt32) throws -> Data {
        var bytes = [UInt8](try HEIFFileMaker.heic(Pixels.smooth(width: 64, height: 32)))
        let tag = Array("ispe".utf8)
        var patched = 0
        var index = 0
        while index + 16 <= bytes.count {
            if Array(bytes[index..<index + 4]) == tag {
                for (offset, value) in [(8, width), (12, height)] {
                    for byte in 0..<4 { bytes[index + offset + byte] = UInt8(truncatingIfNeeded: value >> (24 - 8 * byte)) }
                }
                patched += 1
            }
            index += 1
        }
        #expect(patched > 0, "the test file has an ispe box")
        return Data(bytes)
    }

    static func expectError(_ code: WebImageError.Code, containing words: String? = nil, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("no error, expected \(code)", sourceLocation: sourceLocation)
        } catch let error as WebImageError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            if let words { #expect(error.message.contains(words), "\(error.message)", sourceLocation: sourceLocation) }
        } catch {
            Issue.record("threw \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        }
    }

    /// A declared 30000x30000 (900 megapixels, under libheif's own 32768 per side) is refused
    /// by the coder's check of the header against `maxPixelCount` (256 megapixels).
    @Test func hugeDeclaredSizeIsRefusedBeforeDecoding() throws {
        let data = try Self.declaring(width: 30000, height: 30000)
        Self.expectError(.imageTooLarge, containing: "30000x30000") { _ = try HEIFCoder().decode(data) }
    }

    /// Over 32768 per side, libheif's own limit refuses it while reading the headers.
    @Test func sidesOverLibheifsLimitAreRefused() throws {
        let data = try Self.declaring(width: 100_000, height: 100_000)
        Self.expectError(.imageTooLarge) { _ = try HEIFCoder().decode(data) }
    }

    /// `maxPixelCount` applies to real files: 64x32 is 2048 pixels.
    @Test func pixelLimit() throws {
        let data = try HEIFFileMaker.heic(Pixels.smooth(width: 64, height: 32))
        var options = ImageDecodeOptions()
        options.maxPixelCount = 2047
        Self.expectError(.imageTooLarge, containing: "2047") { _ = try HEIFCoder().decode(data, options: options) }
        options.maxPixelCount = 4096  // the coded picture is padded to 64x64
        #expect(try HEIFCoder().decode(data, options: options).pixelSize == PixelSize(width: 64, height: 32))
    }

    @Test func truncatedFiles() throws {
        let data = try HEIFFileMaker.heic(Pixels.smooth(width: 64, height: 32))
        for length in [12, 24, 100, data.count / 3, data.count / 2, data.count - 200, data.count - 1] where length > 0 && length < data.count {
            do {
                let image = try HEIFCoder().decode(data.prefix(length))
                #expect(!image.pixelSize.isEmpty)
            } catch let error as WebImageError {
                #expect(error.code == .badImageData, "\(length) bytes: \(error)")
                #expect(error.message.contains("\(length) bytes"), "\(error.message)")
            }
        }
        Self.expectError(.badImageData, containing: "truncated") { _ = try HEIFCoder().decode(data.prefix(data.count / 2)) }
    }

    @Test func notHEIF() {
        #expect(!HEIFCoder().canDecode(Data()))
        #expect(!HEIFCoder().canDecode(Data("GIF89a".utf8)))
        Self.expectError(.badImageData, containing: "not HEIF") { _ = try HEIFCoder().decode(Data("not an image at all".utf8)) }
        Self.expectError(.badImageData) { _ = try HEIFCoder().decode(Data()) }
    }

    /// An `ftyp` box that says HEIC, and nothing after it.
    @Test func brandWithoutBoxes() {
        var ftyp = Data([0, 0, 0, 24]) + Data("ftypheic".utf8) + Data([0, 0, 0, 0])
        ftyp += Data("mif1heic".utf8)
        #expect(HEIFCoder().canDecode(ftyp))
        Self.expectError(.badImageData) { _ = try HEIFCoder().decode(ftyp) }
    }

    /// Bytes flipped all over a real file (the contract suite flips some after the header).
    @Test func corruptFiles() throws {
        let data = try HEIFFileMaker.heic(Pixels.smooth(width: 64, height: 32))
        var random = SplitMix64(seed: 20)
        for round in 0..<64 {
            var bytes = [UInt8](data)
            for _ in 0..<(1 + round % 8) {
                bytes[Int(random.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            do {
                let image = try HEIFCoder().decode(Data(bytes))
                #expect(!image.pixelSize.isEmpty)
            } catch {
                #expect(error is WebImageError, "round \(round): \(error)")
            }
        }
    }
}
