import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageCLIKit

/// `webimage convert --thumbnail` of a local PNG or JPEG decodes from the file a piece at a time
/// (``FileThumbnailLoader``, issue 36): the command never holds the compressed file. Each input
/// carries 48 MB the decode steps over (a PNG's ancillary chunk after the image data, a JPEG's
/// comment segments before the frame); the peak RSS of the conversion (a grandchild's
/// `ru_maxrss`, ``PeakMemoryRunner``) stays under half of that over a 1x1 conversion, where
/// reading the file whole costs all of it.
@Suite(.onOwnThreads, .serialized) struct FileThumbnailMemoryTests {
    static let padding = 48 * 1024 * 1024
    let workspace = Workspace()

    /// A 600x600 one-colour PNG with `padding` bytes of an ancillary chunk (its CRC unchecked:
    /// a bad ancillary CRC is skipped) after the image data.
    static func paddedPNG() -> Data {
        var bytes = [UInt8](PNGThumbnailMemoryTests.png(side: 600, interlaced: false))
        let iend = bytes.count - 12
        var chunk = AnimatedThumbnailMemoryTests.PNGChunks.be32(padding) + Array("zzZz".utf8)
        chunk += [UInt8](repeating: 0x41, count: padding) + [0, 0, 0, 0]
        bytes.insert(contentsOf: chunk, at: iend)
        return Data(bytes)
    }

    /// A 600x400 JPEG with `padding` bytes of COM segments after SOI.
    static func paddedJPEG() throws -> Data {
        let bitmap = try Bitmap(width: 600, height: 400, bytes: [UInt8](repeating: 128, count: 600 * 400 * 4), hasAlpha: false)
        let jpeg = try JPEGCoder().encode(WebImage(bitmap: bitmap, format: .jpeg), as: .jpeg)
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes.reserveCapacity(padding + jpeg.count + padding / 60_000 * 4)
        let segment = 65_000
        var left = padding
        while left > 0 {
            let count = min(segment, left)
            bytes += [0xFF, 0xFE, UInt8((count + 2) >> 8), UInt8((count + 2) & 0xFF)]
            bytes += [UInt8](repeating: 0x20, count: count)
            left -= count
        }
        bytes += jpeg.dropFirst(2)
        return Data(bytes)
    }

    func peak(_ arguments: [String]) async throws -> Int {
        let outcome = try await PeakMemoryRunner.run(arguments, home: workspace.home)
        try #require(outcome.status == 0, "webimage \(arguments.joined(separator: " ")) failed")
        return outcome.peakBytes
    }

    @Test("convert --thumbnail holds no file", arguments: ["png", "jpg"])
    func thumbnailHoldsNoFile(_ kind: String) async throws {
        guard PeakMemoryRunner.isAvailable else {
            print("FileThumbnailMemoryTests: skipped, python3 (which measures the child's peak RSS) is not on the PATH")
            return
        }
        let data = kind == "png" ? Self.paddedPNG() : try Self.paddedJPEG()
        let input = try workspace.write(data, to: "padded.\(kind)")
        let pixel = try workspace.write(PNGThumbnailMemoryTests.png(side: 1, interlaced: false), to: "pixel.png")
        let base = try await peak(["convert", pixel, workspace.path("pixel.bmp")])
        let thumbnail = try await peak(["convert", input, workspace.path("thumb-\(kind).png"), "--thumbnail", "60x60"]) - base
        let what = "\(kind) of \(data.count / 1_000_000) MB: thumbnail \(thumbnail / 1_000_000) MB over a baseline of \(base / 1_000_000) MB"
        print("FileThumbnailMemoryTests: \(what)")
        #expect(thumbnail * 2 < Self.padding, "\(what)")
        let output = try PNGCoder().decode(Data(contentsOf: URL(fileURLWithPath: workspace.path("thumb-\(kind).png"))))
        #expect(output.pixelSize.width <= 60 && output.pixelSize.height <= 60)
    }

    @Test("the loader streams local PNG and JPEG thumbnails and hands everything else on")
    func loaderChoosesTheFilePath() async throws {
        let loader = FileThumbnailLoader(fallback: FileLoader(coder: CodersManager.shared))
        var context = WebImageContext()
        context.imageThumbnailPixelSize = PixelSize(width: 60, height: 60)
        let png = URL(fileURLWithPath: try workspace.write(PNGThumbnailMemoryTests.png(side: 600, interlaced: true), to: "small.png"))
        let streamed = try await loader.requestImage(with: png, options: [], context: context, progress: nil)
        #expect(streamed.data == nil, "decoded from the file, no bytes held")
        #expect(streamed.image?.pixelSize == PixelSize(width: 60, height: 60))
        // A full-size decode, and another format, go to the fallback (which returns the bytes).
        let full = try await loader.requestImage(with: png, options: [], context: WebImageContext(), progress: nil)
        #expect(full.data != nil)
        let bmp = try PNGCoder().decode(Data(contentsOf: png))
        let bmpURL = URL(fileURLWithPath: try workspace.write(try CodersManager.shared.encode(bmp, as: .bmp), to: "small.bmp"))
        #expect(try await loader.requestImage(with: bmpURL, options: [], context: context, progress: nil).data != nil)
    }
}
