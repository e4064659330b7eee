import Foundation
import SVGCoder
import SwiftWebImage
import Testing
import WebImageTestSupport

/// Nothing outside the data is loaded: files, loopback http, XInclude and external entities
/// draw nothing and are never fetched; `data:` images are drawn.
@Suite(.onOwnThreads) struct SecurityTests {
    /// A 40x40 document that draws `image` over a transparent background.
    static func document(image href: String) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40">
          <image x="0" y="0" width="40" height="40" href="\(href)" xlink:href="\(href)"/>
        </svg>
        """
    }

    static func isTransparent(_ bitmap: Bitmap) -> Bool {
        (0..<bitmap.height).allSatisfy { y in (0..<bitmap.width).allSatisfy { x in bitmap[x, y].alpha == 0 } }
    }

    /// A red 8x8 PNG.
    static func redPNG() throws -> Data {
        try PNGCoder().encode(WebImage(bitmap: Pixels.make(width: 8, height: 8) { _, _ in RGBAColor(red: 255, green: 0, blue: 0, alpha: 255) }), as: .png)
    }

    /// A red PNG written to a temporary file is referenced by `file://` URL, by an absolute path
    /// and by a relative path: nothing is drawn. `/etc/passwd` gives no error that shows it.
    @Test func filesAreNotRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("svgcoder-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("red.png")
        try Self.redPNG().writeWithoutSync(to: file)
        for href in [file.absoluteString, file.path, "red.png", "file:///etc/passwd"] {
            let image = try SVGCoder().decode(Data(Self.document(image: href).utf8))
            #expect(image.pixelSize == PixelSize(width: 40, height: 40))
            #expect(Self.isTransparent(image.bitmap), "\(href) was drawn")
        }
    }

    /// An `<image>`, a `<use>` of another document and a CSS `@import` point at a loopback
    /// server started here: it sees zero requests.
    @Test func httpIsNeverFetched() async throws {
        let png = try Self.redPNG()
        let server = try LoopbackHTTPServer(routes: [
            "/x.png": .data(png, contentType: "image/png"),
            "/other.svg": .data(Data(SVGSamples.grid.utf8), contentType: "image/svg+xml"),
            "/style.css": .data(Data("rect { fill: red }".utf8), contentType: "text/css"),
        ])
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let svgs = [
            Self.document(image: "\(base)/x.png"),
            """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40">
              <use href="\(base)/other.svg#x" xlink:href="\(base)/other.svg#x"/>
              <rect width="10" height="10" fill="url(\(base)/other.svg#g)"/>
              <style>@import url("\(base)/style.css");</style>
            </svg>
            """,
            """
            <?xml version="1.0"?>
            <?xml-stylesheet href="\(base)/style.css" type="text/css"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill-opacity="0"/></svg>
            """,
        ]
        for svg in svgs {
            let image = try await OwnThread.run { try SVGCoder().decode(Data(svg.utf8)) }
            #expect(Self.isTransparent(image.bitmap))
        }
        #expect(server.totalRequestCount == 0, "\(server.requests.map(\.path))")
    }

    /// XInclude of a file and an external entity: not read (the file's text never appears, and
    /// the document draws nothing from it).
    @Test func xincludeAndEntitiesAreNotResolved() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("svgcoder-xi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let part = folder.appendingPathComponent("part.svg")
        try Data(#"<rect xmlns="http://www.w3.org/2000/svg" width="40" height="40" fill="red"/>"#.utf8).writeWithoutSync(to: part)
        let xinclude = """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xi="http://www.w3.org/2001/XInclude" width="40" height="40">
              <xi:include href="\(part.absoluteString)" parse="xml"/>
              <xi:include href="\(part.path)" parse="xml"/>
              <xi:include href="part.svg" parse="xml"/>
            </svg>
            """
        #expect(Self.isTransparent(try SVGCoder().decode(Data(xinclude.utf8)).bitmap))
        let entity = """
            <?xml version="1.0"?>
            <!DOCTYPE svg [ <!ENTITY part SYSTEM "\(part.absoluteString)"> <!ENTITY passwd SYSTEM "file:///etc/passwd"> ]>
            <svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">&part;<desc>&passwd;</desc></svg>
            """
        do {
            let image = try SVGCoder().decode(Data(entity.utf8))
            #expect(Self.isTransparent(image.bitmap))
        } catch let error as WebImageError {
            #expect(error.code == .badImageData)
            #expect(!error.message.contains("root:"), "\(error.message)")
        }
    }

    /// A `data:` PNG is drawn.
    @Test func dataImagesAreDrawn() throws {
        let href = "data:image/png;base64," + (try Self.redPNG()).base64EncodedString()
        let image = try SVGCoder().decode(Data(Self.document(image: href).utf8))
        #expect(Pixels.near(image.bitmap[20, 20], RGBAColor(red: 255, green: 0, blue: 0, alpha: 255), tolerance: 2))
    }
}
