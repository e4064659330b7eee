import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCoders
import WebImageCore

/// `JPEGCoder.decode(contentsOf:options:)` reads the file a piece at a time (libjpeg pulls it
/// through a 64 KiB buffer; a progressive file's marker walk reads 256 KiB windows) and gives
/// what ``JPEGCoder/decode(_:options:)`` gives for the file's bytes: the same pixels, metadata
/// and error codes, baseline and progressive, full size and DCT-scaled thumbnails; errors name
/// the file. (Its memory is measured by `scripts/png-thumbnail-bench`'s JPEG variants.)
@Suite(.onOwnThreads) struct JPEGFileDecodeTests {
    /// A directory of its own for each test, removed with the suite instance.
    final class Directory: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("JPEGFileDecodeTests-\(UUID().uuidString)")
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

    /// A noisy photo-like 1000x760 image (so that the file is larger than the read buffer and
    /// the walk's window) as baseline or progressive JPEG at quality 95.
    static func photo(progressive: Bool) throws -> Data {
        let width = 1000, height = 760
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        var seed: UInt32 = 36
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_103_515_245 &+ 12345
                let noise = Int(seed >> 26)
                let o = (y * width + x) * 4
                bytes[o] = UInt8((x * 255 / width + noise) & 0xFF)
                bytes[o + 1] = UInt8((y * 255 / height + noise / 2) & 0xFF)
                bytes[o + 2] = UInt8(((x + y) / 7 + noise) & 0xFF)
            }
        }
        let image = WebImage(bitmap: try Bitmap(width: width, height: height, bytes: bytes, hasAlpha: false), format: .jpeg)
        var options = ImageEncodeOptions()
        options.compressionQuality = 0.95
        return try JPEGCoder(progressiveEncoding: progressive).encode(image, as: .jpeg, options: options)
    }

    static let baseline = Result { try photo(progressive: false) }
    static let progressive = Result { try photo(progressive: true) }

    static func options(_ fit: PixelSize?) -> ImageDecodeOptions {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = fit
        return options
    }

    /// Decodes `data` from a file and from memory with `options`: the same image, or errors of
    /// the same code, the file's naming the file.
    func expectSameAsData(_ data: Data, options: ImageDecodeOptions, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = try write(data, name)
        let fromData = Result { try JPEGCoder().decode(data, options: options) }
        let fromFile = Result { try JPEGCoder().decode(contentsOf: url, options: options) }
        switch (fromData, fromFile) {
        case let (.success(a), .success(b)):
            #expect(a.bitmap == b.bitmap, "\(name): pixels", sourceLocation: sourceLocation)
            #expect(a.metadata == b.metadata, "\(name): metadata \(a.metadata) vs \(b.metadata)", sourceLocation: sourceLocation)
        case let (.failure(a), .failure(b)):
            let fileError = b as? WebImageError
            #expect((a as? WebImageError)?.code == fileError?.code, "\(name): \(a) vs \(b)", sourceLocation: sourceLocation)
            #expect(fileError?.message.hasPrefix(url.path) == true, "\(name): \(b) names the file", sourceLocation: sourceLocation)
            #expect(fileError?.url == url, sourceLocation: sourceLocation)
        case let (a, b):
            Issue.record("\(name): from data \(a), from the file \(b)", sourceLocation: sourceLocation)
        }
    }

    @Test("the file decodes as its bytes do", arguments: [false, true], [nil, PixelSize(width: 300, height: 300), PixelSize(width: 97, height: 61)])
    func sameAsInMemory(progressive: Bool, fit: PixelSize?) throws {
        let data = try (progressive ? Self.progressive : Self.baseline).get()
        #expect(data.count > FileBytes.capacity, "\(data.count) bytes: the buffer and the walk's window refill")
        try expectSameAsData(data, options: Self.options(fit), "photo-\(progressive)-\(String(describing: fit)).jpg")
        if let fit {
            let image = try JPEGCoder().decode(contentsOf: write(data, "fit.jpg"), options: Self.options(fit))
            #expect(image.metadata.contains(.thumbnail))
            #expect(image.pixelSize.width <= fit.width && image.pixelSize.height <= fit.height)
        }
    }

    @Test("a file cut anywhere gives what its bytes give", arguments: [false, true])
    func truncatedFiles(progressive: Bool) throws {
        let whole = try (progressive ? Self.progressive : Self.baseline).get()
        for cut in [0, 2, 3, 20, 200, 700, whole.count / 5, whole.count / 2, whole.count - 2, whole.count - 1] {
            try expectSameAsData(whole.prefix(cut), options: Self.options(PixelSize(width: 120, height: 120)), "cut-\(cut).jpg")
        }
    }

    @Test("corrupt files give what their bytes give", arguments: [false, true])
    func corruptFiles(progressive: Bool) throws {
        let whole = try (progressive ? Self.progressive : Self.baseline).get()
        for (at, length) in [(2, 4), (30, 40), (whole.count / 3, 2000), (whole.count - 300, 100)] {
            var data = whole
            for index in at..<min(data.count, at + length) { data[index] = UInt8(truncatingIfNeeded: index &* 131 ^ 0x5A) }
            try expectSameAsData(data, options: Self.options(nil), "corrupt-\(at).jpg")
        }
    }

    func error(_ body: () throws -> WebImage) -> WebImageError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? WebImageError
        }
    }

    @Test func badURLsAndFiles() throws {
        let options = Self.options(nil)
        #expect(error { try JPEGCoder().decode(contentsOf: URL(string: "https://example.com/a.jpg")!, options: options) }?.code == .unsupportedURL)
        #expect(error { try JPEGCoder().decode(contentsOf: directory.appendingPathComponent("missing.jpg"), options: options) }?.code == .invalidURL)
        #expect(error { try JPEGCoder().decode(contentsOf: directory, options: options) }?.code == .invalidURL)
        let text = try write(Data("not a jpeg at all".utf8), "text.jpg")
        let notJPEG = error { try JPEGCoder().decode(contentsOf: text, options: options) }
        #expect(notJPEG?.code == .badImageData)
        #expect(notJPEG?.message.contains(text.path) == true, "\(String(describing: notJPEG))")
    }

    @Test("a file that shrinks or grows after it is opened decodes as data cut short, or as it was")
    func fileChangesWhileRead() throws {
        let whole = try Self.baseline.get()
        let options = Self.options(PixelSize(width: 120, height: 120))
        let url = try write(whole, "changing.jpg")
        // Shrinks: read as the bytes that are left.
        let shrinking = try FileBytes(url: url)
        try whole.prefix(whole.count / 2).writeWithoutSync(to: url)
        let cut = try JPEGDecoding.decode(shrinking, options: options)
        let expected = try JPEGCoder().decode(whole.prefix(whole.count / 2), options: options)
        #expect(cut.bitmap == expected.bitmap)
        #expect(cut.metadata.contains(.incremental))
        // Empty after it was opened: an error naming the file, no crash.
        let emptied = try FileBytes(url: url)
        try Data().writeWithoutSync(to: url)
        #expect(throws: WebImageError.self) { try JPEGDecoding.decode(emptied, options: options) }
        // Grows: read up to the size it had when it was opened.
        try whole.writeWithoutSync(to: url)
        let growing = try FileBytes(url: url)
        try (whole + Data(repeating: 0xFF, count: 100_000)).writeWithoutSync(to: url)
        let grown = try JPEGDecoding.decode(growing, options: options)
        #expect(grown.bitmap == (try JPEGCoder().decode(whole, options: options)).bitmap)
    }

    @Test("the walk over a file's windows finds what the walk over its bytes finds")
    func walkOverWindows() throws {
        let data = try Self.progressive.get()
        let file = try FileBytes(url: write(data, "walk.jpg"))
        let fromFile = JPEGMarkerWalk.walk(FilePrefix(file: file, count: file.count), scans: true)
        let fromData = data.withUnsafeBytes { JPEGMarkerWalk.walk($0, scans: true) }
        #expect(fromFile.scans == fromData.scans && fromFile.scans > 1)
        #expect(fromFile.blockVisits == fromData.blockVisits)
        let cut = data.prefix(data.count / 2)
        let offset = cut.withUnsafeBytes { JPEGDecoding.lastMarkerOffset($0) }
        #expect(offset != nil)
        #expect(offset == JPEGDecoding.lastMarkerOffset(FilePrefix(file: file, count: cut.count)))
    }
}
