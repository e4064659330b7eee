import Foundation
import PhotosLoader
import SwiftWebImage
import Testing
import WebImageTestSupport

/// `PhotosLoader` on the standard library: URLs, decoding, data, errors and the blocking decision.
@Suite(.onOwnThreads) struct LoaderTests {
    let folder: TemporaryLibrary
    let library: PhotoLibrary
    let loader: PhotosLoader

    init() async throws {
        folder = try TemporaryLibrary()
        try StandardLibrary.populate(folder)
        library = folder.library()
        try await library.rescan()
        loader = PhotosLoader(library: library)
    }

    func asset(_ path: String) throws -> PhotoAsset {
        try #require(library.asset(atRelativePath: path))
    }

    @Test(arguments: [
        ("photos://asset/0123456789abcdef0123456789abcdef", true),
        ("PHOTOS://album/x/1", true),
        ("photos://anything", true),
        ("http://example.com/a.jpg", false),
        ("https://example.com/a.jpg", false),
        ("file:///tmp/a.jpg", false),
        ("data:image/png;base64,AAAA", false),
        ("ph://asset/1", false),
    ])
    func claimsOnlyThePhotosScheme(url: String, claimed: Bool) throws {
        #expect(loader.canRequestImage(for: try #require(URL(string: url))) == claimed)
    }

    @Test func everyAssetLoadsAsItsCodersDecodeIt() async throws {
        for asset in library.assets {
            let result = try await loader.requestImage(with: asset.url)
            let image = try #require(result.image)
            let file = try folder.data(asset.relativePath)
            let expected = try CodersManager.shared.decode(file)
            #expect(image.bitmap == expected.bitmap, "\(asset.relativePath)")
            #expect(image.pixelSize == asset.pixelSize)
            #expect(image.format == asset.format)
            #expect(result.data == file)
        }
        let gif = try #require(try await loader.requestImage(with: try asset("2023/anim.gif").url).image)
        #expect(gif.frameCount == 3)
        let tree = try #require(try await loader.requestImage(with: try asset("2022/Winter/tree.jpg").url).image)
        #expect(tree.metadata.contains(.orientationApplied) && tree.pixelSize == PixelSize(width: 300, height: 400))
        #expect(loader.statistics.fileLoads == 8)
    }

    @Test func albumURLsLoadTheAssetAtTheirPosition() async throws {
        let album = try #require(library.albums.first { $0.name == "2022/Winter" })
        let url = album.url(at: 1)
        #expect(url.absoluteString == "photos://album/2022/Winter/1")
        let image = try #require(try await loader.requestImage(with: url).image)
        #expect(image.pixelSize == PixelSize(width: 300, height: 400), "tree.jpg, the second by name")
        let rootURL = try #require(URL(string: "photos://album/0"))
        let root = try #require(try await loader.requestImage(with: rootURL).image)
        #expect(root.pixelSize == PixelSize(width: 640, height: 480), "the root album's first asset: beach.jpg")
    }

    @Test func reportsTheBytesReadAsProgress() async throws {
        let events = CallRecorder<Int64>()
        let beach = try asset("beach.jpg")
        _ = try await loader.requestImage(with: beach.url, options: [], context: WebImageContext()) { event in
            if case .progress(let received, let expected) = event, received == expected { events.record(received) }
        }
        #expect(events.all == [beach.fileSize])
    }

    @Test func avoidDecodeImageDeliversTheFileOnly() async throws {
        let beach = try asset("beach.jpg")
        let result = try await loader.requestImage(with: beach.url, options: [.avoidDecodeImage], context: WebImageContext(), progress: nil)
        #expect(result.image == nil)
        #expect(result.data == (try folder.data("beach.jpg")))
        #expect(loader.statistics.dataOnlyLoads == 1 && loader.statistics.fileLoads == 0)
    }

    @Test func theContextsCoderWinsForTheWholeFile() async throws {
        let coder = MockImageCoder(name: "context", magic: [0x89, 0x50, 0x4E, 0x47], format: .png)
        var context = WebImageContext()
        context.imageCoder = coder
        let image = try #require(try await loader.requestImage(with: try asset("2023/Summer/sunset.png").url, options: [], context: context, progress: nil).image)
        #expect(MockImageCoder.decoderName(of: image) == "context")
        #expect(coder.decodeCount == 1)
    }

    @Test func theLoadersOwnCodersDecodeWhenTheContextHasNone() async throws {
        let coder = MockImageCoder(name: "other", magic: [0x89, 0x50, 0x4E, 0x47], format: .png)
        let jpeg = MockImageCoder(name: "jpeg", magic: [0xFF, 0xD8, 0xFF], format: .jpeg)
        let custom = PhotosLoader(library: library, coder: coder, jpegCoder: jpeg)
        let png = try #require(try await custom.requestImage(with: try asset("2023/Summer/sunset.png").url).image)
        let jpg = try #require(try await custom.requestImage(with: try asset("2022/Winter/snow.jpg").url).image)
        #expect(MockImageCoder.decoderName(of: png) == "other")
        #expect(MockImageCoder.decoderName(of: jpg) == "jpeg")
    }

    @Test func unknownAssetsFailClearlyAndAreNotBlocked() async throws {
        let unknown = PhotosURL.asset(identifier: String(repeating: "ab", count: 16)).url
        let error = try await #require(throws: WebImageError.self) { try await loader.requestImage(with: unknown) }
        #expect(error.code == .photoAssetNotFound)
        #expect(error.message.contains(String(repeating: "ab", count: 16)) && error.message.contains("rescan"), "\(error.message)")
        #expect(error.url == unknown)
        #expect(!loader.shouldBlockFailedURL(unknown, error: error), "it may appear after a rescan")

        let outOfRange = try #require(URL(string: "photos://album/2023/Summer/5"))
        let albumError = try await #require(throws: WebImageError.self) { try await loader.requestImage(with: outOfRange) }
        #expect(albumError.code == .photoAssetNotFound)
        #expect(albumError.message.contains("index 5 of album \"2023/Summer\"") && albumError.message.contains("has 2"), "\(albumError.message)")
        #expect(!loader.shouldBlockFailedURL(outOfRange, error: albumError))
    }

    @Test(arguments: [
        "photos://asset/1234",
        "photos://asset/0123456789abcdef0123456789abcdeg",
        "photos://asset/0123456789abcdef0123456789abcdef/extra",
        "photos://album/Summer/x",
        "photos://album/Summer/-1",
        "photos://album/../0",
        "photos://album",
        "photos://video/1",
        "photos://asset/0123456789abcdef0123456789abcdef?size=big",
    ])
    func malformedURLsAreInvalidAndBlocked(text: String) async throws {
        let url = try #require(URL(string: text))
        let error = try await #require(throws: WebImageError.self) { try await loader.requestImage(with: url) }
        #expect(error.code == .invalidURL, "\(error)")
        #expect(error.message.contains(text), "\(error.message)")
        #expect(loader.shouldBlockFailedURL(url, error: error))
    }

    @Test func aFileDeletedOrChangedSinceTheScanIsReportedAsSuch() async throws {
        let snow = try asset("2022/Winter/snow.jpg")
        try folder.remove(snow.relativePath)
        let gone = try await #require(throws: WebImageError.self) { try await loader.requestImage(with: snow.url) }
        #expect(gone.code == .photoAssetNotFound && gone.message.contains("no longer exists"), "\(gone.message)")
        #expect(!loader.shouldBlockFailedURL(snow.url, error: gone))

        let sunset = try asset("2023/Summer/sunset.png")
        try folder.write(Fixtures.png(width: 5, height: 5), to: sunset.relativePath)
        let changed = try await #require(throws: WebImageError.self) { try await loader.requestImage(with: sunset.url) }
        #expect(changed.code == .photoAssetNotFound && changed.message.contains("changed since the last scan"), "\(changed.message)")
    }

    @Test func undecodableDataNamesTheAssetAndBlocksItsURL() async throws {
        // A PNG whose header reads (so it is indexed) but whose image data is garbage.
        var png = Array(try Fixtures.png(width: 16, height: 16))
        for index in 41..<(png.count - 16) { png[index] = UInt8(truncatingIfNeeded: index &* 37) }
        try folder.write(Data(png), to: "bad/garbage.png")
        try await library.rescan()
        let bad = try asset("bad/garbage.png")
        let error = try await #require(throws: WebImageError.self) { try await loader.requestImage(with: bad.url) }
        #expect(error.code == .badImageData, "\(error)")
        #expect(error.message.contains(bad.identifier) && error.message.contains("bad/garbage.png"), "\(error.message)")
        #expect(loader.shouldBlockFailedURL(bad.url, error: error), "an identifier names fixed contents: it will fail again")
        let albumURL = try #require(URL(string: "photos://album/bad/0"))
        #expect(!loader.shouldBlockFailedURL(albumURL, error: error), "album URLs are positional")
        #expect(!loader.shouldBlockFailedURL(bad.url, error: WebImageError.cancelled()))
    }

    @Test func filesOverTheSizeLimitAreRefusedBeforeReading() async throws {
        let small = PhotosLoader(library: library, maximumFileSize: 100)
        let error = try await #require(throws: WebImageError.self) { try await small.requestImage(with: try asset("beach.jpg").url) }
        #expect(error.code == .invalidDownloadResponse && error.message.contains("over the limit of 100"), "\(error.message)")
        #expect(small.statistics.bytesRead == 0)
    }

    @Test func aCancelledTaskFailsWithCancelled() async throws {
        let beach = try asset("beach.jpg")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await loader.requestImage(with: beach.url)
        }
        let error = try await #require(throws: WebImageError.self) { try await task.value }
        #expect(error.code == .cancelled)
        #expect(!loader.shouldBlockFailedURL(beach.url, error: error))
    }
}

@Suite struct PhotosURLTests {
    @Test(arguments: [
        (PhotosURL.asset(identifier: "0123456789abcdef0123456789abcdef"), "photos://asset/0123456789abcdef0123456789abcdef"),
        (PhotosURL.album(name: "2023/Summer", index: 3), "photos://album/2023/Summer/3"),
        (PhotosURL.album(name: "My Trip/Día 1", index: 0), "photos://album/My%20Trip/D%C3%ADa%201/0"),
        (PhotosURL.album(name: "", index: 7), "photos://album/7"),
        (PhotosURL.album(name: "100%?#", index: 1), "photos://album/100%25%3F%23/1"),
    ])
    func roundTrips(address: PhotosURL, text: String) throws {
        #expect(address.url.absoluteString == text)
        #expect(try PhotosURL(address.url) == address)
    }

    @Test func identifiersAreCaseInsensitive() throws {
        let url = try #require(URL(string: "photos://ASSET/0123456789ABCDEF0123456789ABCDEF"))
        #expect(try PhotosURL(url) == .asset(identifier: "0123456789abcdef0123456789abcdef"))
    }
}
