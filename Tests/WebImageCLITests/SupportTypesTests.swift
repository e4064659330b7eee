import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageCLIKit

/// The small pieces behind the commands: JSON, byte counts, ages, the progress line, sources,
/// file names, frame selection, stated frame delays.
@Suite struct SupportTypesTests {
    @Test func jsonKeepsKeyOrderAndEscapes() {
        let value = JSONValue.object([
            ("z", .string("a\"b\\c\nd\u{1}é")),
            ("a", .array([.integer(-3), .number(40), .number(33.3333333), .number(.nan), .bool(true), .null])),
        ])
        #expect(value.serialized == #"{"z":"a\"b\\c\nd\u0001é","a":[-3,40,33.333,null,true,null]}"#)
        #expect(JSONValue.format(125) == "125")
        #expect(JSONValue.format(0.1) == "0.1")
    }

    @Test func byteCounts() {
        #expect(ByteCount.format(512) == "512 B")
        #expect(ByteCount.format(1536) == "1.5 KB")
        #expect(ByteCount.format(10 * 1024 * 1024) == "10.0 MB")
        #expect(ByteCount.parse("500000") == 500_000)
        #expect(ByteCount.parse("64K") == 64 * 1024)
        #expect(ByteCount.parse("10mb") == 10 << 20)
        #expect(ByteCount.parse("1GiB") == 1 << 30)
        #expect(ByteCount.parse("-1") == nil)
        #expect(ByteCount.parse("M") == nil)
        #expect(ByteCount.parse("12Q") == nil)
        #expect(ByteCount.parse("99999999999999999999G") == nil)
    }

    @Test func ages() {
        #expect(CacheCommand.parseAge("3600") == 3600)
        #expect(CacheCommand.parseAge("30m") == 1800)
        #expect(CacheCommand.parseAge("12h") == 43_200)
        #expect(CacheCommand.parseAge("7d") == 604_800)
        #expect(CacheCommand.parseAge("7w") == nil)
        #expect(CacheCommand.parseAge("") == nil)
        #expect(CacheCommand.age(604_800) == "max age 7 days")
        #expect(CacheCommand.age(90) == "max age 90 seconds")
    }

    @Test func progressLine() {
        var bar = ProgressBar(totalImages: 4)
        #expect(bar.line == "[--------------------] 0/4 images  0 B")
        bar.finishedImages = 2
        bar.receivedBytes = 1536
        bar.expectedBytes = 3072
        #expect(bar.line == "[##########----------] 2/4 images  1.5 KB / 3.0 KB")
        bar.expectedBytes = nil
        #expect(bar.line == "[##########----------] 2/4 images  1.5 KB")
    }

    @Test(arguments: [
        ("https://example.com/a.png", "https", "network"),
        ("HTTP://example.com/a.png", "http", "network"),
        ("data:image/png;base64,AAAA", "data", "data"),
        ("file:///tmp/a.png", "file", "file"),
        ("ftp://example.com/a.png", "ftp", "network"),
        ("photos/a:b.png", "file", "file"),
        ("relative.png", "file", "file"),
    ])
    func sources(_ argument: String, scheme: String, origin: String) throws {
        let source = try ImageSource(argument)
        #expect(source.url.scheme?.lowercased() == scheme)
        #expect(source.loaderOrigin == origin)
        #expect(source.argument == argument)
    }

    @Test func emptySourceIsAnInvalidURL() {
        #expect(throws: WebImageError.self) { try ImageSource("") }
    }

    @Test func fileNameStems() {
        var taken = Set<String>()
        #expect(FetchCommand.uniqueStem(for: URL(string: "http://a.com/x/photo.jpg?v=1")!, taken: &taken) == "photo")
        #expect(FetchCommand.uniqueStem(for: URL(string: "http://b.com/photo.png")!, taken: &taken) == "photo-2")
        #expect(FetchCommand.uniqueStem(for: URL(string: "http://a.com/")!, taken: &taken) == "image")
        #expect(FetchCommand.uniqueStem(for: URL(string: "data:image/png;base64,AAAA")!, taken: &taken) == "image-2")
        #expect(FetchCommand.uniqueStem(for: URL(string: "http://a.com/we%20ird%3Bname.gif")!, taken: &taken) == "we_ird_name")
        #expect(FetchCommand.uniqueStem(for: URL(string: "http://a.com/..hidden.png")!, taken: &taken) == "hidden")
    }

    /// A last path component too long for a file name (255 bytes on Linux file systems) gives
    /// a short stem: a readable prefix and a hash of the whole component, so that names that
    /// differ only far in stay apart; a repeat still gets its number.
    @Test func longNamesGiveShortUniqueStems() throws {
        let long = String(repeating: "a", count: 300)
        var taken = Set<String>()
        let first = FetchCommand.uniqueStem(for: try #require(URL(string: "http://a.com/\(long)1.jpg")), taken: &taken)
        let second = FetchCommand.uniqueStem(for: try #require(URL(string: "http://a.com/\(long)2.jpg")), taken: &taken)
        let again = FetchCommand.uniqueStem(for: try #require(URL(string: "http://b.com/\(long)1.png")), taken: &taken)
        for stem in [first, second, again] {
            // Room for a uniqueness number and the extension.
            #expect((stem + "-99.jpeg").utf8.count <= 255, "\(stem.utf8.count) bytes")
            #expect(stem.hasPrefix(String(repeating: "a", count: 100)))
        }
        #expect(first.utf8.count <= FetchCommand.maximumStemLength && second.utf8.count <= FetchCommand.maximumStemLength)
        #expect(first != second)
        #expect(again == first + "-2")
        // The same name gives the same stem in every run (the hash is not per process).
        var fresh = Set<String>()
        #expect(FetchCommand.uniqueStem(for: try #require(URL(string: "http://c.com/\(long)1.gif")), taken: &fresh) == first)
        // Names that fit are kept as they are.
        let fits = String(repeating: "b", count: 150)
        #expect(FetchCommand.uniqueStem(for: try #require(URL(string: "http://a.com/\(fits).png")), taken: &fresh) == fits)
        // Multi-byte characters count as bytes (they become `_` anyway).
        let wide = String(repeating: "%E6%97%A5", count: 300)
        let stem = FetchCommand.uniqueStem(for: try #require(URL(string: "http://a.com/\(wide).png")), taken: &fresh)
        #expect((stem + "-99.jpeg").utf8.count <= 255, "\(stem.utf8.count) bytes")
    }

    @Test func frameSelection() throws {
        let animation = TestImages.animated(frames: 3)
        let second = try FrameSelectionTransformer(index: 1).transform(animation, forKey: "k")
        #expect(second.frameCount == 1)
        #expect(second.bitmap == animation.frameBitmaps[1])
        #expect(FrameSelectionTransformer(index: 2).transformerKey == "FrameSelection(2)")
        #expect(throws: WebImageError.self) { try FrameSelectionTransformer(index: 3).transform(animation, forKey: "k") }
        do {
            _ = try FrameSelectionTransformer(index: 1).transform(TestImages.still(), forKey: "k")
        } catch let error as WebImageError {
            #expect(error.code == .invalidArgument)
            #expect(error.message == "there is no frame 1: the image has only frame 0")
        }
    }

    /// Durations are reported as the file states them (``WebImage/statedFrameDurations``), not
    /// as the decoder plays them.
    @Test func statedFrameDelays() throws {
        func described(_ data: Data) throws -> [String] {
            ImageDescription(source: "input", image: try CodersManager.shared.decode(data)).durations.map(JSONValue.format)
        }
        let fast = try Fixtures.gif(durations: [0.01, 0.02], loopCount: 0)
        #expect(try CodersManager.shared.decode(fast).frameDurations == [0.1, 0.02], "the decoder plays 10 ms as 100 ms")
        #expect(try described(fast) == ["10", "20"])
        #expect(try described(Fixtures.apng(durations: [0.04, 0.125], loopCount: 1)) == ["40", "125"])
        #expect(try described(Fixtures.alphaPNG()) == ["0"], "a PNG without acTL")
        #expect(try described(Fixtures.jpeg()) == ["0"])
    }
}

extension WebImage {
    /// Every frame's bitmap.
    var frameBitmaps: [Bitmap] {
        (try? allFrames().map(\.bitmap)) ?? []
    }
}
