public import Foundation
import Dispatch
public import SwiftWebImage
public import WebImageCore

/// Loads images of a ``PhotoLibrary`` addressed by `photos://` URLs (see ``PhotosURL``): the
/// counterpart of SDWebImage's Photos plug-in, for a photo library that is a folder tree.
///
/// ```swift
/// let library = PhotoLibrary(rootURL: URL(fileURLWithPath: "/srv/photos"))
/// try await library.rescan()
/// LoadersManager.shared.add(PhotosLoader(library: library))   // photos:// now loads; http(s) still downloads
///
/// let result = try await ImageManager.shared.loadImage(
///     with: library.assets.first!.url, options: .photosLibrary,
///     context: .photosLibrary(thumbnailPixelSize: PixelSize(width: 160, height: 120)))
/// ```
///
/// **Use `fromLoaderOnly` and no cache store.** As SDWebImage recommends for its Photos loader:
/// the library is already on local disk, so querying a cache first and storing a second copy of
/// each photo on the disk cache costs more than it saves. Pass ``WebImageCore/WebImageOptions/photosLibrary``
/// (`fromLoaderOnly`) and ``WebImageCore/WebImageContext/photosLibrary(thumbnailPixelSize:)``
/// (`storeCacheType` and `originalStoreCacheType` `.none`) per request, or set ``PhotosOptionsProcessor`` as the manager's
/// options processor to apply both to every `photos://` request. (If an app shows the same
/// full-size photo again and again, keeping `storeCacheType = .memory` without `fromLoaderOnly`
/// trades memory for decoding time; the disk cache never helps.)
///
/// **Thumbnails, the fastest honest path.** With the context's `imageThumbnailPixelSize` (or a
/// scale-down limit):
/// 1. JPEG with an EXIF thumbnail that covers the requested size and has the photo's aspect
///    ratio: only the thumbnail's bytes are read (a few kilobytes at a known offset) and decoded;
///    the main image is neither read nor decoded. Oriented like the photo, resampled to exactly
///    the size a full decode would give, marked ``/WebImageCore/ImageMetadata/thumbnail``. The
///    result carries no `data` (the thumbnail's pixels match no file).
/// 2. Other JPEGs: the whole file is decoded by ``jpegCoder`` (default `JPEGCoder`, whose DCT
///    scaling decodes at 1/2, 1/4 or 1/8 size before the final Lanczos resample: no full-size
///    bitmap is made).
/// 3. Other formats: decoded by ``coder`` (default `CodersManager.shared`).
/// The context's `imageCoder`, when set, replaces the coder of steps 2 and 3 (the embedded
/// thumbnail is always decoded by `JPEGCoder`). ``statistics`` counts which path served each load.
///
/// **Errors.** An unknown identifier, an album index out of range, or an asset whose file is gone
/// or changed since the last scan fails with ``WebImageCore/WebImageError/Code/photoAssetNotFound``;
/// such failures never block the URL (see ``shouldBlockFailedURL(_:error:)``). A malformed URL
/// fails with `invalidURL`, undecodable data with the coder's error (`badImageData`,
/// `unsupportedFormat`, ...), each naming the asset and its file.
///
/// Thread-safety: every method may be called from any thread. Files are read and decoded on
/// ``/WebImageCore/BlockingWorkExecutor/processing`` through the shared decode stage
/// (``/WebImageCore/ImageDecodeRequest``), never on the caller's thread.
public final class PhotosLoader: ImageLoader {
    /// Which path served the loads so far.
    public struct Statistics: Sendable, Equatable {
        /// Loads served from an EXIF thumbnail: the main image was not read or decoded.
        public var embeddedThumbnailLoads = 0
        /// Loads that read and decoded the whole file (DCT-scaled for JPEG thumbnails).
        public var fileLoads = 0
        /// Loads with `avoidDecodeImage`: the file's data, not decoded.
        public var dataOnlyLoads = 0
        /// Bytes read from image files by all loads.
        public var bytesRead: Int64 = 0

        /// Counters with the given values.
        public init(embeddedThumbnailLoads: Int = 0, fileLoads: Int = 0, dataOnlyLoads: Int = 0, bytesRead: Int64 = 0) {
            self.embeddedThumbnailLoads = embeddedThumbnailLoads
            self.fileLoads = fileLoads
            self.dataOnlyLoads = dataOnlyLoads
            self.bytesRead = bytesRead
        }
    }

    /// The library whose assets this loader serves.
    public let library: PhotoLibrary
    /// Decodes formats other than JPEG when the context gives no coder.
    public let coder: any ImageCoder
    /// Decodes whole JPEG files when the context gives no coder.
    public let jpegCoder: any ImageCoder
    /// Whether EXIF thumbnails may serve thumbnail requests (default `true`).
    public let usesEmbeddedThumbnails: Bool
    /// The largest file the loader reads, in bytes (default 100 MiB, as `FileLoader`).
    public let maximumFileSize: Int
    private let counters = Locked(Statistics())

    /// A loader for `library`.
    /// - Parameters:
    ///   - library: The library to serve (scan it before the first request).
    ///   - coder: Decodes non-JPEG files (default `CodersManager.shared`).
    ///   - jpegCoder: Decodes whole JPEG files (default `JPEGCoder()`: DCT-scaled thumbnails).
    ///   - usesEmbeddedThumbnails: Serve thumbnail requests from EXIF thumbnails when they are
    ///     large enough (default `true`).
    ///   - maximumFileSize: The largest file read, in bytes (default 100 MiB).
    public init(
        library: PhotoLibrary,
        coder: any ImageCoder = CodersManager.shared,
        jpegCoder: any ImageCoder = JPEGCoder(),
        usesEmbeddedThumbnails: Bool = true,
        maximumFileSize: Int = 100 * 1024 * 1024
    ) {
        self.library = library
        self.coder = coder
        self.jpegCoder = jpegCoder
        self.usesEmbeddedThumbnails = usesEmbeddedThumbnails
        self.maximumFileSize = maximumFileSize
    }

    /// Which path served the loads so far.
    public var statistics: Statistics {
        counters.withLock { $0 }
    }

    /// `true` for `photos://` URLs (any host: a malformed one fails in the request with a clear
    /// `invalidURL` error rather than as "no loader").
    public func canRequestImage(for url: URL) -> Bool {
        PhotosURL.isPhotosURL(url)
    }

    /// Loads the asset `url` names. Sends one progress event (the bytes read) before returning;
    /// never partial images.
    /// - Throws: ``WebImageCore/WebImageError``: `invalidURL` (malformed), `photoAssetNotFound`
    ///   (unknown, gone or changed since the last scan), `invalidDownloadResponse` (larger than
    ///   ``maximumFileSize``), `loaderFailed` (a read error), the coder's error, `cancelled`.
    public func requestImage(with url: URL, options: WebImageOptions, context: WebImageContext, progress: ImageLoaderProgressHandler?) async throws -> ImageLoaderResult {
        let asset = try resolve(url)
        guard !Task.isCancelled else {
            throw WebImageError.cancelled("Operation cancelled by user before reading asset \(asset.identifier)", url: url)
        }
        let output: LoadOutput
        do {
            output = try await BlockingWorkExecutor.processing.run { try self.load(asset, url: url, options: options, context: context) }
        } catch is CancellationError {
            throw WebImageError.cancelled("Operation cancelled by user before reading asset \(asset.identifier)", url: url)
        }
        guard !Task.isCancelled else {
            throw WebImageError.cancelled("Operation cancelled by user while loading asset \(asset.identifier)", url: url)
        }
        progress?(.progress(receivedBytes: output.bytesRead, expectedBytes: output.bytesRead))
        return ImageLoaderResult(image: output.image, data: output.data)
    }

    /// Whether a failure blocks `url` until `retryFailed`.
    ///
    /// Decision: never for ``WebImageCore/WebImageError/Code/photoAssetNotFound`` (an asset
    /// unknown now may appear after the next rescan: the next request should simply work), for
    /// `loaderFailed` (a read error may pass), for album URLs (positional: the asset behind them
    /// changes with the folder), or for cancellations. Otherwise yes: an asset identifier names
    /// fixed contents, so data that failed to decode will fail again, and a malformed URL stays
    /// malformed.
    public func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool {
        if WebImageError.isTransientLoadError(error) { return false }
        if let error = error as? WebImageError, error.code == .photoAssetNotFound || error.code == .loaderFailed { return false }
        if case .album? = try? PhotosURL(url) { return false }
        return true
    }

    // MARK: Loading

    /// The asset `url` names in the library's current index.
    func resolve(_ url: URL) throws -> PhotoAsset {
        switch try PhotosURL(url) {
        case .asset(let identifier):
            guard let asset = library.asset(withIdentifier: identifier) else {
                throw WebImageError(.photoAssetNotFound, "No asset \(identifier) in the photo library at \(library.rootPath) (\(library.assetCount) assets; rescan if the file was added since)", url: url)
            }
            return asset
        case .album(let name, let index):
            guard let asset = library.asset(inAlbum: name, at: index) else {
                let count = library.assets(inAlbum: name).count
                throw WebImageError(.photoAssetNotFound, "No asset at index \(index) of album \"\(name)\" in the photo library at \(library.rootPath) (the album has \(count))", url: url)
            }
            return asset
        }
    }

    struct LoadOutput: Sendable {
        var image: WebImage?
        var data: Data?
        var bytesRead: Int64
    }

    /// Reads and decodes `asset` (on the processing executor).
    private func load(_ asset: PhotoAsset, url: URL, options: WebImageOptions, context: WebImageContext) throws -> LoadOutput {
        let path = library.path(of: asset)
        let name = "asset \(asset.identifier) (\(asset.relativePath))"
        let reader: FileReader
        do {
            reader = try FileReader(path: path)
            let stamp = try reader.stamp()
            guard stamp == asset.stamp else {
                throw WebImageError(.photoAssetNotFound, "The file of \(name) changed since the last scan (size \(asset.stamp.size) -> \(stamp.size) bytes, or its date); rescan the library", url: url)
            }
        } catch let error as SystemCallError {
            if error.isNotFound {
                throw WebImageError(.photoAssetNotFound, "The file of \(name) no longer exists (\(path)); rescan the library", underlyingError: error, url: url)
            }
            throw WebImageError(.loaderFailed, "Cannot open the file of \(name): \(error)", underlyingError: error, url: url)
        }

        if options.contains(.avoidDecodeImage) {
            let data = try readAll(reader, asset: asset, name: name, url: url)
            counters.withLock { $0.dataOnlyLoads += 1; $0.bytesRead += Int64(data.count) }
            return LoadOutput(image: nil, data: data, bytesRead: Int64(data.count))
        }

        // The shared decode stage; JPEG files go to the plug-in's JPEG coder unless the context names one.
        let stage = ImageDecodeRequest(url: url, options: options, context: context, defaultCoder: asset.format == .jpeg ? jpegCoder : coder,
                                       fileExtensionHint: context.imageDecodeOptions?.fileExtensionHint ?? asset.format.fileExtension)
        let decodeOptions = stage.decodeOptions

        if usesEmbeddedThumbnails, let thumbnail = asset.embeddedThumbnail,
           let target = EmbeddedThumbnailDecoding.target(for: asset, options: decodeOptions),
           let bytes = try? reader.read(at: thumbnail.fileOffset, count: thumbnail.byteCount), bytes.count == thumbnail.byteCount,
           let image = try? EmbeddedThumbnailDecoding.decode(bytes, orientation: asset.orientation ?? 1, target: target, options: decodeOptions) {
            counters.withLock { $0.embeddedThumbnailLoads += 1; $0.bytesRead += Int64(bytes.count) }
            return LoadOutput(image: image, data: nil, bytesRead: Int64(bytes.count))
        }
        // Otherwise (no usable thumbnail, or one that fails to decode): the whole file.
        let data = try readAll(reader, asset: asset, name: name, url: url)
        counters.withLock { $0.fileLoads += 1; $0.bytesRead += Int64(data.count) }
        let image: WebImage?
        do {
            image = try stage.decodeLoadedData(data)
        } catch var error as WebImageError {
            error.message = "Cannot decode \(name): \(error.message)"
            throw error
        }
        return LoadOutput(image: image, data: data, bytesRead: Int64(data.count))
    }

    private func readAll(_ reader: FileReader, asset: PhotoAsset, name: String, url: URL) throws -> Data {
        guard asset.fileSize <= Int64(maximumFileSize) else {
            throw WebImageError(.invalidDownloadResponse, "The file of \(name) has \(asset.fileSize) bytes, over the limit of \(maximumFileSize)", url: url)
        }
        let data: Data
        do {
            data = try reader.readData(at: 0, count: Int(asset.fileSize))
        } catch {
            throw WebImageError(.loaderFailed, "Cannot read the file of \(name): \(error)", underlyingError: error as? SystemCallError, url: url)
        }
        guard data.count == Int(asset.fileSize) else {
            throw WebImageError(.photoAssetNotFound, "The file of \(name) shrank to \(data.count) bytes while being read; rescan the library", url: url)
        }
        return data
    }
}
