import Foundation
@testable import PhotosLoader
import SwiftWebImage
import Testing
import WebImageTestSupport

// The parsers behind the index: asset identifiers, EXIF/TIFF, EXIF dates, JPEG segments, other
// headers.

/// Asset identifiers are stored and handed out (`photos://asset/<id>`): they must never change
/// for the same contents. The expected values are computed outside Swift (Python's hashlib over
/// the documented scheme: SHA-256 of the domain, the size as 8 little-endian bytes, the first
/// and last 64 KiB; the first 16 bytes in hex).
@Suite struct AssetIdentifierTests {
    /// A PNG signature and IHDR (3 x 2) followed by a fixed byte pattern, `size` bytes in all.
    static func file(size: Int) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 3, 0, 0, 0, 2]
        for index in bytes.count..<size { bytes.append(UInt8(truncatingIfNeeded: index &* 31 &+ 7)) }
        return bytes
    }

    @Test(arguments: [
        // Head only, and head plus tail (the file is longer than 64 KiB).
        (1_000, "4f488c496668bb35e09b0369740c9df5", "8ec7aa8faa714b60f0006cc3252ec26b"),
        (200_000, "bd95840da72efa12cfd23ad44f2cf511", "9a67adb7680fc55b7dc0102c73e33928"),
    ])
    func identifiersAreStable(size: Int, fingerprint: String, copyIdentifier: String) throws {
        let library = try TemporaryLibrary()
        try library.write(Data(Self.file(size: size)), to: "photo.png")
        guard case .image(let examined) = LibraryScanner.examine(root: library.root.path, relativePath: "photo.png") else {
            Issue.record("the file was not examined as an image")
            return
        }
        #expect(examined.fingerprint == fingerprint)
        #expect(LibraryScanner.duplicateIdentifier(fingerprint, relativePath: "albums/2024/copy.png", attempt: 2) == copyIdentifier)
    }

    @Test func hexOfAByteIsTwoUppercaseDigits() {
        #expect(JPEGHeaderReader.hex(0x0A) == "0A")
        #expect(JPEGHeaderReader.hex(0xD8) == "D8")
        #expect(JPEGHeaderReader.hex(0) == "00")
    }
}

@Suite struct EXIFReaderTests {
    static let thumbnail = Array(try! Fixtures.jpeg(width: 16, height: 12, color: Fixtures.blue))

    @Test(arguments: [false, true])
    func readsOrientationDatesAndThumbnailInBothByteOrders(littleEndian: Bool) throws {
        let builder = EXIFBuilder(littleEndian: littleEndian, orientation: 8, dateTimeOriginal: "2021:02:03 04:05:06",
                                  offsetTimeOriginal: "-05:30", thumbnail: Self.thumbnail)
        let tiff = builder.tiff()
        let info = try #require(EXIFReader.read(tiff: tiff))
        #expect(info.orientation == 8)
        #expect(info.dateTimeOriginal == "2021:02:03 04:05:06")
        #expect(info.offsetTimeOriginal == "-05:30")
        let range = try #require(info.thumbnailRange)
        #expect(Array(tiff[range]) == Self.thumbnail)
    }

    @Test func aThumbnailThatIsNotJPEGOrLiesOutsideTheBlockIsIgnored() throws {
        let uncompressed = EXIFBuilder(thumbnail: Self.thumbnail, thumbnailCompression: 1).tiff()
        #expect(try #require(EXIFReader.read(tiff: uncompressed)).thumbnailRange == nil)
        let noCompressionTag = EXIFBuilder(thumbnail: Self.thumbnail, thumbnailCompression: nil).tiff()
        #expect(try #require(EXIFReader.read(tiff: noCompressionTag)).thumbnailRange != nil, "no tag: JPEG assumed")
        let cut = Array(EXIFBuilder(thumbnail: Self.thumbnail).tiff().dropLast(10))
        #expect(try #require(EXIFReader.read(tiff: cut)).thumbnailRange == nil)
    }

    @Test func loopsAndGarbageGiveWhatCanBeReadWithoutCrashing() throws {
        let looping = EXIFBuilder(orientation: 3, thumbnail: Self.thumbnail, loopsBackToIFD0: true).tiff()
        let info = try #require(EXIFReader.read(tiff: looping))
        #expect(info.orientation == 3 && info.thumbnailRange != nil)
        #expect(EXIFReader.read(tiff: Array("not a tiff".utf8)) == nil)
        #expect(EXIFReader.read(tiff: [0x4D, 0x4D, 0x00, 0x2A]) == nil)
        #expect(EXIFReader.read(tiff: [0x4D, 0x4D, 0x00, 0x2A, 0xFF, 0xFF, 0xFF, 0xFF]) == EXIFInfo())
        // An orientation outside 1...8 is no orientation.
        #expect(try #require(EXIFReader.read(tiff: EXIFBuilder(orientation: 9).tiff())).orientation == nil)
        // Every single-byte corruption of a full block: never a crash, never a range outside it.
        let valid = EXIFBuilder(littleEndian: true, orientation: 6, dateTimeOriginal: "2020:01:01 00:00:00", thumbnail: Self.thumbnail).tiff()
        for index in 0..<min(valid.count, 200) {
            for value: UInt8 in [0x00, 0xFF, 0x7F] {
                var bytes = valid
                bytes[index] = value
                if let range = EXIFReader.read(tiff: bytes)?.thumbnailRange {
                    #expect(range.upperBound <= bytes.count)
                }
            }
        }
    }
}

@Suite struct EXIFDateTests {
    static let utc = TimeZone(identifier: "UTC")!

    @Test(arguments: [
        ("2023:07:14 09:30:00", "+02:00", 1_689_319_800.0),
        ("2023:07:14 09:30:00", "-07:00", 1_689_352_200.0),
        ("2023:07:14 09:30:00", nil, 1_689_327_000.0),
        ("2024:02:29 23:59:59", nil, 1_709_251_199.0),
        ("1969:12:31 23:59:59", nil, -1.0),
        ("2023-07-14 09:30:00", nil, 1_689_327_000.0),
    ] as [(String, String?, Double)])
    func parsesValidDates(text: String, offset: String?, seconds: Double) {
        #expect(EXIFDate.date(text, offset: offset, defaultZone: Self.utc) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: ["0000:00:00 00:00:00", "    :  :     :  :  ", "2023:02:29 10:00:00", "2023:13:01 10:00:00",
                      "2023:07:14 24:00:00", "2023:07:14", "garbage garbage xyz", ""])
    func rejectsBlankAndInvalidDates(text: String) {
        #expect(EXIFDate.date(text, offset: nil, defaultZone: Self.utc) == nil)
    }

    @Test func aDateWithoutOffsetIsReadInTheGivenZone() throws {
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        #expect(EXIFDate.date("2023:07:14 09:30:00", offset: nil, defaultZone: tokyo) == Date(timeIntervalSince1970: 1_689_327_000 - 9 * 3600))
        // A malformed offset falls back to the zone.
        #expect(EXIFDate.date("2023:07:14 09:30:00", offset: "+2:00", defaultZone: Self.utc) == Date(timeIntervalSince1970: 1_689_327_000))
    }
}

@Suite struct JPEGHeaderTests {
    static let soi: [UInt8] = [0xFF, 0xD8]

    @Test func readsSizeExifAndThumbnailAndStopsAtTheFrameHeader() throws {
        let thumbnail = Array(try Fixtures.jpeg(width: 40, height: 30, color: Fixtures.blue))
        let data = Array(try Fixtures.exifJPEG(width: 200, height: 150, exif: EXIFBuilder(orientation: 6, thumbnail: thumbnail)))
        let header = try JPEGHeaderReader.read(MemoryBytes(storage: data))
        #expect(header.storedSize == PixelSize(width: 200, height: 150))
        #expect(header.orientation == 6)
        let location = try #require(header.thumbnail)
        #expect(location.storedSize == PixelSize(width: 40, height: 30))
        #expect(Array(data[location.offset..<(location.offset + location.length)]) == thumbnail)
    }

    @Test func xmpOrientationCountsWhenEXIFHasNone() throws {
        var data = Array(try Fixtures.jpeg(width: 60, height: 20))
        data.insert(contentsOf: xmpSegment(orientation: 5), at: 2)
        let header = try JPEGHeaderReader.read(MemoryBytes(storage: data))
        #expect(header.orientation == 5 && header.exif == nil)
        // The same rule as JPEGCoder: the decoded image is 20x60.
        #expect(try JPEGCoder().decode(Data(data)).pixelSize == PixelSize(width: 20, height: 60))
        // With an EXIF orientation, XMP is not consulted.
        let both = Array(EXIFBuilder(orientation: 3).inserted(into: Data(data)))
        #expect(try JPEGHeaderReader.read(MemoryBytes(storage: both)).orientation == 3)
    }

    static let sof: [UInt8] = [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x10, 0x00, 0x20, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]

    @Test(arguments: [
        ([0xFF, 0xD8, 0xFF], "data ends at byte 2 of 3"),
        ([0xFF, 0xD8, 0xFF, 0xE1, 0x00], "ends inside the marker 0xFFE1"),
        ([0xFF, 0xD8], "no JPEG start"),
        ([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x08, 0, 0, 0, 0, 0, 0], "scan data"),
        ([0xFF, 0xD8, 0xFF, 0xD9], "before any frame header"),
        ([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01], "invalid length"),
        ([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A], "runs past the end"),
        ([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x02, 0x12, 0x34], "expected a marker at byte 6"),
        ([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x00, 0x00, 0x20, 0x01, 1, 0x11, 0], "declares a 32x0 image"),
        ([0xFF, 0xD8, 0xFF, 0xD8], "second start-of-image"),
    ] as [([UInt8], String)])
    func damagedHeadersNameTheProblem(bytes: [UInt8], fragment: String) {
        do {
            _ = try JPEGHeaderReader.read(MemoryBytes(storage: bytes))
            Issue.record("no error for \(bytes)")
        } catch let problem as HeaderProblem {
            #expect(problem.reason.contains(fragment), "\(problem.reason)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func fillBytesAndStandaloneMarkersAreSkipped() throws {
        let data = Self.soi + [0xFF, 0xFF, 0xFF, 0x01, 0xFF, 0xD3] + Self.sof
        let header = try JPEGHeaderReader.read(MemoryBytes(storage: data))
        #expect(header.storedSize == PixelSize(width: 32, height: 16))
    }

    @Test func everySingleByteCorruptionEndsInASizeOrAProblem() throws {
        let valid = Array(try Fixtures.exifJPEG(width: 24, height: 16, exif: EXIFBuilder(orientation: 6, dateTimeOriginal: "2020:01:01 00:00:00",
                                                                                          thumbnail: Array(try Fixtures.jpeg(width: 8, height: 8)))))
        let limit = min(valid.count, 900)
        for index in 2..<limit {
            for value: UInt8 in [0x00, 0xFF] where valid[index] != value {
                var bytes = valid
                bytes[index] = value
                do {
                    let header = try JPEGHeaderReader.read(MemoryBytes(storage: bytes))
                    #expect(!header.storedSize.isEmpty)
                } catch is HeaderProblem {
                    // A clear reason: fine.
                }
            }
        }
    }
}

@Suite struct OtherHeaderTests {
    func read(_ bytes: [UInt8]) throws -> ImageHeader {
        let format = ImageFormat.detect(Data(bytes))
        return try ImageHeaderReader.read(format, from: MemoryBytes(storage: bytes))
    }

    func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    func le16(_ value: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }

    func webP(_ chunk: String, _ payload: [UInt8]) -> [UInt8] {
        var bytes = Array("RIFF".utf8) + le32(4 + 8 + payload.count) + Array("WEBP".utf8) + Array(chunk.utf8) + le32(payload.count) + payload
        while bytes.count < 40 { bytes.append(0) }
        return bytes
    }

    @Test func webPSizesFromEachFirstChunk() throws {
        let lossy = webP("VP8 ", [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A] + le16(301) + le16(0x4000 | 201))
        #expect(try read(lossy).storedSize == PixelSize(width: 301, height: 201), "the 2 scale bits are masked off")
        let lossless = webP("VP8L", [0x2F] + le32(99 | 49 << 14))
        #expect(try read(lossless).storedSize == PixelSize(width: 100, height: 50))
        let extended = webP("VP8X", [0, 0, 0, 0, 0x0F, 0x27, 0x00, 0x9F, 0x86, 0x01])
        #expect(try read(extended).storedSize == PixelSize(width: 10_000, height: 100_000))
        #expect(throws: HeaderProblem.self) { try read(webP("ABCD", [])) }
    }

    @Test func bmpSizesIncludingTopDownRows() throws {
        var bmp = Array(try BMPCoder().encode(TestImages.still(width: 7, height: 5), as: .bmp))
        #expect(try read(bmp).storedSize == PixelSize(width: 7, height: 5))
        bmp.replaceSubrange(22..<26, with: le32(-5))
        #expect(try read(bmp).storedSize == PixelSize(width: 7, height: 5))
        let core = Array("BM".utf8) + le32(26) + le32(0) + le32(26) + le32(12) + le16(9) + le16(4) + le16(1) + le16(24)
        #expect(try read(core).storedSize == PixelSize(width: 9, height: 4))
    }

    @Test func pngAndGIFSizesAndTheirDamage() throws {
        #expect(try read(Array(try Fixtures.png(width: 33, height: 44))).storedSize == PixelSize(width: 33, height: 44))
        #expect(try read(Array(try Fixtures.gif(width: 12, height: 9))).storedSize == PixelSize(width: 12, height: 9))
        var png = Array(try Fixtures.png(width: 3, height: 3))
        png.replaceSubrange(16..<20, with: [0, 0, 0, 0])
        let zero = try #require(throws: HeaderProblem.self) { try read(png) }
        #expect(zero.reason.contains("0x3"))
        let gif = Array("GIF89a".utf8) + [5]
        #expect(throws: HeaderProblem.self) { try read(gif) }
    }

    @Test func formatsWithoutAHeaderReaderAreNamed() throws {
        let heic: [UInt8] = [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
        #expect(ImageFormat.detect(Data(heic)) == .heic)
        let problem = try #require(throws: HeaderProblem.self) { try read(heic) }
        #expect(problem.reason.contains("heic image") && problem.reason.contains("jpeg, png, gif, bmp, webp"), "\(problem.reason)")
    }
}
