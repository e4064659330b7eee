import Foundation
import SwiftWebImage

/// The loader of `convert --thumbnail` for a local file: a PNG or JPEG thumbnail is decoded from
/// the file a piece at a time (``PNGCoder/decode(contentsOf:options:)``,
/// ``JPEGCoder/decode(contentsOf:options:)``), so the command never holds the compressed file
/// (an 80 MB PNG's thumbnail costs about the thumbnail). Everything else (another format, a
/// full-size decode, a context with its own coder or a decryptor) goes to `fallback`, which
/// reads the whole file as before.
///
/// Decision: the streamed path is not bounded by ``FileLoader/maximumFileSize`` (100 MiB): that
/// limit stands for the memory a read costs, which this path does not spend.
struct FileThumbnailLoader: ImageLoader {
    /// The loader for everything this one does not stream.
    let fallback: any ImageLoader

    func canRequestImage(for url: URL) -> Bool {
        fallback.canRequestImage(for: url)
    }

    func requestImage(with url: URL, options: WebImageOptions, context: WebImageContext, progress: ImageLoaderProgressHandler?) async throws -> ImageLoaderResult {
        let stage = ImageDecodeRequest(url: url, options: options, context: context, defaultCoder: CodersManager.shared)
        guard url.isFileURL, context.imageCoder == nil, context.downloadDecryptor == nil, stage.decodesImage,
              stage.decodeOptions.thumbnailPixelSize != nil, let format = Self.format(of: url) else {
            return try await fallback.requestImage(with: url, options: options, context: context, progress: progress)
        }
        let decodeOptions = stage.decodeOptions
        let image = try await BlockingWorkExecutor.processing.run {
            format == .png
                ? try PNGCoder().decode(contentsOf: url, options: decodeOptions)
                : try JPEGCoder().decode(contentsOf: url, options: decodeOptions)
        }
        return ImageLoaderResult(image: image, data: nil)
    }

    /// PNG or JPEG, by the file's first bytes; `nil` for anything else (or an unreadable file,
    /// which the fallback then reports).
    static func format(of url: URL) -> ImageFormat? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 8) else { return nil }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        return nil
    }
}
