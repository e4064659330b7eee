import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageCLIKit

/// `webimage fetch` against a loopback server started by the test.
@Suite struct FetchCommandTests {
    let workspace = Workspace()
    let server: LoopbackHTTPServer
    let jpeg: Data
    let png: Data

    init() throws {
        WebImageCLI.registerLaunchComponents()
        jpeg = try Fixtures.jpeg()
        png = try Fixtures.alphaPNG()
        server = try LoopbackHTTPServer(routes: [
            "/photo.jpg": .data(jpeg, contentType: "image/jpeg"),
            "/img/alpha.png": .chunked(png, chunkSize: 100, contentType: "image/png"),
            "/missing.png": .status(404),
        ])
    }

    var photoURL: String { server.url(for: "/photo.jpg").absoluteString }
    var alphaURL: String { server.url(for: "/img/alpha.png").absoluteString }

    func fetch(_ arguments: [String], terminal: Bool = false) async throws -> CLIResult {
        terminal
            ? try await CLIRunner.runInTerminal(["fetch"] + arguments, home: workspace.home, in: workspace.url)
            : try await CLIRunner.run(["fetch"] + arguments, home: workspace.home, in: workspace.url)
    }

    /// The origin word at the start of the line about `url`.
    func origin(of url: String, in result: CLIResult) -> String? {
        result.lines.first { $0.contains("  \(url) -> ") }?.split(separator: " ").first.map(String.init)
    }

    @Test func networkThenDiskWithACacheDirectory() async throws {
        let first = try await fetch([photoURL, alphaURL, "--output", "out", "--cache-dir", "cache"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(origin(of: photoURL, in: first) == "network")
        #expect(origin(of: alphaURL, in: first) == "network")
        #expect(first.lines.last?.hasPrefix("2 of 2 images in ") == true)
        #expect(first.lines.last?.hasSuffix(": 2 network") == true)
        #expect(!first.stdout.contains("\r"), "no progress bar when standard output is not a terminal")
        // Untransformed results are the served bytes.
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.path("out/photo.jpg"))) == jpeg)
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.path("out/alpha.png"))) == png)
        #expect(first.lines.contains { $0.contains("64x48 jpeg  \(photoURL) -> \(workspace.path("out/photo.jpg"))") })

        let second = try await fetch([photoURL, alphaURL, "--output", "out", "--cache-dir", "cache"])
        #expect(second.status == 0)
        #expect(origin(of: photoURL, in: second) == "disk")
        #expect(origin(of: alphaURL, in: second) == "disk")
        #expect(second.lines.last?.hasSuffix(": 2 disk") == true)
        #expect(server.statistics(for: "/photo.jpg").requestCount == 1, "the second run never asked the server")
        #expect(FileManager.default.fileExists(atPath: workspace.path("cache/default")), "the disk tier is DIR/default")
    }

    @Test func theSameURLTwiceComesFromMemoryTheSecondTime() async throws {
        let result = try await fetch([photoURL, photoURL, "--output", "out", "--no-cache", "--concurrency", "1"])
        #expect(result.status == 0)
        #expect(result.lines.count == 3)
        // --no-cache: no memory tier either, so both load from the network.
        #expect(result.lines.prefix(2).allSatisfy { $0.hasPrefix("network ") })
        #expect(workspace.contents(of: "out") == ["photo-2.jpg", "photo.jpg"])

        let cached = try await fetch([photoURL, photoURL, "--output", "again", "--cache-dir", "cache", "--concurrency", "1"])
        #expect(cached.lines.prefix(2).map { $0.split(separator: " ").first.map(String.init) } == ["network", "memory"])
    }

    @Test func noCacheAlwaysLoads() async throws {
        for _ in 0..<2 {
            let result = try await fetch([photoURL, "--output", "out", "--no-cache"])
            #expect(origin(of: photoURL, in: result) == "network")
        }
        #expect(server.statistics(for: "/photo.jpg").requestCount == 2)
        #expect(!FileManager.default.fileExists(atPath: workspace.path("cache")))
    }

    @Test func transformsAndThumbnailsAreEncodedAndCachedUnderTheirOwnKey() async throws {
        let arguments = [photoURL, "--output", "out", "--cache-dir", "cache", "--thumbnail", "32x32", "--transform", "grayscale", "--transform", "flip=h"]
        let first = try await fetch(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        let image = try CodersManager.shared.decode(try Data(contentsOf: URL(fileURLWithPath: workspace.path("out/photo.jpg"))))
        #expect(image.pixelSize == PixelSize(width: 32, height: 24))
        let pixel = image.bitmap[10, 10]
        #expect(abs(Int(pixel.red) - Int(pixel.green)) <= 3 && abs(Int(pixel.green) - Int(pixel.blue)) <= 3, "gray: \(pixel)")
        let second = try await fetch(arguments)
        #expect(origin(of: photoURL, in: second) == "disk")
    }

    @Test func aFailedURLIsReportedAndTheOthersAreWritten() async throws {
        let missing = server.url(for: "/missing.png").absoluteString
        let result = try await fetch([missing, photoURL, "not a url\u{7F}", "--output", "out", "--no-cache"])
        #expect(result.status == 1)
        #expect(result.errorLines.count == 2, "\(result.stderr)")
        #expect(result.errorLines.contains { $0.hasPrefix("webimage fetch: \(missing): ") && $0.contains("404") })
        #expect(workspace.contents(of: "out") == ["photo.jpg"])
        #expect(result.lines.last?.hasSuffix("; 2 failed") == true)
    }

    /// Last path components longer than a file name may be (255 bytes): the images are still
    /// written, under short names that keep the extension and stay apart.
    @Test func veryLongNamesAreShortened() async throws {
        let long = String(repeating: "x", count: 400)
        server.route("/\(long)-first.jpg", .data(jpeg, contentType: "image/jpeg"))
        server.route("/\(long)-second.jpg", .data(jpeg, contentType: "image/jpeg"))
        let first = server.url(for: "/\(long)-first.jpg").absoluteString
        let second = server.url(for: "/\(long)-second.jpg").absoluteString
        let result = try await fetch([first, second, "--output", "out", "--no-cache"])
        #expect(result.status == 0, "\(result.stderr.prefix(500))")
        #expect(result.stderr.isEmpty)
        let names = workspace.contents(of: "out")
        #expect(names.count == 2, "\(names)")
        for name in names {
            #expect(name.utf8.count <= 255)
            #expect(name.hasSuffix(".jpg"))
            #expect(name.hasPrefix(String(repeating: "x", count: 50)))
            #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.path("out/\(name)"))) == jpeg)
            #expect(result.lines.contains { $0.hasSuffix(" -> \(workspace.path("out/\(name)"))") })
        }
    }

    /// A cache whose disk tier cannot be written (`cache/default` is a file, so its directory
    /// cannot be made): the image is still fetched and written, and the failed store is a
    /// warning on standard error that names the URL, the tiers, the key and the reason.
    @Test func aFailedCacheStoreIsAWarning() async throws {
        try workspace.write(Data("not a directory".utf8), to: "cache/default")
        let result = try await fetch([photoURL, "--output", "out", "--cache-dir", "cache"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(origin(of: photoURL, in: result) == "network")
        #expect(workspace.contents(of: "out") == ["photo.jpg"])
        #expect(result.errorLines.count == 1, "\(result.stderr)")
        let warning = try #require(result.errorLines.first)
        #expect(warning.hasPrefix("webimage fetch: warning: \(photoURL): not stored in the memory and disk cache under key \(String(reflecting: photoURL)): "))
        #expect(warning.contains(workspace.path("cache/default")), "the reason names the directory")
    }

    /// `--verbose`: every event of the request, one line each on standard error, in order.
    @Test func verbosePrintsEveryEvent() async throws {
        let result = try await fetch([photoURL, "--output", "out", "--cache-dir", "cache", "--verbose"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.errorLines.allSatisfy { $0.hasPrefix("webimage fetch: +") && $0.contains(" ms #0 ") && $0.hasSuffix(" \(photoURL)") }, "\(result.stderr)")
        // The kind's name follows the request id.
        let kinds = result.errorLines.compactMap { line -> String? in
            guard let range = line.range(of: " #0 ") else { return nil }
            return String(line[range.upperBound...].prefix { $0.isLetter })
        }
        let expected = ["started", "cacheMiss", "loaderStarted", "loaderFinished", "stored", "finished"]
        #expect(kinds.filter(expected.contains) == expected, "\(kinds)")
        #expect(result.errorLines.contains { $0.contains("loaderFinished(bytes: \(jpeg.count), status: 200)") })

        let second = try await fetch([photoURL, "--output", "out2", "--cache-dir", "cache", "-v"])
        #expect(second.errorLines.contains { $0.contains(" #0 cacheHit(disk) ") }, "\(second.stderr)")
        let quiet = try await fetch([photoURL, "--output", "out3", "--cache-dir", "cache"])
        #expect(quiet.stderr.isEmpty)
    }

    /// On a terminal, a progress bar (images and bytes) is drawn and redrawn in place, the
    /// per-URL lines scroll above it, and it is gone at the end.
    @Test func progressBarOnATerminal() async throws {
        let result = try await fetch([photoURL, alphaURL, "--output", "out", "--no-cache"], terminal: true)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\r[--------------------] 0/2 images"))
        #expect(result.stdout.contains("] 2/2 images  "))
        #expect(result.stdout.contains("\u{1B}[K"))
        #expect(result.stdout.contains("network "))
        let plain = try await fetch([photoURL, alphaURL, "--output", "plain", "--no-cache"])
        #expect(!plain.stdout.contains("images  "))
        #expect(!plain.stdout.contains("\u{1B}"))
    }

    @Test(arguments: [
        ([String](), "webimage fetch: give at least one URL"),
        (["http://x/a.png", "--cache-dir", "c", "--no-cache"], "webimage fetch: --cache-dir and --no-cache cannot be used together"),
        (["http://x/a.png", "--concurrency", "0"], "webimage fetch: --concurrency must be a whole number from 1 to 64, not '0'"),
        (["http://x/a.png", "--transform", "blur"], "webimage fetch: bad transform 'blur': blur needs a value"),
        (["http://x/a.png", "--thumbnail", "0x0"], "webimage fetch: --thumbnail needs a size"),
    ])
    func usageMistakes(_ arguments: [String], message: String) async throws {
        let result = try await fetch(arguments)
        #expect(result.status == 64)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix(message) == true, "\(result.stderr)")
    }
}
