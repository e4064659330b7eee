import Testing
import WebImageCore
@testable import WebImageServer

/// The arguments of `watermark`, `frame`, `proportion`, `extract_focal` and `autojpg`, read
/// with thumbor 7.8's syntax (`thumbor/filters/watermark.py` and the others).
@Suite struct ThumborComposeParsingTests {
    /// The filters of `path`.
    private func filters(_ path: String) throws -> [ThumborFilter] {
        try ThumborURLParser.parse(path).filters
    }

    /// The message of the error parsing `path` throws, or `nil` when it parses.
    private func failure(_ path: String) -> String? {
        do {
            _ = try ThumborURLParser.parse(path)
            return nil
        } catch {
            #expect(error.code == .invalidURL)
            return error.message
        }
    }

    @Test(arguments: [
        ("watermark(mark.png,10,20,30)", ThumborWatermark(source: "mark.png", x: .offset(10), y: .offset(20), alpha: 30)),
        ("watermark(mark.png,-10,-0,0)", ThumborWatermark(source: "mark.png", x: .fromEnd(10), y: .fromEnd(0), alpha: 0)),
        ("watermark(mark.png,25p,-40p,100)", ThumborWatermark(source: "mark.png", x: .percent(25), y: .percentFromEnd(40), alpha: 100)),
        ("watermark(mark.png,center,repeat,5)", ThumborWatermark(source: "mark.png", x: .center, y: .repeat, alpha: 5)),
        ("watermark(mark.png,1,2,3,50)", ThumborWatermark(source: "mark.png", x: .offset(1), y: .offset(2), alpha: 3, widthRatio: 50)),
        ("watermark(mark.png,1,2,3,none,40)", ThumborWatermark(source: "mark.png", x: .offset(1), y: .offset(2), alpha: 3, heightRatio: 40)),
        ("watermark(mark.png,1,2,3,0,0)", ThumborWatermark(source: "mark.png", x: .offset(1), y: .offset(2), alpha: 3)),
        ("watermark( mark.png , 1 , 2 , 3 )", ThumborWatermark(source: "mark.png", x: .offset(1), y: .offset(2), alpha: 3)),
        ("watermark('mark.png',1,2,3)", ThumborWatermark(source: "mark.png", x: .offset(1), y: .offset(2), alpha: 3)),
        // A quoted URL may hold commas (thumbor's String argument).
        ("watermark('http://a.example/w,1.png',1,2,3)", ThumborWatermark(source: "http://a.example/w,1.png", x: .offset(1), y: .offset(2), alpha: 3)),
        ("watermark(http://a.example/w.png?s=1,1,2,3)", ThumborWatermark(source: "http://a.example/w.png?s=1", x: .offset(1), y: .offset(2), alpha: 3)),
    ])
    func parsesWatermarks(filter: String, expected: ThumborWatermark) throws {
        #expect(try filters("/unsafe/filters:\(filter)/a.jpg") == [.watermark(expected)])
    }

    @Test func aWatermarkURLIsPercentDecodedOnceWithTheFilters() throws {
        let encoded = try filters("/unsafe/filters:watermark(http%3A%2F%2Fa.example%2Fw.png,1,2,3)/a.jpg")
        let plain = try filters("/unsafe/filters:watermark(http://a.example/w.png,1,2,3)/a.jpg")
        #expect(encoded == plain)
        #expect(encoded == [.watermark(ThumborWatermark(source: "http://a.example/w.png", x: .offset(1), y: .offset(2), alpha: 3))])
    }

    @Test(arguments: [
        ("watermark(mark.png,1,2)", "expected 4 to 6 arguments, got 3"),
        ("watermark(mark.png,1,2,3,4,5,6)", "expected 4 to 6 arguments, got 7"),
        ("watermark(mark.png,1,2,101)", "alpha (transparency) must be 0 to 100"),
        ("watermark(mark.png,1,2,-1)", "not a whole number"),
        ("watermark(mark.png,left,2,3)", "is not a position"),
        ("watermark(mark.png,1p5,2,3)", "is not a position"),
        ("watermark(mark.png,1,2,3,-50)", "not a percentage of at least 0, or none"),
        ("watermark(mark.png,1,2,3,none,x)", "not a percentage of at least 0, or none"),
        ("watermark( ,1,2,3)", "names no image"),
        ("frame(a.png,b.png)", "expected 1 argument, got 2"),
        ("frame()", "expected 1 argument, got 0"),
        ("proportion(0)", "more than 0 and at most 1"),
        ("proportion(1.5)", "more than 0 and at most 1"),
        ("proportion(-0.5)", "more than 0 and at most 1"),
        ("proportion(a)", "not a number"),
        ("extract_focal(1)", "expected 0 arguments, got 1"),
        ("autojpg(maybe)", "not true, false, 1 or 0"),
    ])
    func refusesMalformedArguments(filter: String, reason: String) throws {
        let message = try #require(failure("/unsafe/filters:\(filter)/a.jpg"))
        #expect(message.contains(reason), "\(message)")
    }

    @Test func parsesFrameProportionAndAutoJPG() throws {
        #expect(try filters("/unsafe/filters:frame(frame.9.png):frame('http://a.example/f.png')/a.jpg") == [.frame("frame.9.png"), .frame("http://a.example/f.png")])
        #expect(try filters("/unsafe/filters:proportion(0.5):proportion(.25):proportion(1)/a.jpg") == [.proportion(0.5), .proportion(0.25), .proportion(1)])
        #expect(try filters("/unsafe/filters:autojpg():autojpg(false):autojpg(True):autojpg(0)/a.jpg") == [.autoJPG(true), .autoJPG(false), .autoJPG(true), .autoJPG(false)])
    }

    @Test func theFilterSourcesAreTheWatermarksAndFramesOnceEachInOrder() throws {
        let request = try ThumborURLParser.parse("/unsafe/filters:frame(f.png):watermark(m.png,0,0,0):watermark(n.png,0,0,0):quality(80):watermark(m.png,1,1,1)/a.jpg")
        #expect(request.filterSources == ["f.png", "m.png", "n.png"])
        #expect(try ThumborURLParser.parse("/unsafe/filters:quality(80)/a.jpg").filterSources.isEmpty)
    }

    @Test(arguments: [
        // The first path segment (the host) goes, the rest is a thumbor URL with a crop.
        ("thumbor.example/unsafe/10x20:30x40/photo.jpg", "photo.jpg", ThumborRequest.Crop(left: 10, top: 20, right: 30, bottom: 40)),
        ("http://thumbor.example/unsafe/300x200/10x20:30x40/photo.jpg", "300x200/10x20:30x40/photo.jpg", nil),
        ("https://thumbor.example/unsafe/1x2:3x4/fit-in/300x200/filters:quality(10)/http://origin.example/a.jpg", "http://origin.example/a.jpg", .init(left: 1, top: 2, right: 3, bottom: 4)),
        // A signature instead of unsafe.
        ("h/AbCdEfGhIjKlMnOpQrStUvWxYz0=/5x5:9x9/a.jpg", "a.jpg", .init(left: 5, top: 5, right: 9, bottom: 9)),
        // A thumbor URL without a crop is unwrapped, and its image read as one in turn.
        ("h1/unsafe/300x200/h2/unsafe/1x1:5x5/a.jpg", "a.jpg", .init(left: 1, top: 1, right: 5, bottom: 5)),
    ])
    func extractFocalUnwrapsTheInnerURL(source: String, image: String, crop: ThumborRequest.Crop?) throws {
        let request = try ThumborURLParser.parse("/unsafe/100x100/filters:extract_focal()/" + source)
        if let crop {
            #expect(request.source == image)
            #expect(request.focalRegions == [crop])
        } else {
            // The crop is not in the URL's crop position: no thumbor URL with a crop.
            #expect(request.source == source)
            #expect(request.focalRegions.isEmpty)
        }
        #expect(request.filters == [.extractFocal])
        #expect(request.ignoredFilters.isEmpty)
    }

    @Test func extractFocalLeavesOtherSourcesAsTheyAre() throws {
        for source in ["photo.jpg", "host/photo.jpg", "host/unsafe/photo.jpg", "unsafe/10x10:30x30/photo.jpg", "http://origin.example/a.jpg"] {
            let request = try ThumborURLParser.parse("/unsafe/filters:extract_focal()/" + source)
            #expect(request.source == source)
            #expect(request.focalRegions.isEmpty)
        }
    }

    @Test func extractFocalWithACropWithoutAreaLoadsTheImageWithoutARegion() throws {
        let request = try ThumborURLParser.parse("/unsafe/filters:extract_focal()/h/unsafe/10x10:10x30/a.jpg")
        #expect(request.source == "a.jpg")
        #expect(request.focalRegions.isEmpty)
    }

    @Test func extractFocalRunsOncePerFilterAndAddsToFocalRegions() throws {
        let request = try ThumborURLParser.parse("/unsafe/filters:focal(0x0:2x2):extract_focal():extract_focal()/h/unsafe/1x1:5x5/h/unsafe/2x2:6x6/a.jpg")
        #expect(request.source == "a.jpg")
        #expect(request.focalRegions == [.init(left: 0, top: 0, right: 2, bottom: 2), .init(left: 1, top: 1, right: 5, bottom: 5), .init(left: 2, top: 2, right: 6, bottom: 6)])
        // The signature covers the URL as written.
        #expect(request.signedPart == "filters:focal(0x0:2x2):extract_focal():extract_focal()/h/unsafe/1x1:5x5/h/unsafe/2x2:6x6/a.jpg")
    }

    @Test func extractFocalStopsAfterTenLevels() {
        let deep = Array(repeating: "h/unsafe/300x200", count: 10).joined(separator: "/") + "/h/unsafe/1x1:5x5/a.jpg"
        #expect(ThumborRequest.focalExtraction(from: deep) == nil)
        let shallower = Array(repeating: "h/unsafe/300x200", count: 9).joined(separator: "/") + "/h/unsafe/1x1:5x5/a.jpg"
        #expect(ThumborRequest.focalExtraction(from: shallower)?.image == "a.jpg")
    }
}
