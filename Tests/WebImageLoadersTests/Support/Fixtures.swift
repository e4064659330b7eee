import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

/// Images, downloaders and small helpers shared by the loader tests.
enum Fixtures {
    /// WIRAW data (``RawBitmapCoder``'s format) of a gradient.
    static func wiraw(width: Int = 16, height: Int = 12, seed: UInt8 = 64) -> Data {
        // Encoding a valid in-memory image cannot fail.
        try! RawBitmapCoder().encode(TestImages.still(width: width, height: height, seed: seed), as: .rawBitmap)
    }

    /// The MIME type the routes send WIRAW data with.
    static let wirawType = "image/x-wiraw"

    /// A downloader (cookies in memory), decoding WIRAW, and the recorder of its events.
    static func downloader(coder: any ImageCoder = RawBitmapCoder(), _ configure: (inout DownloaderConfiguration) -> Void = { _ in }) -> (Downloader, EventRecorder) {
        var configuration = DownloaderConfiguration()
        // An idle timeout no test's own pace can reach: a full parallel run may keep a test's
        // task (the one that opens the gate the server holds a response at) waiting a minute
        // for a pool thread. Tests of the timeout set their own.
        configuration.downloadTimeout = 600
        configure(&configuration)
        let downloader = Downloader(configuration: configuration, coder: coder)
        let recorder = EventRecorder()
        downloader.addObserver { recorder.record($0) }
        return (downloader, recorder)
    }

    /// Starts a request in a new task.
    static func request(_ downloader: Downloader, _ url: URL, options: WebImageOptions = [], context: WebImageContext = WebImageContext(), progress: ImageLoaderProgressHandler? = nil) -> Task<ImageLoaderResult, any Error> {
        Task { try await downloader.requestImage(with: url, options: options, context: context, progress: progress) }
    }

    /// The `WebImageError` a task ended with, or `nil` if it succeeded or threw something else.
    static func error(of task: Task<ImageLoaderResult, any Error>) async -> WebImageError? {
        do {
            _ = try await task.value
            return nil
        } catch {
            return error as? WebImageError
        }
    }

    /// The `URLError` under a `WebImageError`, if any.
    static func urlError(in error: WebImageError?) -> URLError? {
        error?.underlyingError as? URLError
    }

    /// A new empty temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-loaders-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
