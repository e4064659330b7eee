import Foundation
import ICOCoder
import Testing
import WebImageTestSupport
import WebImageCore

/// Malformed directories and entries: each refused with a clear `WebImageError` naming the
/// entry, before any entry is decoded.
@Suite(.onOwnThreads) struct HostileInputTests {
    /// An ICO directory of `entries` (width, height, byte count, offset) followed by `body`.
    static func ico(_ entries: [(Int, Int, Int, Int)], body: [UInt8], type: UInt8 = 1) -> Data {
        var out: [UInt8] = [0, 0, type, 0, UInt8(entries.count & 0xFF), UInt8(entries.count >> 8)]
        for (width, height, count, offset) in entries {
            out += [UInt8(width & 0xFF), UInt8(height & 0xFF), 0, 0, 1, 0, 32, 0]
            for value in [count, offset] { out += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)] }
        }
        return Data(out + body)
    }

    /// A 2x2 32-bit headless BMP entry (header, 4 pixels, mask rows).
    static let dib: [UInt8] = {
        var header = [UInt8](repeating: 0, count: 40)
        header[0] = 40; header[4] = 2; header[8] = 4; header[12] = 1; header[14] = 32
        return header + [UInt8](repeating: 0x7F, count: 16) + [UInt8](repeating: 0, count: 8)
    }()

    @Test func aWellFormedEntryDecodes() throws {
        let image = try ICOCoder().decode(Self.ico([(2, 2, Self.dib.count, 22)], body: Self.dib))
        #expect(image.pixelSize == PixelSize(width: 2, height: 2))
        #expect(image.bitmap[0, 0] == RGBAColor(red: 0x7F, green: 0x7F, blue: 0x7F, alpha: 0x7F))
    }

    @Test(arguments: [
        ("an entry pointing outside the file", ico([(2, 2, 64, 1_000_000)], body: dib), "outside the file"),
        ("an entry running past the end", ico([(2, 2, 4096, 22)], body: dib), "outside the file"),
        ("an entry inside the directory", ico([(2, 2, 16, 6)], body: dib), "inside the directory"),
        ("overlapping entries", ico([(2, 2, dib.count, 38), (2, 2, dib.count, 40)], body: dib + dib), "overlap"),
        ("an entry of 0 bytes", ico([(2, 2, 0, 22)], body: dib), "0 bytes"),
        ("a directory past the end", Data([0, 0, 1, 0, 40, 0] + [UInt8](repeating: 0, count: 20)), "truncated"),
        ("a directory of 60000 entries", Data([0, 0, 1, 0, 0x60, 0xEA] + [UInt8](repeating: 0, count: 64)), "entries"),
    ])
    func malformedDirectoriesAreRefused(_ what: String, _ data: Data, _ phrase: String) throws {
        let error = try #require(throws: WebImageError.self, "\(what)") { try ICOCoder().decode(data) }
        #expect(error.code == .badImageData, "\(what): \(error)")
        #expect(error.message.contains(phrase), "\(what): \(error.message)")
    }

    @Test func absurdBitmapSizesAreRefused() throws {
        var huge = Self.dib
        huge[4] = 0; huge[5] = 0; huge[6] = 1  // width 65536
        let error = try #require(throws: WebImageError.self) { try ICOCoder().decode(Self.ico([(0, 0, huge.count, 22)], body: huge)) }
        #expect(error.message.contains("absurd"), "\(error.message)")
        var truncated = Self.dib
        truncated[4] = 200; truncated[8] = 144  // 200x72 claims far more than the 24 bytes there
        let short = try #require(throws: WebImageError.self) { try ICOCoder().decode(Self.ico([(0, 0, truncated.count, 22)], body: truncated)) }
        #expect(short.message.contains("truncated"), "\(short.message)")
    }

    @Test func theZeroCountIsNotAnIcon() throws {
        let data = Data([0, 0, 1, 0, 0, 0])
        #expect(!ICOCoder().canDecode(data))
        let error = try #require(throws: WebImageError.self) { try ICOCoder().decode(data) }
        #expect(error.message.contains("0 entries"), "\(error.message)")
    }

    @Test func thePixelLimitApplies() throws {
        var options = ImageDecodeOptions()
        options.maxPixelCount = 3
        let error = try #require(throws: WebImageError.self) { try ICOCoder().decode(Self.ico([(2, 2, Self.dib.count, 22)], body: Self.dib), options: options) }
        #expect(error.code == .imageTooLarge)
    }
}
