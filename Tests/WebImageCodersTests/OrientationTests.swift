import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCoders
import WebImageCore

/// EXIF orientation parsing and application, against the TIFF/EXIF definitions of the eight
/// values, and the DCT scale choice of JPEG thumbnails.
@Suite(.onOwnThreads) struct OrientationTests {
    /// A 3x2 image whose pixels are numbered 0...5 in the red channel, row-major.
    static let stored = try! Bitmap(width: 3, height: 2, bytes: (0..<6).flatMap { [UInt8($0), 0, 0, 255] }, hasAlpha: false)

    static func numbers(_ bitmap: Bitmap) -> [[Int]] {
        (0..<bitmap.height).map { y in (0..<bitmap.width).map { x in Int(bitmap[x, y].red) } }
    }

    /// What an upright viewer sees for each orientation of the stored rows [0 1 2] / [3 4 5].
    @Test(arguments: [
        (1, [[0, 1, 2], [3, 4, 5]]),
        (2, [[2, 1, 0], [5, 4, 3]]),
        (3, [[5, 4, 3], [2, 1, 0]]),
        (4, [[3, 4, 5], [0, 1, 2]]),
        (5, [[0, 3], [1, 4], [2, 5]]),
        (6, [[3, 0], [4, 1], [5, 2]]),
        (7, [[5, 2], [4, 1], [3, 0]]),
        (8, [[2, 5], [1, 4], [0, 3]]),
    ])
    func everyOrientationTurnsThePixelsUpright(_ orientation: Int, _ expected: [[Int]]) throws {
        #expect(Self.numbers(try EXIFOrientation.apply(orientation, to: Self.stored)) == expected)
    }

    static func tiff(orientation: Int, bigEndian: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        // Header, IFD at 8 with two entries: ImageWidth (0x0100) then Orientation (0x0112).
        return (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8) + u16(2)
            + u16(0x0100) + u16(3) + u32(1) + u16(640) + u16(0)
            + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) + u32(0)
    }

    @Test(arguments: [true, false])
    func orientationIsReadInEitherByteOrder(_ bigEndian: Bool) {
        for value in 1...8 {
            let bytes = Self.tiff(orientation: value, bigEndian: bigEndian)
            #expect(bytes.withUnsafeBytes { EXIFOrientation.orientation(inTIFF: $0) } == value)
        }
    }

    @Test func malformedOrMissingOrientation() {
        #expect([UInt8]([1, 2, 3]).withUnsafeBytes { EXIFOrientation.orientation(inTIFF: $0) } == nil)
        var bytes = Self.tiff(orientation: 9, bigEndian: false)
        #expect(bytes.withUnsafeBytes { EXIFOrientation.orientation(inTIFF: $0) } == 1)
        bytes = Array(Self.tiff(orientation: 6, bigEndian: false).prefix(20))  // cut inside the IFD
        #expect(bytes.withUnsafeBytes { EXIFOrientation.orientation(inTIFF: $0) } == nil)
    }

    @Test func xmpOrientationInAttributeAndElementForms() {
        let attribute = Array(#"<rdf:Description tiff:Orientation="6" xmlns:tiff="http://ns.adobe.com/tiff/1.0/"/>"#.utf8)
        let element = Array("<tiff:Orientation>3</tiff:Orientation>".utf8)
        let none = Array("<x:xmpmeta></x:xmpmeta>".utf8)
        #expect(attribute.withUnsafeBytes { EXIFOrientation.orientation(inXMP: $0) } == 6)
        #expect(element.withUnsafeBytes { EXIFOrientation.orientation(inXMP: $0) } == 3)
        #expect(none.withUnsafeBytes { EXIFOrientation.orientation(inXMP: $0) } == nil)
    }

    /// The smallest M/8 (M in 1...8) whose (rounded-up) output still covers the target.
    @Test(arguments: [
        (4000, 3000, 400, 300, Int32(1)),
        (4000, 3000, 500, 375, Int32(1)),
        (4000, 3000, 501, 300, Int32(2)),
        (4000, 3000, 1000, 750, Int32(2)),
        (4000, 3000, 1001, 750, Int32(3)),
        (4000, 3000, 2001, 1, Int32(5)),
        (4000, 3000, 3500, 2625, Int32(7)),
        (4000, 3000, 3501, 1, Int32(8)),
        (5250, 3450, 4892, 3214, Int32(8)),  // the 60 MB scale-down of SDWebImage's large photo
        (9, 9, 2, 2, Int32(1)),
        (9, 9, 3, 3, Int32(2)),
        (9, 9, 7, 7, Int32(6)),
    ])
    func dctScaleCoversTheTarget(_ width: Int, _ height: Int, _ targetWidth: Int, _ targetHeight: Int, _ eighths: Int32) {
        #expect(JPEGDecoding.dctScale(from: PixelSize(width: width, height: height), to: PixelSize(width: targetWidth, height: targetHeight)) == eighths)
    }
}
