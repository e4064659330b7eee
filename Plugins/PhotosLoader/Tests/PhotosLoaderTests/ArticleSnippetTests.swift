import Foundation
import PhotosLoader
import SwiftWebImage
import Testing
import WebImageTestSupport

/// The code listing of the PhotosLoader catalog
/// (`Plugins/PhotosLoader/Sources/PhotosLoader/PhotosLoader.docc`), compiled and run: the lines
/// between `// DOCS NAME begin` and `// DOCS NAME end` are the article's block marked
/// `<!-- snippet: NAME -->` (the umbrella's `ArticleSnippetTests.articleSnippetsAreTheCodeTestedHere`
/// compares them, line for line). A test of the serialized `SharedManagerTests`: the listing
/// registers in the process-wide loaders manager (the only suite of this target that reads it),
/// and the test takes the loader out again.
extension SharedManagerTests {
    @Test func theArticleSnippetRegistersTheLoaderAndLoadsAThumbnail() async throws {
        let folder = try TemporaryLibrary()
        try folder.write(Fixtures.jpeg(width: 640, height: 480, color: Fixtures.yellow), to: "2024/beach.jpg")
        let photosFolder = folder.root
        defer { LoadersManager.shared.removeAll { $0 is PhotosLoader } }
        // DOCS photos-register begin
        let library = PhotoLibrary(rootURL: photosFolder)
        try await library.rescan()   // indexes the folder tree: every photo gets a stable photos:// URL
        LoadersManager.shared.add(PhotosLoader(library: library))
        // DOCS photos-register end
        // DOCS photos-load begin
        let asset = library.asset(atRelativePath: "2024/beach.jpg")!
        let result = try await ImageManager.shared.loadImage(with: asset.url, options: .photosLibrary,
                                                             context: .photosLibrary(thumbnailPixelSize: PixelSize(width: 200, height: 200)))
        // DOCS photos-load end
        #expect(result.image?.pixelSize == PixelSize(width: 200, height: 150))
        #expect(result.image?.metadata.contains(.thumbnail) == true)
        #expect(result.cacheType == ImageCacheType.none)
    }
}
