import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport

/// `webimage info`, run as a subprocess on files the tests make.
@Suite(.onOwnThreads) struct InfoCommandTests {
    let workspace = Workspace()

    init() throws {
        try workspace.write(try Fixtures.jpeg(), to: "photo.jpg")
        try workspace.write(try Fixtures.alphaPNG(), to: "alpha.png")
        try workspace.write(try Fixtures.gif(durations: [0.05, 0.1, 0.2], loopCount: 0), to: "anim.gif")
        try workspace.write(try Fixtures.gif(durations: [0.01, 0.01], loopCount: 3), to: "fast.gif")
        try workspace.write(try Fixtures.gif(durations: [0.05, 0.05], loopCount: nil), to: "noloop.gif")
        try workspace.write(try Fixtures.apng(durations: [0.04, 0.125], loopCount: 2), to: "anim.png")
        try workspace.write(try Fixtures.bmp(), to: "still.bmp")
        try workspace.write(try Fixtures.wirl(), to: "pattern.wirl")
        try workspace.write(Fixtures.corruptPNG, to: "corrupt.png")
        try workspace.write(Fixtures.text, to: "notes.txt")
    }

    static let expectedJSON: [(String, String)] = [
        ("photo.jpg", #"{"source":"photo.jpg","format":"jpeg","width":64,"height":48,"frames":1,"pages":null,"loopCount":null,"durations":[0],"hasAlpha":false,"colorSpace":"untagged","refused":null}"#),
        ("alpha.png", #"{"source":"alpha.png","format":"png","width":40,"height":30,"frames":1,"pages":null,"loopCount":null,"durations":[0],"hasAlpha":true,"colorSpace":"untagged","refused":null}"#),
        ("anim.gif", #"{"source":"anim.gif","format":"gif","width":12,"height":10,"frames":3,"pages":null,"loopCount":0,"durations":[50,100,200],"hasAlpha":false,"colorSpace":null,"refused":null}"#),
        // The file states 10 ms; the decoder plays it as 100 ms; info reports the file.
        ("fast.gif", #"{"source":"fast.gif","format":"gif","width":12,"height":10,"frames":2,"pages":null,"loopCount":3,"durations":[10,10],"hasAlpha":false,"colorSpace":null,"refused":null}"#),
        ("noloop.gif", #"{"source":"noloop.gif","format":"gif","width":12,"height":10,"frames":2,"pages":null,"loopCount":null,"durations":[50,50],"hasAlpha":false,"colorSpace":null,"refused":null}"#),
        ("anim.png", #"{"source":"anim.png","format":"png","width":12,"height":10,"frames":2,"pages":null,"loopCount":2,"durations":[40,125],"hasAlpha":false,"colorSpace":"untagged","refused":null}"#),
        ("still.bmp", #"{"source":"still.bmp","format":"bmp","width":20,"height":16,"frames":1,"pages":null,"loopCount":null,"durations":[0],"hasAlpha":true,"colorSpace":null,"refused":null}"#),
        ("pattern.wirl", #"{"source":"pattern.wirl","format":"wirl","width":16,"height":8,"frames":1,"pages":null,"loopCount":null,"durations":[0],"hasAlpha":false,"colorSpace":null,"refused":null}"#),
    ]

    @Test func jsonIsOneExactObjectPerInput() async throws {
        let result = try await CLIRunner.run(["info", "--json"] + Self.expectedJSON.map(\.0), home: workspace.home, in: workspace.url)
        #expect(result.status == 0)
        #expect(result.lines == Self.expectedJSON.map(\.1))
        #expect(result.stdout.hasSuffix("}\n"))
        #expect(result.stderr.isEmpty)
    }

    @Test func unreadableInputsGiveErrorObjectsAndAFailingStatus() async throws {
        let result = try await CLIRunner.run(["info", "--json", "corrupt.png", "photo.jpg", "notes.txt", "missing.png"], home: workspace.home, in: workspace.url)
        #expect(result.status == 1)
        let lines = result.lines
        try #require(lines.count == 4)
        #expect(lines[0] == #"{"source":"corrupt.png","error":{"code":"badImageData","message":"PNG data of 72 bytes does not start with an IHDR chunk"}}"#)
        #expect(lines[1] == Self.expectedJSON[0].1, "the good input between bad ones is still described, in order")
        #expect(lines[2] == #"{"source":"notes.txt","error":{"code":"unsupportedFormat","message":"No coder can decode 20 bytes of undefined data"}}"#)
        let missing = try #require(try JSONSerialization.jsonObject(with: Data(lines[3].utf8)) as? [String: Any])
        #expect(missing["source"] as? String == "missing.png")
        let error = try #require(missing["error"] as? [String: String])
        #expect(error["code"] == "invalidURL")
        #expect(error["message"]?.contains(workspace.path("missing.png")) == true)
        #expect(Array((try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any] ?? [:]).keys).sorted() == ["error", "source"])
    }

    @Test func textOutputAndErrorsOnStandardError() async throws {
        let result = try await CLIRunner.run(["info", "anim.gif", "photo.jpg", "corrupt.png", "noloop.gif"], home: workspace.home, in: workspace.url)
        #expect(result.status == 1)
        #expect(result.lines == [
            "anim.gif: gif 12x10, 3 frames, loops forever, durations 50, 100, 200 ms, no alpha",
            "photo.jpg: jpeg 64x48, 1 frame, no alpha, colour: untagged",
            "noloop.gif: gif 12x10, 2 frames, no loop count, 50 ms each, no alpha",
        ])
        #expect(result.errorLines == ["webimage info: corrupt.png: PNG data of 72 bytes does not start with an IHDR chunk"])
    }

    @Test func httpAndDataURLs() async throws {
        let png = try Fixtures.alphaPNG()
        let server = try LoopbackHTTPServer(routes: ["/a.png": .data(png, contentType: "image/png"), "/gone.png": .status(404)])
        defer { server.stop() }
        let dataURL = "data:image/png;base64," + png.base64EncodedString()
        let http = server.url(for: "/a.png").absoluteString
        let gone = server.url(for: "/gone.png").absoluteString
        let result = try await CLIRunner.run(["info", "--json", http, dataURL, gone], home: workspace.home)
        #expect(result.status == 1)
        #expect(result.lines.count == 3)
        #expect(result.lines.first == #"{"source":"\#(http)","format":"png","width":40,"height":30,"frames":1,"pages":null,"loopCount":null,"durations":[0],"hasAlpha":true,"colorSpace":"untagged","refused":null}"#)
        #expect(result.lines.dropFirst().first?.contains(#""format":"png","width":40"#) == true)
        #expect(result.lines.last?.hasPrefix(#"{"source":"\#(gone)","error":{"code":"invalidDownloadStatusCode","#) == true)
        #expect(server.statistics(for: "/a.png").requestCount == 1)
    }

    @Test func usageMistakes() async throws {
        let none = try await CLIRunner.run(["info"], home: workspace.home)
        #expect(none.status == 64)
        #expect(none.errorLines == ["webimage info: give at least one file or URL (see 'webimage help info')"])
        let unknown = try await CLIRunner.run(["info", "--yaml", "photo.jpg"], home: workspace.home, in: workspace.url)
        #expect(unknown.status == 64)
        #expect(unknown.errorLines == ["webimage info: unknown option --yaml (see 'webimage help info')"])
        #expect(unknown.stdout.isEmpty)
    }

    /// The colour space: a tagged JPEG and PNG name their profile, a CMYK JPEG says so.
    @Test func colourSpacesAreShown() async throws {
        let profile = ColorFixtures.installedProfile("AdobeRGB1998.icc") ?? ColorFixtures.adobeRGB
        let photo = WebImage(bitmap: ColorFixtures.photo)
        try workspace.write(ColorFixtures.tagJPEG(try JPEGCoder().encode(photo, as: .jpeg), profile), to: "adobe.jpg")
        try workspace.write(ColorFixtures.tagPNG(try PNGCoder().encode(photo, as: .png), profile), to: "adobe.png")
        try workspace.write(ColorFixtures.tagJPEG(try JPEGCoder().encode(photo, as: .jpeg), Data(repeating: 7, count: 300)), to: "broken.jpg")
        let result = try await CLIRunner.run(["info", "--json", "adobe.jpg", "adobe.png", "broken.jpg"], home: workspace.home, in: workspace.url)
        #expect(result.status == 0)
        let spaces = result.lines.map { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["colorSpace"] as? String
        }
        let expected = ColorFixtures.installedProfile("AdobeRGB1998.icc") != nil ? "ICC: Compatible with Adobe RGB (1998)" : "ICC profile (no description)"
        #expect(spaces == [expected, expected, "unreadable ICC profile (used as untagged)"])
    }
}
