import Foundation
import PhotosLoader
import SwiftWebImage
import WebImageTestSupport

/// Images made by the project's own coders for the generated libraries.
enum Fixtures {
    static let red = RGBAColor(red: 220, green: 20, blue: 20)
    static let blue = RGBAColor(red: 20, green: 20, blue: 220)
    static let green = RGBAColor(red: 20, green: 200, blue: 20)
    static let yellow = RGBAColor(red: 230, green: 220, blue: 20)

    /// A solid JPEG.
    static func jpeg(width: Int, height: Int, color: RGBAColor = red, quality: Double = 0.9) throws -> Data {
        try JPEGCoder().encode(WebImage(bitmap: TestImages.solid(color, width: width, height: height)), as: .jpeg,
                               options: ImageEncodeOptions(compressionQuality: quality))
    }

    /// A JPEG whose left half is `left` and right half `right` (to see orientations).
    static func halvesJPEG(width: Int, height: Int, left: RGBAColor, right: RGBAColor) throws -> Data {
        try JPEGCoder().encode(WebImage(bitmap: halves(width: width, height: height, left: left, right: right)), as: .jpeg,
                               options: ImageEncodeOptions(compressionQuality: 0.95))
    }

    static func halves(width: Int, height: Int, left: RGBAColor, right: RGBAColor) -> Bitmap {
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let color = x < width / 2 ? left : right
                let offset = (y * width + x) * 4
                bytes[offset] = color.red
                bytes[offset + 1] = color.green
                bytes[offset + 2] = color.blue
            }
        }
        return try! Bitmap(width: width, height: height, bytes: bytes, hasAlpha: false)
    }

    /// A JPEG with an EXIF block.
    static func exifJPEG(width: Int, height: Int, color: RGBAColor = red, exif: EXIFBuilder) throws -> Data {
        exif.inserted(into: try jpeg(width: width, height: height, color: color))
    }

    /// A gradient PNG.
    static func png(width: Int, height: Int, seed: UInt8 = 64) throws -> Data {
        try PNGCoder().encode(TestImages.still(width: width, height: height, seed: seed), as: .png)
    }

    /// An animated GIF of `frames` frames.
    static func gif(width: Int, height: Int, frames: Int = 3) throws -> Data {
        try GIFCoder().encode(TestImages.animated(frames: frames, width: width, height: height), as: .gif)
    }

    /// Whether two colors are within `tolerance` per channel (JPEG is lossy).
    static func close(_ a: RGBAColor, _ b: RGBAColor, tolerance: Int = 24) -> Bool {
        abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance && abs(Int(a.blue) - Int(b.blue)) <= tolerance
    }
}

/// A temporary folder tree for one test, removed when the value goes away.
final class TemporaryLibrary: @unchecked Sendable {
    // @unchecked: only the owning test touches it, from one task at a time; `root` is immutable.
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("photos-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// Writes `data` at `relativePath`, creating folders.
    @discardableResult
    func write(_ data: Data, to relativePath: String) throws -> URL {
        let file = url(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.writeWithoutSync(to: file)
        return file
    }

    func remove(_ relativePath: String) throws {
        try FileManager.default.removeItem(at: url(relativePath))
    }

    func move(_ from: String, to: String) throws {
        try FileManager.default.createDirectory(at: url(to).deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: url(from), to: url(to))
    }

    /// Sets the modification date of `relativePath` (a "touch" with a chosen date).
    func setModificationDate(_ date: Date, of relativePath: String) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url(relativePath).path)
    }

    func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    func library(timeZone: TimeZone = TimeZone(identifier: "UTC")!) -> PhotoLibrary {
        PhotoLibrary(rootURL: root, configuration: PhotoLibrary.Configuration(captureTimeZone: timeZone))
    }
}

/// The generated library most tests share: nested folders, JPEGs with and without EXIF
/// thumbnails and orientations, PNGs, an animated GIF, and files the index must leave out.
enum StandardLibrary {
    /// EXIF thumbnail of `vacation/beach.jpg`.
    static let beachThumbnail = Array(try! Fixtures.jpeg(width: 160, height: 120, color: Fixtures.blue))

    /// Writes the library's files into `folder`.
    static func populate(_ folder: TemporaryLibrary) throws {
        for file in files { try folder.write(file.data, to: file.path) }
    }

    /// The library's files, made once: they are the same for every test, and encoding them
    /// again for each of them was CPU work on the shared test pool.
    static let files: [(path: String, data: Data)] = {
        var files: [(path: String, data: Data)] = []
        func write(_ data: Data, to path: String) { files.append((path, data)) }
        // Root album: a JPEG with EXIF date (with offset), orientation 1 and an embedded thumbnail.
        write(try! Fixtures.exifJPEG(width: 640, height: 480, exif: EXIFBuilder(
            orientation: 1, dateTimeOriginal: "2023:07:14 09:30:00", offsetTimeOriginal: "+02:00", thumbnail: beachThumbnail)), to: "beach.jpg")
        // A nested album with a rotated photo (orientation 6, little-endian EXIF, no thumbnail).
        write(try! Fixtures.exifJPEG(width: 400, height: 300, color: Fixtures.green, exif: EXIFBuilder(
            littleEndian: true, orientation: 6, dateTimeOriginal: "2022:12:24 18:00:00")), to: "2022/Winter/tree.jpg")
        // A JPEG without any EXIF.
        write(try! Fixtures.jpeg(width: 320, height: 200, color: Fixtures.yellow), to: "2022/Winter/snow.jpg")
        // PNGs, one of them with a misleading extension.
        write(try! Fixtures.png(width: 64, height: 48), to: "2023/Summer/sunset.png")
        write(try! Fixtures.png(width: 30, height: 20, seed: 9), to: "2023/Summer/actually-png.jpg")
        // An animated GIF.
        write(try! Fixtures.gif(width: 24, height: 16), to: "2023/anim.gif")
        // Files to leave out.
        write(Data("shopping list".utf8), to: "2023/notes.txt")
        write(Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8)), to: "2023/Summer/broken.jpg")
        write(try! Fixtures.jpeg(width: 8, height: 8), to: ".hidden/secret.jpg")
        write(try! Fixtures.jpeg(width: 8, height: 8), to: "2023/.thumbs.jpg")
        write(Data(), to: "2023/empty.png")
        return files
    }()

    /// The relative paths of the indexed assets.
    static let assetPaths = [
        "2022/Winter/snow.jpg", "2022/Winter/tree.jpg", "2023/Summer/actually-png.jpg",
        "2023/Summer/sunset.png", "2023/anim.gif", "beach.jpg",
    ]
}
