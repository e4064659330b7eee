import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCoders
import WebImageCore

/// `PNGCoder.decode(contentsOf:options:)` reads a still's thumbnail from the file a piece at a
/// time (``PieceReader``, 256 KiB pieces) and gives what ``PNGCoder/decode(_:options:)`` gives
/// for the file's bytes: the same pixels, metadata and error codes, for every color type, split
/// image data, truncated files and chunks after the image data. (Its memory is measured in a
/// child process by `PNGThumbnailMemoryTests`.)
@Suite(.onOwnThreads) struct PNGFileThumbnailTests {
    /// A directory of its own for each test, removed with the suite instance.
    final class Directory: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("PNGFileThumbnailTests-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    let scratch = Directory()
    var directory: URL { scratch.url }

    init() throws {
        try FileManager.default.createDirectory(at: scratch.url, withIntermediateDirectories: true)
    }

    func write(_ data: Data, _ name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try data.writeWithoutSync(to: url)
        return url
    }

    /// Decodes `data` from a file and from memory with `options`: the same image, or errors of the same code.
    func expectSameAsData(_ data: Data, options: ImageDecodeOptions = StreamingThumbnailTests.options(), _ name: String,
                          sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = try write(data, name)
        let fromData = Result { try PNGCoder().decode(data, options: options) }
        let fromFile = Result { try PNGCoder().decode(contentsOf: url, options: options) }
        switch (fromData, fromFile) {
        case let (.success(a), .success(b)):
            #expect(a.bitmap == b.bitmap, "\(name): pixels", sourceLocation: sourceLocation)
            #expect(a.metadata == b.metadata, "\(name): metadata \(a.metadata) vs \(b.metadata)", sourceLocation: sourceLocation)
            #expect(a.hasAlpha == b.hasAlpha, "\(name): alpha", sourceLocation: sourceLocation)
            #expect(a.frameCount == b.frameCount, "\(name): frames", sourceLocation: sourceLocation)
        case let (.failure(a), .failure(b)):
            #expect((a as? WebImageError)?.code == (b as? WebImageError)?.code, "\(name): \(a) vs \(b)", sourceLocation: sourceLocation)
        case let (a, b):
            Issue.record("\(name): from data \(a), from the file \(b)", sourceLocation: sourceLocation)
        }
    }

    /// A photo-like RGB or RGBA image of `width` x `height` with noise, encoded by PNGCoder (so
    /// every filter type appears), large enough that the reader's buffer and the row batches refill.
    static func encodedPhoto(width: Int, height: Int, alpha: Bool) throws -> Data {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        var seed: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_103_515_245 &+ 12345
                let noise = Int(seed >> 27)
                let o = (y * width + x) * 4
                bytes[o] = UInt8((x * 255 / width + noise) & 0xFF)
                bytes[o + 1] = UInt8((y * 255 / height + noise / 2) & 0xFF)
                bytes[o + 2] = UInt8(((x + y) * 3 + noise) & 0xFF)
                bytes[o + 3] = alpha ? UInt8((x * 7 + y) & 0xFF) : 255
            }
        }
        let bitmap = try Bitmap(width: width, height: height, bytes: bytes, hasAlpha: alpha)
        return try PNGCoder().encode(WebImage(bitmap: bitmap, format: .png), as: .png)
    }

    @Test("every color type, plain and interlaced, gives the in-memory thumbnail", arguments: StreamingThumbnailTests.pngCases, [false, true])
    func everyColorType(_ pngCase: StreamingThumbnailTests.PNGCase, interlaced: Bool) throws {
        try expectSameAsData(StreamingThumbnailTests.png(pngCase, interlaced: interlaced), "\(pngCase.name)-\(interlaced).png")
    }

    @Test("a file larger than the read buffer, filtered rows in several batches", arguments: [false, true])
    func largeFilteredFile(alpha: Bool) throws {
        let data = try Self.encodedPhoto(width: 700, height: 520, alpha: alpha)
        #expect(data.count > PieceReader.capacity, "\(data.count) bytes: the reader refills")
        let url = try write(data, "photo.png")
        let thumbnail = try PNGCoder().decode(contentsOf: url, options: StreamingThumbnailTests.options())
        let full = try PNGCoder().decode(data, options: ImageDecodeOptions())
        let target = StreamingThumbnailTests.options().targetPixelSize(for: full.pixelSize)
        #expect(thumbnail.bitmap == (try BoxReduction.thumbnail(full.bitmap, to: target)), "the full decode reduced, then resampled")
        #expect(thumbnail.metadata == [.decoded, .thumbnail])
        try expectSameAsData(data, "photo-again.png")
    }

    @Test("a file cut anywhere gives what its bytes give", arguments: [false, true])
    func truncatedFiles(interlaced: Bool) throws {
        let whole = StreamingThumbnailTests.png(StreamingThumbnailTests.pngCases[0], interlaced: interlaced)
        for cut in [0, 5, 8, 20, 33, 40, 60, whole.count / 3, whole.count / 2, whole.count - 13, whole.count - 12, whole.count - 5, whole.count - 1] {
            try expectSameAsData(whole.prefix(cut), "cut-\(cut).png")
        }
    }

    @Test func chunksAfterTheImageData() throws {
        let rows = (0..<90).map { y in (0..<120).flatMap { x in [x * 2 % 256, y * 2 % 256, (x + y) % 256] } }
        func file(_ after: (inout PNGBuilder) -> Void) -> Data {
            var builder = PNGBuilder()
            builder.header(width: 120, height: 90, bitDepth: 8, colorType: 2)
            builder.imageData(PNGBuilder.rawRows(rows, bitDepth: 8), chunks: 4)
            after(&builder)
            builder.end()
            return builder.data
        }
        // An ancillary chunk with a bad CRC is skipped; a critical one is an error; image data
        // after another chunk is ignored.
        try expectSameAsData(file { $0.chunk("tEXt", Array("Comment\0hello".utf8)) }, "text.png")
        try expectSameAsData(file { $0.chunk("tEXt", Array("Comment\0hello".utf8), corruptCRC: true) }, "bad-text.png")
        try expectSameAsData(file { $0.chunk("ABCD", [1, 2, 3], corruptCRC: true) }, "bad-critical.png")
        try expectSameAsData(file { $0.chunk("tEXt", []); $0.chunk("IDAT", [1, 2, 3, 4]) }, "late-idat.png")
        var bad = file { _ in }
        bad[bad.count - 1] ^= 0xFF  // IEND's CRC
        try expectSameAsData(bad, "bad-iend.png")
        let clean = file { _ in }
        #expect(try PNGCoder().decode(contentsOf: write(clean, "clean.png"), options: StreamingThumbnailTests.options()).metadata == [.decoded, .thumbnail])
    }

    @Test("full-size decodes, larger thumbnails and APNGs read the whole file")
    func otherDecodes() throws {
        let data = StreamingThumbnailTests.png(StreamingThumbnailTests.pngCases[1], interlaced: false)
        try expectSameAsData(data, options: ImageDecodeOptions(), "full.png")
        try expectSameAsData(data, options: StreamingThumbnailTests.options(PixelSize(width: 150, height: 150)), "large-thumbnail.png")
        let frame = try Bitmap(width: 64, height: 48, bytes: [UInt8](repeating: 200, count: 64 * 48 * 4), hasAlpha: true)
        let second = try Bitmap(width: 64, height: 48, bytes: [UInt8](repeating: 90, count: 64 * 48 * 4), hasAlpha: true)
        let animation = try WebImage(frames: [ImageFrame(bitmap: frame, duration: 0.1), ImageFrame(bitmap: second, duration: 0.1)], format: .png)
        let apng = try PNGCoder().encode(animation, as: .png)
        try expectSameAsData(apng, options: StreamingThumbnailTests.options(PixelSize(width: 10, height: 10)), "animated.png")
    }

    @Test("a file that shrinks or grows after it is opened gives a truncated thumbnail or an error, never a crash", arguments: [false, true])
    func fileChangesWhileRead(interlaced: Bool) throws {
        let whole = StreamingThumbnailTests.png(StreamingThumbnailTests.pngCases[0], interlaced: interlaced)
        let options = StreamingThumbnailTests.options()
        let url = try write(whole, "changing-\(interlaced).png")
        let shrinking = try PieceReader(url: url)
        try whole.prefix(whole.count / 2).writeWithoutSync(to: url)
        let cut = try PNGFileDecoding.decode(shrinking, options: options)
        #expect(cut.metadata.contains(.incremental))
        #expect(cut.bitmap == (try PNGCoder().decode(whole.prefix(whole.count / 2), options: options)).bitmap)
        let emptied = try PieceReader(url: url)
        try Data().writeWithoutSync(to: url)
        #expect(code { try PNGFileDecoding.decode(emptied, options: options) } == .badImageData)
        try whole.writeWithoutSync(to: url)
        let growing = try PieceReader(url: url)
        try (whole + Data(repeating: 7, count: 300_000)).writeWithoutSync(to: url)
        let grown = try PNGFileDecoding.decode(growing, options: options)
        #expect(grown.bitmap == (try PNGCoder().decode(whole, options: options)).bitmap)
    }

    func code(_ body: () throws -> WebImage) -> WebImageError.Code? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? WebImageError)?.code
        }
    }

    @Test func badURLsAndFiles() throws {
        let options = StreamingThumbnailTests.options()
        #expect(code { try PNGCoder().decode(contentsOf: URL(string: "https://example.com/a.png")!, options: options) } == .unsupportedURL)
        #expect(code { try PNGCoder().decode(contentsOf: directory.appendingPathComponent("missing.png"), options: options) } == .invalidURL)
        #expect(code { try PNGCoder().decode(contentsOf: directory, options: options) } == .invalidURL)
        let text = try write(Data("not a png at all".utf8), "text.png")
        #expect(code { try PNGCoder().decode(contentsOf: text, options: options) } == .badImageData)
    }
}
