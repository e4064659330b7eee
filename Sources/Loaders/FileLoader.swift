public import Foundation
public import WebImageCore
import Dispatch

/// Loads images from `file://` URLs: reads the file off the caller's thread and decodes it
/// like the ``Downloader`` (the context's coder or ``coder``, scale factor, thumbnail size,
/// scale-down limit, `avoidDecodeImage`, the context's decryptor).
///
/// Thread-safety: immutable; use from any thread. The file is read on a global dispatch queue.
public final class FileLoader: ImageLoader {
    /// The coder for requests whose context sets no ``/WebImageCore/WebImageContext/imageCoder``.
    public let coder: any ImageCoder
    /// The largest file the loader reads, in bytes (default 100 MiB, as the downloader's
    /// maximum response size). A larger file fails before it is read.
    public let maximumFileSize: Int

    /// A file loader.
    /// - Parameters:
    ///   - coder: Decodes the file's data when the context gives no coder.
    ///   - maximumFileSize: The largest file read, in bytes (default 100 MiB).
    public init(coder: any ImageCoder, maximumFileSize: Int = 100 * 1024 * 1024) {
        self.coder = coder
        self.maximumFileSize = maximumFileSize
    }

    /// `true` for `file://` URLs.
    public func canRequestImage(for url: URL) -> Bool {
        url.isFileURL
    }

    /// Reads and decodes the file at `url`. Sends one progress event (the whole size) after
    /// the read; never partial images.
    /// - Throws: ``/WebImageCore/WebImageError``: `unsupportedURL` (not a file URL), `invalidURL` (no such
    ///   file, or a directory), `invalidDownloadResponse` (unreadable, or larger than
    ///   ``maximumFileSize``), `badImageData` (empty, undecodable), `cancelled`.
    public func requestImage(with url: URL, options: WebImageOptions, context: WebImageContext, progress: ImageLoaderProgressHandler?) async throws -> ImageLoaderResult {
        guard url.isFileURL else {
            throw WebImageError(.unsupportedURL, "FileLoader loads file URLs, not \(url.absoluteString)", url: url)
        }
        guard !Task.isCancelled else {
            throw WebImageError.cancelled("Operation cancelled by user before reading the file", url: url)
        }
        let limit = maximumFileSize
        let data: Data
        do {
            data = try await BlockingWorkExecutor.fileIO.run { try Self.read(url, limit: limit) }
        } catch is CancellationError {
            throw WebImageError.cancelled("Operation cancelled by user before reading the file", url: url)
        }
        guard !Task.isCancelled else {
            throw WebImageError.cancelled("Operation cancelled by user during loading", url: url)
        }
        progress?(.progress(receivedBytes: Int64(data.count), expectedBytes: Int64(data.count)))
        var body = data
        if let decryptor = context.downloadDecryptor {
            guard let decrypted = decryptor.decryptedData(data, response: nil) else {
                throw WebImageError(.badImageData, "The decryptor returned nil for \(data.count) bytes from \(url.path)", url: url)
            }
            body = decrypted
        }
        let image = try await ImageDecodeRequest(url: url, options: options, context: context, defaultCoder: coder).decodeLoadedData(body, on: .processing)
        return ImageLoaderResult(image: image, data: body, statusCode: nil, contentType: nil)
    }

    /// Reads at most `limit` bytes of the file, refusing larger files and directories.
    static func read(_ url: URL, limit: Int) throws -> Data {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw WebImageError(.invalidURL, "No file at \(path) (from \(url.absoluteString))", underlyingError: URLError(.fileDoesNotExist), url: url)
        }
        guard !isDirectory.boolValue else {
            throw WebImageError(.invalidURL, "\(path) is a directory, not an image file", url: url)
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw WebImageError(.invalidDownloadResponse, "Cannot open \(path): \(error.localizedDescription)", underlyingError: error, url: url)
        }
        defer { try? handle.close() }
        do {
            // One byte past the limit tells a file that is too large (even one that grew).
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else {
                throw WebImageError(.invalidDownloadResponse, "\(path) is larger than the limit of \(limit) bytes", underlyingError: URLError(.dataLengthExceedsMaximum), url: url)
            }
            return data
        } catch let error as WebImageError {
            throw error
        } catch {
            throw WebImageError(.invalidDownloadResponse, "Cannot read \(path): \(error.localizedDescription)", underlyingError: error, url: url)
        }
    }
}
