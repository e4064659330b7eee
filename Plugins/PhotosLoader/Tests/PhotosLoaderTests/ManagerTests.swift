import Foundation
import PhotosLoader
import SwiftWebImage
import Testing
import WebImageTestSupport

/// Registered in the shared loaders manager, the plug-in makes `ImageManager.shared` load
/// `photos://` URLs while http(s) URLs still go to the downloader. Serialized: these tests change
/// the process-wide shared managers (and undo it).
@Suite(.serialized) struct SharedManagerTests {
    @Test func registeringTheLoaderRoutesPhotosURLsAndLeavesHTTPToTheDownloader() async throws {
        let folder = try TemporaryLibrary()
        try StandardLibrary.populate(folder)
        let library = folder.library()
        try await library.rescan()
        let beach = try #require(library.asset(atRelativePath: "beach.jpg"))
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let remote = try Fixtures.png(width: 20, height: 10)
        server.route("/remote.png", .data(remote, contentType: "image/png"))
        let httpURL = server.url(for: "/remote.png")
        defer {
            ImageManager.shared.removeFailedURL(beach.url)
        }

        // Before registration no loader claims photos:// (and the failure blocks the URL, as for
        // any unsupported URL).
        #expect(LoadersManager.shared.loader(for: beach.url) == nil)
        let before = try await #require(throws: WebImageError.self) {
            try await ImageManager.shared.loadImage(with: beach.url, options: .photosLibrary, context: .photosLibrary())
        }
        #expect(before.code == .unsupportedURL, "\(before)")

        let loader = PhotosLoader(library: library)
        LoadersManager.shared.add(loader)
        defer { LoadersManager.shared.remove(loader) }
        #expect(LoadersManager.shared.loader(for: beach.url) as AnyObject === loader)
        #expect(LoadersManager.shared.loader(for: httpURL) as AnyObject === Downloader.shared)

        let photo = try await ImageManager.shared.loadImage(with: beach.url, options: [.photosLibrary, .retryFailed], context: .photosLibrary())
        #expect(photo.image?.pixelSize == PixelSize(width: 640, height: 480))
        #expect(photo.cacheType == ImageCacheType.none)
        #expect(photo.data == (try folder.data("beach.jpg")))
        let thumbnail = try await ImageManager.shared.loadImage(
            with: beach.url, options: .photosLibrary, context: .photosLibrary(thumbnailPixelSize: PixelSize(width: 160, height: 120)))
        #expect(thumbnail.image?.pixelSize == PixelSize(width: 160, height: 120))
        let album = try await ImageManager.shared.loadImage(
            with: PhotosURL.album(name: "2022/Winter", index: 1).url, options: .photosLibrary, context: .photosLibrary())
        #expect(album.image?.pixelSize == PixelSize(width: 300, height: 400))
        let tree = try #require(library.asset(atRelativePath: "2022/Winter/tree.jpg"))
        let expectedBytes = beach.fileSize + Int64(StandardLibrary.beachThumbnail.count) + tree.fileSize
        #expect(loader.statistics == PhotosLoader.Statistics(embeddedThumbnailLoads: 1, fileLoads: 2, bytesRead: expectedBytes))

        // http still goes to the shared downloader, over the loopback server.
        var httpContext = WebImageContext()
        httpContext.storeCacheType = ImageCacheType.none
        let downloaded = try await ImageManager.shared.loadImage(with: httpURL, options: [.fromLoaderOnly], context: httpContext)
        #expect(downloaded.image?.pixelSize == PixelSize(width: 20, height: 10))
        #expect(downloaded.image?.format == .png)
        #expect(server.statistics(for: "/remote.png").requestCount == 1)
        #expect(loader.statistics.fileLoads == 2, "the photos loader saw no http request")

        LoadersManager.shared.remove(loader)
        #expect(LoadersManager.shared.loader(for: beach.url) == nil, "removed: back to no photos loader")
    }

    /// The blocking decision end to end: an unknown asset fails without blocking its URL, so the
    /// same URL simply works once a rescan has found the file.
    @Test func anUnknownAssetLoadsAfterTheRescanThatFindsItWithoutRetryFailed() async throws {
        let folder = try TemporaryLibrary()
        try folder.write(Fixtures.jpeg(width: 30, height: 20), to: "a.jpg")
        let library = folder.library()
        try await library.rescan()
        // Learn the identifier the new photo will have (identifiers come from contents).
        let elsewhere = try TemporaryLibrary()
        let newPhoto = try Fixtures.jpeg(width: 12, height: 34, color: Fixtures.green)
        try elsewhere.write(newPhoto, to: "new.jpg")
        let probe = elsewhere.library()
        try await probe.rescan()
        let url = try #require(probe.asset(atRelativePath: "new.jpg")).url

        let manager = ImageManager(cache: MockImageCache(), loader: LoadersManager([PhotosLoader(library: library)]))
        let missing = try await #require(throws: WebImageError.self) { try await manager.loadImage(with: url, options: .photosLibrary) }
        #expect(missing.code == .photoAssetNotFound)
        #expect(manager.failedURLs.isEmpty, "not blocked")

        try folder.write(newPhoto, to: "imports/new.jpg")
        try await library.rescan()
        let found = try await manager.loadImage(with: url, options: .photosLibrary)
        #expect(found.image?.pixelSize == PixelSize(width: 12, height: 34))
    }

    @Test func theOptionsProcessorAppliesTheRecommendationsToPhotosURLsOnly() async throws {
        let folder = try TemporaryLibrary()
        try folder.write(Fixtures.jpeg(width: 30, height: 20), to: "a.jpg")
        let library = folder.library()
        try await library.rescan()
        let photoURL = try #require(library.assets.first).url
        let otherURL = try #require(URL(string: "mock://images/x.png"))
        let cache = MockImageCache()
        let seen = CallRecorder<String>()
        let manager = ImageManager(cache: cache, loader: LoadersManager([MockImageLoader(schemes: ["mock"]), PhotosLoader(library: library)]))
        manager.optionsProcessor = PhotosOptionsProcessor(next: .closure { url, options, _ in
            seen.record("\(url.scheme ?? ""):\(options.contains(.fromLoaderOnly))")
            return nil
        })

        // waitStoreCache: the store (if any) has finished when the load returns.
        _ = try await manager.loadImage(with: photoURL, options: [.waitStoreCache])
        #expect(cache.queryCount == 0 && cache.storeCount == 0, "photos://: no cache query, no store")
        _ = try await manager.loadImage(with: otherURL, options: [.waitStoreCache])
        #expect(cache.queryCount == 1 && cache.storeCount == 1, "other URLs as before")
        #expect(seen.all == ["photos:true", "mock:false"], "the next processor sees both, after this one")
        // A thumbnail (decoded from the whole file: this JPEG has no EXIF thumbnail) stores no
        // full-size original either.
        let thumbnail = try await manager.loadImage(with: photoURL, options: [.waitStoreCache], context: WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 6, height: 6) })
        #expect(thumbnail.image?.pixelSize == PixelSize(width: 6, height: 4))
        #expect(cache.storeCount == 1, "no store of the photo's original")
        #expect(WebImageContext.photosLibrary(thumbnailPixelSize: PixelSize(width: 6, height: 6)).originalStoreCacheType == ImageCacheType.none)

        // A store type set by the request is kept (a memory-only store, say).
        var context = WebImageContext()
        context.storeCacheType = .memory
        let processed = try #require(PhotosOptionsProcessor().processedOptions(for: photoURL, options: [], context: context))
        #expect(processed.context.storeCacheType == .memory)
        #expect(processed.options.contains(.fromLoaderOnly))
        #expect(PhotosOptionsProcessor().processedOptions(for: otherURL, options: [], context: context) == nil)
    }
}
