import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

@Suite struct BuiltInLoadersTests {
    @Test func allIsDownloaderFileAndDataLoadersInThatOrder() {
        let loaders = BuiltInLoaders.all(coder: RawBitmapCoder())
        #expect(loaders.count == 3)
        #expect(loaders[0] is Downloader)
        #expect(loaders[1] is FileLoader)
        #expect(loaders[2] is DataURLLoader)
    }

    @Test(arguments: [("http://127.0.0.1/a", "Downloader"), ("https://127.0.0.1/a", "Downloader"), ("file:///tmp/a", "FileLoader"), ("data:,a", "DataURLLoader")])
    func aManagerOfTheBuiltInsRoutesBySchemes(url: String, expected: String) throws {
        let manager = LoadersManager(BuiltInLoaders.all(coder: RawBitmapCoder()))
        let parsed = try #require(URL(string: url))
        let loader = try #require(manager.loader(for: parsed))
        #expect(String(describing: type(of: loader)) == expected)
    }

    @Test func aManagerOfTheBuiltInsLoadsEveryKind() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let image = Fixtures.wiraw(width: 7, height: 3)
        server.route("/a", .data(image, contentType: Fixtures.wirawType))
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a.wiraw")
        try image.writeWithoutSync(to: file)
        let manager = LoadersManager(BuiltInLoaders.all(coder: RawBitmapCoder()))
        let urls = [server.url(for: "/a"), file, try #require(URL(string: "data:image/x-wiraw;base64,\(image.base64EncodedString())"))]
        for url in urls {
            let result = try await manager.requestImage(with: url)
            #expect(result.image?.pixelSize == PixelSize(width: 7, height: 3))
        }
        let unknown = try #require(URL(string: "gopher://127.0.0.1/a"))
        #expect(!manager.canRequestImage(for: unknown))
    }
}
