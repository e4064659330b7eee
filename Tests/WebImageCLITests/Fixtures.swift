import Foundation
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageCLIKit

/// Test images made by the project's own coders (no files are committed for these tests).
enum Fixtures {
    /// An opaque 64x48 gradient as JPEG.
    static func jpeg(width: Int = 64, height: Int = 48) throws -> Data {
        try once("jpeg \(width)x\(height)") {
            try JPEGCoder().encode(WebImage(bitmap: TestImages.gradient(width: width, height: height)), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.9))
        }
    }

    /// A 40x30 gradient with an alpha ramp as PNG.
    static func alphaPNG() throws -> Data {
        try once("alpha png") {
            try PNGCoder().encode(WebImage(bitmap: TestImages.gradient(width: 40, height: 30, alpha: true)), as: .png)
        }
    }

    /// The frames of the animations: solid red, green, blue, ... 12x10.
    static let frameColors: [RGBAColor] = [
        RGBAColor(red: 255, green: 0, blue: 0), RGBAColor(red: 0, green: 255, blue: 0), RGBAColor(red: 0, green: 0, blue: 255),
        RGBAColor(red: 255, green: 255, blue: 0), RGBAColor(red: 0, green: 255, blue: 255),
    ]

    static func animation(durations: [Double], loopCount: Int?) throws -> WebImage {
        let frames = durations.enumerated().map { index, duration in
            ImageFrame(bitmap: TestImages.solid(frameColors[index % frameColors.count], width: 12, height: 10), duration: duration)
        }
        return try WebImage(frames: frames, loopCount: loopCount)
    }

    /// An animated GIF; with `loopCount` `nil` the NETSCAPE2.0 block is removed, so the file
    /// states no loop count.
    static func gif(durations: [Double], loopCount: Int?) throws -> Data {
        try once("gif \(durations) \(String(describing: loopCount))") { try makeGIF(durations: durations, loopCount: loopCount) }
    }

    private static func makeGIF(durations: [Double], loopCount: Int?) throws -> Data {
        let data = try GIFCoder().encode(animation(durations: durations, loopCount: loopCount ?? 0), as: .gif)
        guard loopCount == nil else { return data }
        let marker = Data([0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8))
        guard let range = data.range(of: marker) else { return data }
        var stripped = data
        stripped.removeSubrange(range.lowerBound..<(range.lowerBound + 19))
        return stripped
    }

    /// An animated PNG.
    static func apng(durations: [Double], loopCount: Int) throws -> Data {
        try once("apng \(durations) \(loopCount)") { try PNGCoder().encode(animation(durations: durations, loopCount: loopCount), as: .png) }
    }

    /// A 20x16 gradient as BMP.
    static func bmp() throws -> Data {
        try BMPCoder().encode(WebImage(bitmap: TestImages.gradient(width: 20, height: 16)), as: .bmp)
    }

    /// A 16x8 WIRL image (the CLI's custom format).
    static func wirl() throws -> Data {
        try RunLengthImageCoder().encode(WebImage(bitmap: TestImages.solid(RGBAColor(red: 10, green: 20, blue: 30), width: 16, height: 8)), as: .wirl)
    }

    /// A PNG signature followed by garbage.
    static let corruptPNG = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x42, count: 64))

    /// Text, not an image.
    static let text = Data("hello, not an image\n".utf8)

    /// The fixtures made so far: every suite's `init` writes the same few images for each of
    /// its tests, and encoding them again each time was CPU work on the shared test pool.
    private static let made = FixtureCache<Data>()

    private static func once(_ key: String, _ make: () throws -> Data) throws -> Data {
        try made.value(for: key, make: make)
    }

    /// The bit depth byte of a PNG's IHDR.
    static func pngBitDepth(_ data: Data) -> UInt8? {
        data.count > 24 ? data[data.startIndex + 24] : nil
    }
}
