public import Foundation
import Dispatch
import WebImageCore

/// A local photo library: a folder tree of photos (like `~/Pictures`, or the import folder of a
/// self-hosted gallery) indexed into assets with stable identifiers, served to SwiftWebImage by
/// ``PhotosLoader`` as `photos://asset/<identifier>` and `photos://album/<name>/<index>`.
///
/// ```swift
/// let library = PhotoLibrary(rootURL: URL(fileURLWithPath: "/srv/photos"))
/// try await library.rescan()                 // the first scan reads every image's header
/// LoadersManager.shared.add(PhotosLoader(library: library))
/// for asset in library.assets(inAlbum: "2023/Summer") { show(asset.url) }
/// try await library.rescan()                 // later: reads only new and changed files
/// ```
///
/// **The index.** Every regular file under the root whose magic bytes say JPEG, PNG, GIF, BMP or
/// WebP becomes a ``PhotoAsset``: its stable identifier (derived from its contents; see
/// ``PhotoAsset``), relative path, format, pixel size read from the header (no pixel is decoded),
/// file date, and for JPEG the EXIF capture date, orientation and embedded thumbnail. Other
/// files are left out and listed in ``skippedFiles`` with the reason: not an image, a corrupt or
/// truncated header, a format whose header the index does not read (HEIC, AVIF, TIFF, ...), a
/// symbolic link (never followed, so a link cannot loop or leave the root). Hidden entries
/// (names starting with `.`) are ignored unless ``Configuration/includesHiddenFiles``.
///
/// **Albums** are folders: the album of an asset is the folder that holds it (`""` for the root).
///
/// **Incremental rescans.** A rescan lists the tree and compares each file's size and
/// modification time (to the nanosecond) with the previous scan: only new and changed files are
/// opened; unchanged ones are not read at all (``PhotoLibraryChanges/filesRead`` counts the
/// reads). A tool that rewrites a file keeping both its size and its modification time defeats
/// this check; `rescan(force: true)` reads every file again.
///
/// The index lives in memory; it is not saved. Because identifiers come from the contents, a new
/// process that scans the same folder gets the same identifiers (the first scan reads each file's
/// first and last 64 KiB).
///
/// Thread-safety: every method may be called from any thread. Scans run one at a time on the
/// library's own queue; queries read the index of the last finished scan and never wait for a
/// running scan.
public final class PhotoLibrary: Sendable {
    /// How a library scans.
    public struct Configuration: Sendable {
        /// The zone of EXIF DateTimeOriginal values that carry no OffsetTimeOriginal (cameras
        /// record local time). Default: the process's current zone.
        public var captureTimeZone: TimeZone
        /// Whether files and folders whose names start with `.` are scanned (default `false`).
        public var includesHiddenFiles: Bool
        /// How many folders deep the scan goes (default 64); deeper folders are skipped with a
        /// reason.
        public var maximumDepth: Int

        /// A configuration.
        /// - Parameters:
        ///   - captureTimeZone: The zone of capture dates without an offset (default: current).
        ///   - includesHiddenFiles: Scan names starting with `.` (default `false`).
        ///   - maximumDepth: The deepest folder level scanned (default 64).
        public init(captureTimeZone: TimeZone = .current, includesHiddenFiles: Bool = false, maximumDepth: Int = 64) {
            self.captureTimeZone = captureTimeZone
            self.includesHiddenFiles = includesHiddenFiles
            self.maximumDepth = maximumDepth
        }
    }

    /// Counters over the library's life.
    public struct Statistics: Sendable, Equatable {
        /// Scans finished.
        public var scanCount = 0
        /// Files opened and read by all scans.
        public var filesRead = 0

        /// Counters with the given values.
        public init(scanCount: Int = 0, filesRead: Int = 0) {
            self.scanCount = scanCount
            self.filesRead = filesRead
        }
    }

    /// What the index holds for one file path.
    enum Entry: Sendable {
        case asset(PhotoAsset)
        case skipped(SkippedPhotoFile, FileStamp)

        var stamp: FileStamp {
            switch self {
            case .asset(let asset): asset.stamp
            case .skipped(_, let stamp): stamp
            }
        }

        var asset: PhotoAsset? {
            if case .asset(let asset) = self { return asset }
            return nil
        }
    }

    private struct State: Sendable {
        var entries: [String: Entry] = [:]
        var index = LibraryIndex()
        var statistics = Statistics()
    }

    /// The root folder.
    public let rootURL: URL
    /// How the library scans.
    public let configuration: Configuration
    /// The root's path, without a trailing `/`.
    let rootPath: String
    private let state = Locked(State())
    private let scanQueue = DispatchQueue(label: "SwiftWebImage.PhotoLibrary.scan")

    /// A library over the folder at `rootURL`. It is empty until the first ``rescan(force:)``.
    /// - Parameters:
    ///   - rootURL: The root folder (a file URL).
    ///   - configuration: How to scan.
    public init(rootURL: URL, configuration: Configuration = Configuration()) {
        self.rootURL = rootURL.standardizedFileURL
        self.configuration = configuration
        var path = self.rootURL.path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        rootPath = path
    }

    /// Scans the tree and updates the index, reading only new and changed files (all files with
    /// `force`). Runs on the library's scan queue, one scan at a time; cancelling the calling
    /// task does not stop a scan that has started.
    /// - Parameter force: Read every file again, even those whose size and date did not change.
    /// - Returns: What changed.
    /// - Throws: ``WebImageCore/WebImageError/Code/photoLibraryUnavailable`` if the root is not a readable
    ///   folder (the index is left as it was). Unreadable files and sub-folders do not fail the
    ///   scan: they are skipped with a reason.
    @discardableResult
    public func rescan(force: Bool = false) async throws -> PhotoLibraryChanges {
        try await withCheckedThrowingContinuation { continuation in
            scanQueue.async {
                continuation.resume(with: Result { try self.performScan(force: force) })
            }
        }
    }

    /// ``rescan(force:)`` on the calling thread (blocking it for the whole scan).
    @discardableResult
    public func rescanSynchronously(force: Bool = false) throws -> PhotoLibraryChanges {
        try scanQueue.sync { try performScan(force: force) }
    }

    /// Counters over the library's life.
    public var statistics: Statistics {
        state.withLock { $0.statistics }
    }

    /// The index of the last finished scan.
    var index: LibraryIndex {
        state.withLock { $0.index }
    }

    /// The absolute path of `asset`'s file.
    func path(of asset: PhotoAsset) -> String {
        rootPath + "/" + asset.relativePath
    }

    /// The file URL of `asset`.
    public func fileURL(for asset: PhotoAsset) -> URL {
        URL(fileURLWithPath: path(of: asset))
    }

    // MARK: Scanning

    private func performScan(force: Bool) throws -> PhotoLibraryChanges {
        let listing = try LibraryScanner.list(root: rootPath, includesHiddenFiles: configuration.includesHiddenFiles, maximumDepth: configuration.maximumDepth)
        let previous = state.withLock { $0.entries }
        var next: [String: Entry] = [:]
        var changes = PhotoLibraryChanges()
        var toExamine: [String] = []
        for (path, stamp) in listing.files {
            if !force, let entry = previous[path], entry.stamp == stamp {
                next[path] = entry
                changes.unchangedCount += 1
            } else {
                toExamine.append(path)
            }
        }
        toExamine.sort()
        let results = examine(toExamine)

        let previousAssets = previous.values.compactMap(\.asset)
        let previousByIdentifier = Dictionary(previousAssets.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        var used = Set(next.values.compactMap { $0.asset?.identifier })
        for (path, result) in zip(toExamine, results) {
            switch result {
            case .vanished:
                continue
            case .skipped(let reason, let stamp):
                changes.filesRead += 1
                let skipped = SkippedPhotoFile(relativePath: path, reason: reason)
                next[path] = .skipped(skipped, stamp)
                changes.skipped.append(skipped)
            case .image(let image):
                changes.filesRead += 1
                var identifier = image.fingerprint
                var attempt = 0
                while used.contains(identifier) {
                    attempt += 1
                    identifier = LibraryScanner.duplicateIdentifier(image.fingerprint, relativePath: path, attempt: attempt)
                }
                used.insert(identifier)
                let asset = makeAsset(identifier, path: path, image: image)
                next[path] = .asset(asset)
                if let old = previousByIdentifier[identifier] {
                    if old.relativePath == path {
                        changes.updated.append(asset)
                    } else {
                        changes.moved.append(PhotoLibraryChanges.Move(asset: asset, previousRelativePath: old.relativePath))
                    }
                } else {
                    changes.added.append(asset)
                }
            }
        }
        changes.removed = previousAssets.filter { !used.contains($0.identifier) }.sorted { $0.relativePath < $1.relativePath }
        changes.skipped.append(contentsOf: listing.skipped)
        changes.skipped.sort { $0.relativePath < $1.relativePath }

        var skipped = listing.skipped
        for entry in next.values {
            if case .skipped(let file, _) = entry { skipped.append(file) }
        }
        let index = LibraryIndex(assets: next.values.compactMap(\.asset), skipped: skipped)
        let filesRead = changes.filesRead
        state.withLock { state in
            state.entries = next
            state.index = index
            state.statistics.scanCount += 1
            state.statistics.filesRead += filesRead
        }
        return changes
    }

    /// Examines `paths` in parallel (file reads overlap; header parsing is light).
    private func examine(_ paths: [String]) -> [LibraryScanner.Examination] {
        guard !paths.isEmpty else { return [] }
        let results = Locked([LibraryScanner.Examination](repeating: .vanished, count: paths.count))
        let root = rootPath
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let result = LibraryScanner.examine(root: root, relativePath: paths[index])
            results.withLock { $0[index] = result }
        }
        return results.withLock { $0 }
    }

    private func makeAsset(_ identifier: String, path: String, image: LibraryScanner.ExaminedImage) -> PhotoAsset {
        let header = image.header
        var captureDate: Date?
        if let text = header.exif?.dateTimeOriginal {
            captureDate = EXIFDate.date(text, offset: header.exif?.offsetTimeOriginal, defaultZone: configuration.captureTimeZone)
        }
        var thumbnail: PhotoAsset.EmbeddedThumbnail?
        if let location = header.thumbnail {
            let swaps = header.orientation.map { (5...8).contains($0) } ?? false
            let size = swaps ? PixelSize(width: location.storedSize.height, height: location.storedSize.width) : location.storedSize
            thumbnail = PhotoAsset.EmbeddedThumbnail(pixelSize: size, fileOffset: location.offset, byteCount: location.length)
        }
        return PhotoAsset(
            identifier: identifier, relativePath: path, format: header.format, pixelSize: header.uprightSize,
            stamp: image.stamp, captureDate: captureDate, orientation: header.orientation, embeddedThumbnail: thumbnail
        )
    }
}
