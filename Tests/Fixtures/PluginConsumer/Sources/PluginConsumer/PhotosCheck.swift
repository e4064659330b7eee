import Foundation
import SwiftWebImage
import PhotosLoader

/// PhotosLoader: a folder with one JPEG becomes a library whose asset loads through
/// `ImageManager.shared` once the loader is registered with one line.
enum PhotosCheck {
    @Sendable static func run() async throws -> String {
        let directory = try Scratch.directory("photos")
        defer { try? FileManager.default.removeItem(at: directory) }
        let jpeg = try JPEGCoder().encode(WebImage(bitmap: try Scratch.bitmap()), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.9))
        try jpeg.write(to: directory.appendingPathComponent("IMG_0001.jpg"))
        let library = PhotoLibrary(rootURL: directory)
        _ = try await library.rescan()
        LoadersManager.shared.add(PhotosLoader(library: library))
        guard let asset = library.assets.first else { throw CheckFailure("the library found no asset in \(directory.path)") }
        let result = try await ImageManager.shared.loadImage(with: asset.url, options: .photosLibrary, context: .photosLibrary())
        guard let image = result.image, image.pixelSize == PixelSize(width: 32, height: 24) else {
            throw CheckFailure("loading \(asset.url) gave \(String(describing: result.image?.pixelSize))")
        }
        return "registered; \(asset.url) loaded through ImageManager.shared (\(image.pixelSize))"
    }
}
