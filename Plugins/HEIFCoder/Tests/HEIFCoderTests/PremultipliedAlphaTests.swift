import Foundation
import HEIFCoder
import Testing
import WebImageTestSupport
import SwiftWebImage

/// A file whose alpha is marked premultiplied (`prem`) decodes to straight alpha, the bitmap's
/// convention: libheif 1.15 hands its colour over still multiplied.
@Suite(.onOwnThreads, .enabled(if: ReferenceTools.available, "heif-enc is not installed (apt-get install libheif-examples): skipped"))
struct PremultipliedAlphaTests {
    /// `bitmap` written by heif-enc with `arguments`.
    static func heifEnc(_ bitmap: Bitmap, _ arguments: [String]) async throws -> Data {
        let folder = try ReferenceTools.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try PNGCoder().encode(WebImage(bitmap: bitmap), as: .png).writeWithoutSync(to: folder.appendingPathComponent("source.png"))
        _ = try await ReferenceTools.run("heif-enc", arguments + ["-o", "image.heic", "source.png"], in: folder)
        return try Data(contentsOf: folder.appendingPathComponent("image.heic"))
    }

    /// Colour 60 at alpha 128 stored premultiplied stands for 120.
    @Test func premultipliedAlphaBecomesStraight() async throws {
        let source = Pixels.make(width: 64, height: 64) { _, _ in RGBAColor(red: 60, green: 30, blue: 90, alpha: 128) }
        let image = try HEIFCoder().decode(await Self.heifEnc(source, ["-q", "95", "--premultiplied-alpha"]))
        let pixel = image.bitmap[32, 32]
        #expect(Pixels.near(pixel, RGBAColor(red: 120, green: 60, blue: 180, alpha: 128), tolerance: 8), "\(pixel)")
    }

    /// The same colours written straight stay as they are.
    @Test func straightAlphaIsKept() async throws {
        let source = Pixels.make(width: 64, height: 64) { _, _ in RGBAColor(red: 120, green: 60, blue: 180, alpha: 128) }
        let image = try HEIFCoder().decode(await Self.heifEnc(source, ["-q", "95"]))
        #expect(Pixels.near(image.bitmap[32, 32], RGBAColor(red: 120, green: 60, blue: 180, alpha: 128), tolerance: 8))
    }
}
