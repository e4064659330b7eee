import Foundation
import PhotosLoader
import SwiftWebImage
import Testing
import WebImageTestSupport

/// The index: what a scan records for each file, what it leaves out and why, albums, listings.
@Suite(.onOwnThreads) struct LibraryScanTests {
    let folder: TemporaryLibrary
    let library: PhotoLibrary

    init() throws {
        folder = try TemporaryLibrary()
        try StandardLibrary.populate(folder)
        library = folder.library()
    }

    @Test func firstScanIndexesEveryImageAndReadsEachFileOnce() async throws {
        #expect(library.assets.isEmpty, "a library is empty until its first scan")
        let changes = try await library.rescan()
        #expect(library.assets.map(\.relativePath) == StandardLibrary.assetPaths)
        #expect(changes.added.map(\.relativePath) == StandardLibrary.assetPaths)
        #expect(changes.removed.isEmpty && changes.moved.isEmpty && changes.updated.isEmpty)
        // 6 images + 3 skipped files were opened; hidden files were not even listed.
        #expect(changes.filesRead == 9)
        #expect(library.statistics == PhotoLibrary.Statistics(scanCount: 1, filesRead: 9))
        for asset in library.assets {
            #expect(asset.identifier.count == 32 && asset.identifier.allSatisfy(\.isHexDigit), "\(asset.identifier)")
            #expect(asset.url.absoluteString == "photos://asset/\(asset.identifier)")
            #expect(library.asset(withIdentifier: asset.identifier) == asset)
            #expect(library.asset(withIdentifier: asset.identifier.uppercased()) == asset)
            #expect(library.asset(atRelativePath: asset.relativePath) == asset)
        }
        #expect(Set(library.assets.map(\.identifier)).count == 6)
    }

    @Test func assetsCarryFormatSizeDatesOrientationAndThumbnailFromTheHeaders() async throws {
        try await library.rescan()
        let utc = TimeZone(identifier: "UTC")!
        func date(_ text: String) -> Date {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = utc
            return formatter.date(from: text)!
        }
        let beach = try #require(library.asset(atRelativePath: "beach.jpg"))
        #expect(beach.format == .jpeg)
        #expect(beach.pixelSize == PixelSize(width: 640, height: 480))
        #expect(beach.orientation == 1)
        #expect(beach.captureDate == date("2023-07-14T07:30:00Z"), "09:30 at +02:00")
        #expect(beach.date == beach.captureDate)
        let thumbnail = try #require(beach.embeddedThumbnail)
        #expect(thumbnail.pixelSize == PixelSize(width: 160, height: 120))
        #expect(thumbnail.byteCount == StandardLibrary.beachThumbnail.count)
        let fileBytes = try folder.data("beach.jpg")
        #expect(Array(fileBytes[thumbnail.fileOffset..<(thumbnail.fileOffset + thumbnail.byteCount)]) == StandardLibrary.beachThumbnail)
        #expect(beach.album == "" && beach.fileName == "beach.jpg")
        #expect(beach.fileSize == Int64(fileBytes.count))

        let tree = try #require(library.asset(atRelativePath: "2022/Winter/tree.jpg"))
        #expect(tree.pixelSize == PixelSize(width: 300, height: 400), "stored 400x300, orientation 6 turns it upright")
        #expect(tree.orientation == 6)
        #expect(tree.captureDate == date("2022-12-24T18:00:00Z"), "no offset: the library's zone (UTC here)")
        #expect(tree.embeddedThumbnail == nil)
        #expect(tree.album == "2022/Winter")

        let snow = try #require(library.asset(atRelativePath: "2022/Winter/snow.jpg"))
        #expect(snow.pixelSize == PixelSize(width: 320, height: 200))
        #expect(snow.orientation == nil && snow.captureDate == nil && snow.embeddedThumbnail == nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.url("2022/Winter/snow.jpg").path)
        let modified = try #require(attributes[.modificationDate] as? Date)
        #expect(abs(snow.fileDate.timeIntervalSince(modified)) < 0.001)
        #expect(snow.date == snow.fileDate, "no capture date: the file date")

        let disguised = try #require(library.asset(atRelativePath: "2023/Summer/actually-png.jpg"))
        #expect(disguised.format == .png, "the format comes from the magic bytes, not the extension")
        #expect(disguised.pixelSize == PixelSize(width: 30, height: 20))
        #expect(library.asset(atRelativePath: "2023/Summer/sunset.png")?.pixelSize == PixelSize(width: 64, height: 48))
        let gif = try #require(library.asset(atRelativePath: "2023/anim.gif"))
        #expect(gif.format == .gif && gif.pixelSize == PixelSize(width: 24, height: 16))
    }

    /// The index's size is what decoding gives: checked against the coders for every asset.
    @Test func indexedPixelSizeMatchesTheDecodedSize() async throws {
        try await library.rescan()
        for asset in library.assets {
            let decoded = try CodersManager.shared.decode(try folder.data(asset.relativePath))
            #expect(decoded.pixelSize == asset.pixelSize, "\(asset.relativePath)")
        }
    }

    @Test func nonImagesCorruptAndEmptyFilesAreSkippedWithAReason() async throws {
        let changes = try await library.rescan()
        let skipped = library.skippedFiles
        #expect(skipped.map(\.relativePath) == ["2023/Summer/broken.jpg", "2023/empty.png", "2023/notes.txt"])
        #expect(changes.skipped == skipped)
        let reasons = Dictionary(uniqueKeysWithValues: skipped.map { ($0.relativePath, $0.reason) })
        #expect(reasons["2023/notes.txt"]?.contains("not an image") == true)
        #expect(reasons["2023/empty.png"] == "empty file")
        let broken = try #require(reasons["2023/Summer/broken.jpg"])
        #expect(broken.contains("jpeg") && broken.contains("runs past the end"), "\(broken)")
        #expect(library.skippedFiles.first?.description.hasPrefix("2023/Summer/broken.jpg: ") == true)
        #expect(!library.assets.contains { $0.relativePath.contains(".hidden") || $0.relativePath.contains(".thumbs") })
    }

    @Test func hiddenFilesAreScannedWhenConfigured() async throws {
        let hidden = PhotoLibrary(rootURL: folder.root, configuration: PhotoLibrary.Configuration(includesHiddenFiles: true))
        try await hidden.rescan()
        #expect(hidden.asset(atRelativePath: ".hidden/secret.jpg") != nil)
        #expect(hidden.asset(atRelativePath: "2023/.thumbs.jpg") != nil)
    }

    @Test func albumsAreFoldersAndListByPath() async throws {
        try await library.rescan()
        #expect(library.albums.map(\.name) == ["", "2022/Winter", "2023", "2023/Summer"])
        #expect(library.albums.map(\.assetCount) == [1, 2, 1, 2])
        #expect(library.albums.map(\.title) == ["", "Winter", "2023", "Summer"])
        #expect(library.assets(inAlbum: "2022/Winter").map(\.fileName) == ["snow.jpg", "tree.jpg"])
        #expect(library.assets(inAlbum: "2023").map(\.fileName) == ["anim.gif"], "direct members only")
        #expect(library.assets(inAlbum: "2023", includingSubalbums: true).map(\.relativePath)
                == ["2023/Summer/actually-png.jpg", "2023/Summer/sunset.png", "2023/anim.gif"])
        #expect(library.assets(inAlbum: "", includingSubalbums: true).count == 6)
        #expect(library.assets(inAlbum: "2022").isEmpty, "a folder with only sub-folders is no album")
        #expect(library.assets(inAlbum: "nope").isEmpty)
        #expect(library.asset(inAlbum: "2022/Winter", at: 1)?.fileName == "tree.jpg")
        #expect(library.asset(inAlbum: "2022/Winter", at: 2) == nil)
        #expect(library.asset(inAlbum: "2022/Winter", at: -1) == nil)
    }

    @Test func listsByDateCaptureDateFirstThenFileDate() async throws {
        // File dates: fixed, so the order is known (capture dates win where present).
        let base = Date(timeIntervalSince1970: 1_600_000_000)  // 2020-09-13
        for (offset, path) in StandardLibrary.assetPaths.enumerated() {
            try folder.setModificationDate(base.addingTimeInterval(Double(offset) * 86_400), of: path)
        }
        try await library.rescan()
        let ordered = library.assetsByDate().map(\.relativePath)
        #expect(ordered == [
            "2022/Winter/snow.jpg",            // file date 2020-09-13
            "2023/Summer/actually-png.jpg",    // 2020-09-15
            "2023/Summer/sunset.png",          // 2020-09-16
            "2023/anim.gif",                   // 2020-09-17
            "2022/Winter/tree.jpg",            // captured 2022-12-24
            "beach.jpg",                       // captured 2023-07-14
        ])
        #expect(library.assetsByDate(ascending: false).map(\.relativePath) == ordered.reversed())
        let from = base.addingTimeInterval(86_400 * 2)
        let to = Date(timeIntervalSince1970: 1_680_000_000)  // 2023-03-28
        #expect(library.assets(from: from, to: to).map(\.relativePath) == Array(ordered[1...4]))
        #expect(library.assets(from: to, to: from).isEmpty)
    }

    @Test func aMissingRootFailsClearlyAndKeepsTheIndex() async throws {
        try await library.rescan()
        let missing = PhotoLibrary(rootURL: folder.url("does-not-exist"))
        let error = try await #require(throws: WebImageError.self) { try await missing.rescan() }
        #expect(error.code == .photoLibraryUnavailable)
        #expect(error.message.contains("does-not-exist"), "\(error.message)")

        let fileRoot = PhotoLibrary(rootURL: folder.url("beach.jpg"))
        let notFolder = try #require(throws: WebImageError.self) { try fileRoot.rescanSynchronously() }
        #expect(notFolder.code == .photoLibraryUnavailable && notFolder.message.contains("not a folder"))

        try FileManager.default.removeItem(at: folder.root)
        await #expect(throws: WebImageError.self) { try await library.rescan() }
        #expect(library.assetCount == 6, "a failed scan leaves the index as it was")
    }

    @Test func symbolicLinksAreNotFollowed() async throws {
        try FileManager.default.createSymbolicLink(at: folder.url("loop"), withDestinationURL: folder.root)
        try FileManager.default.createSymbolicLink(at: folder.url("link.jpg"), withDestinationURL: folder.url("beach.jpg"))
        try await library.rescan()
        #expect(library.assetCount == 6)
        let reasons = library.skippedFiles.filter { $0.reason.contains("symbolic link") }.map(\.relativePath)
        #expect(reasons == ["link.jpg", "loop"])
    }

    @Test func foldersDeeperThanTheLimitAreSkipped() async throws {
        try folder.write(Fixtures.jpeg(width: 8, height: 8), to: "a/b/c/deep.jpg")
        let shallow = PhotoLibrary(rootURL: folder.root, configuration: PhotoLibrary.Configuration(maximumDepth: 3))
        try await shallow.rescan()
        #expect(shallow.asset(atRelativePath: "a/b/c/deep.jpg") == nil)
        #expect(shallow.skippedFiles.contains { $0.relativePath == "a/b/c" && $0.reason.contains("deeper than") })
        #expect(shallow.asset(atRelativePath: "2022/Winter/tree.jpg") != nil)
    }
}
