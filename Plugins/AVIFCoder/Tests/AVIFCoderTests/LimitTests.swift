import AVIFCoder
import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// The pixel, frame and per-image limits hold before libavif decodes a frame, and hostile input
/// (truncated, corrupt, claiming huge sizes) gives a `WebImageError`, never a trap.
@Suite(.onOwnThreads) struct LimitTests {
    static let coder = AVIFCoder(speed: 10)
    static let still = WebImage(bitmap: Pixels.picture(width: 40, height: 30, alpha: true))

    static func stillData() throws -> Data {
        var options = ImageEncodeOptions(compressionQuality: 0.6)
        options.context.avifEncodingSpeed = 10
        return try coder.encode(still, as: .avif, options: options)
    }

    /// Three frames of 40x30.
    static func sequenceData() throws -> Data {
        let frames = (0..<3).map { ImageFrame(bitmap: Pixels.picture(width: 40, height: 30, alpha: false, seed: $0 * 20), duration: 0.1) }
        return try coder.encode(try WebImage(frames: frames), as: .avif, options: ImageEncodeOptions(compressionQuality: 0.6))
    }

    @Test func pixelLimitRefusesFromTheHeader() throws {
        let data = try Self.stillData()
        var options = ImageDecodeOptions()
        options.maxPixelCount = 40 * 30
        #expect(try Self.coder.decode(data, options: options).pixelSize == PixelSize(width: 40, height: 30))
        options.maxPixelCount = 40 * 30 - 1
        let error = try #require(throws: WebImageError.self) { try Self.coder.decode(data, options: options) }
        #expect(error.code == .imageTooLarge, "\(error)")
        #expect(error.message.contains("\(40 * 30 - 1)"), "\(error.message)")
        // The provider checks the same way.
        #expect(throws: WebImageError.self) { try Self.coder.makeAnimatedImageProvider(for: data, options: options) }
    }

    @Test func frameLimitRefusesSequencesButNotTheirFirstFrame() throws {
        let data = try Self.sequenceData()
        var options = ImageDecodeOptions()
        options.maxFrameCount = 3
        #expect(try Self.coder.decode(data, options: options).frameCount == 3)
        options.maxFrameCount = 2
        let error = try #require(throws: WebImageError.self) { try Self.coder.decode(data, options: options) }
        #expect(error.code == .imageTooLarge, "\(error)")
        options.firstFrameOnly = true
        #expect(try Self.coder.decode(data, options: options).frameCount == 1)
    }

    /// frames x decoded pixels: a thumbnail's smaller frames fit where the full ones do not.
    @Test func totalPixelLimitCountsEveryFrameAtItsDecodedSize() throws {
        let data = try Self.sequenceData()
        var options = ImageDecodeOptions()
        options.maxTotalPixelCount = 3 * 40 * 30
        #expect(try Self.coder.decode(data, options: options).frameCount == 3)
        options.maxTotalPixelCount = 3 * 40 * 30 - 1
        let error = try #require(throws: WebImageError.self) { try Self.coder.decode(data, options: options) }
        #expect(error.code == .imageTooLarge, "\(error)")
        #expect(error.message.contains("3 frames"), "\(error.message)")
        // A thumbnail does not escape it: every frame is decoded at full size first.
        options.thumbnailPixelSize = PixelSize(width: 20, height: 15)
        #expect(throws: WebImageError.self) { try Self.coder.decode(data, options: options) }
        options.maxTotalPixelCount = 3 * 40 * 30
        #expect(try Self.coder.decode(data, options: options).pixelSize == PixelSize(width: 20, height: 15))
        // A still counts once.
        var still = ImageDecodeOptions()
        still.maxTotalPixelCount = 40 * 30 - 1
        #expect(throws: WebImageError.self) { try Self.coder.decode(try Self.stillData(), options: still) }
    }

    /// The `ispe` box (the size the container states) rewritten to claim a huge image.
    static func claiming(width: UInt32, height: UInt32) throws -> Data {
        var bytes = [UInt8](try stillData())
        let ispe = Array("ispe".utf8)
        var patched = 0
        var index = 0
        while index + 16 <= bytes.count {
            if Array(bytes[index..<index + 4]) == ispe {
                // size(4) 'ispe'(4) version+flags(4) width(4) height(4): the type is at +4.
                for (offset, value) in [(8, width), (12, height)] {
                    for byte in 0..<4 { bytes[index + offset + byte] = UInt8(truncatingIfNeeded: value >> (24 - 8 * byte)) }
                }
                patched += 1
            }
            index += 1
        }
        #expect(patched >= 1, "no ispe box found")
        return Data(bytes)
    }

    @Test func hugeDeclaredSizeIsRefusedBeforeDecoding() throws {
        // Over the default limit (and libavif's 32768 dimension limit).
        let huge = try Self.claiming(width: 60_000, height: 60_000)
        let error = try #require(throws: WebImageError.self) { try Self.coder.decode(huge) }
        #expect(error.code == .imageTooLarge, "\(error)")
        #expect(error.message.contains("libavif"), "\(error.message)")
        // Within the default limit, over a lowered one.
        let large = try Self.claiming(width: 3000, height: 2000)
        var options = ImageDecodeOptions()
        options.maxPixelCount = 3000 * 2000 - 1
        let lowered = try #require(throws: WebImageError.self) { try Self.coder.decode(large, options: options) }
        #expect(lowered.code == .imageTooLarge, "\(lowered)")
        // Within the limits: the AV1 sequence header (at most 40x30) cannot fill the claimed
        // 3000x2000, which libavif 0.11 would allocate; refused before decoding.
        let mismatch = try #require(throws: WebImageError.self) { try Self.coder.decode(large) }
        #expect(mismatch.code == .badImageData, "\(mismatch)")
        #expect(mismatch.message.contains("40x30"), "\(mismatch.message)")
        // A claim within the bitstream's maximum is left to libavif (0.11 gives an image of the
        // claimed size).
        do {
            #expect(try Self.coder.decode(try Self.claiming(width: 20, height: 10)).pixelSize == PixelSize(width: 20, height: 10))
        } catch let error as WebImageError {
            #expect(error.code == .badImageData, "\(error)")
        }
    }

    @Test func truncatedDataAtEveryLengthThrowsWebImageError() throws {
        for data in [try Self.stillData(), try Self.sequenceData()] {
            for length in 0..<data.count {
                do {
                    _ = try Self.coder.decode(data.prefix(length))
                    Issue.record("\(length) of \(data.count) bytes decoded")
                } catch let error as WebImageError {
                    #expect(error.code == .badImageData, "\(length) bytes: \(error)")
                } catch {
                    Issue.record("\(length) bytes: threw \(type(of: error))")
                }
            }
        }
    }

    @Test func truncationIsNamed() throws {
        let data = try Self.stillData()
        let error = try #require(throws: WebImageError.self) { try Self.coder.decode(data.prefix(data.count - 10)) }
        #expect(error.message.contains("truncated"), "\(error.message)")
        let notAVIF = try #require(throws: WebImageError.self) { try Self.coder.decode(Data("not an image at all".utf8)) }
        #expect(notAVIF.code == .badImageData)
        #expect(!Self.coder.canDecode(Data("not an image at all".utf8)))
    }
}
