import Testing
import WebImageCore
import WebImageServer

@Suite struct ThumborURLParserTests {
    /// Parses `path`, failing the test on an error.
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
        ("/unsafe/", "no signature or unsafe followed by an image"),
        ("/", "no signature or unsafe followed by an image"),
        ("", "no image"),
        ("/unsafe", "no signature or unsafe followed by an image"),
        ("/a.jpg", "no signature or unsafe followed by an image"),
        ("/300x200/a.jpg", "'300x200' is neither unsafe nor a signature"),
        ("/fit-in/300x200/a.jpg", "'fit-in' is neither unsafe nor a signature"),
        ("/8ammJH8D-7tXy6kU3lTvoXlhu4o/300x200/a.jpg", "is neither unsafe nor a signature"),
        ("/8ammJH8D+7tXy6kU3lTvoXlhu4o=/300x200/a.jpg", "is neither unsafe nor a signature"),
        ("/unsafe/debug/a.jpg", "debug/"),
        ("/unsafe/a%FF.jpg", "not UTF-8"),
        ("/unsafe/filters:fill(%FF)/a.jpg", "not UTF-8"),
        ("/unsafe/a\n.jpg", "control character 0xa"),
        ("/unsafe/a\u{0}.jpg", "control character 0x0"),
        ("/unsafe/a\u{7F}.jpg", "control character 0x7f"),
    ])
    func refusesMalformedPaths(path: String, reason: String) throws {
        let message = try #require(failure(path))
        #expect(message.contains(reason))
        #expect(message.contains("in \(path)"))
    }

    @Test(arguments: [
        ("quality(101)", "quality must be 0 to 100"),
        ("quality(-1)", "not a whole number"),
        ("quality(8.5)", "not a whole number"),
        ("quality()", "expected 1 argument, got 0"),
        ("quality(1,2)", "expected 1 argument, got 2"),
        ("quality(80:grayscale()", "not a whole number"),
        ("format(bmp)", "not one of"),
        ("format(heic)", "does not write HEIF"),
        ("format()", "expected 1 argument"),
        ("rotate(45)", "multiple of 90"),
        ("rotate(x)", "not a whole number"),
        ("brightness(101)", "-100 to 100"),
        ("contrast(-101)", "-100 to 100"),
        ("saturation(abc)", "not a number"),
        ("saturation(1.2.3)", "not a number"),
        ("round_corner(10,255,255)", "expected 4 to 5 arguments"),
        ("round_corner(10|x,0,0,0)", "N or N|M"),
        ("round_corner(10|2|3,0,0,0)", "N or N|M"),
        ("round_corner(10,256,0,0)", "0 to 255"),
        ("round_corner(10,0,0,0,maybe)", "not true, false, 1 or 0"),
        ("fill(#fff)", "not a colour name"),
        ("fill(red,yes)", "not true, false"),
        ("fill()", "expected 1 to 2 arguments"),
        ("background_color(a-b)", "not a colour name"),
        ("background_color(blur)", "not a colour name"),
        ("fill(reddish)", "not a colour name"),
        ("fill(12345)", "not a colour name"),
        ("fill(Transparent)", "not a colour name"),
        ("grayscale(1)", "expected 0 arguments, got 1"),
        ("upscale(true)", "expected 0 arguments"),
        ("max_bytes(-5)", "not a whole number"),
        ("max_age(soon)", "not a whole number"),
    ])
    func refusesBadFilterArguments(filter: String, reason: String) throws {
        let message = try #require(failure("/unsafe/filters:\(filter)/a.jpg"))
        #expect(message.contains(reason), "\(message)")
        #expect(message.contains("filter \(filter):"), "\(message)")
    }

    @Test func parsesEveryFilter() throws {
        let path = "/unsafe/filters:format(webp):quality(85):blur(3):blur(4,2.5):grayscale():rotate(-90):round_corner(20|10,255,0,128,true)"
            + ":fill(red):fill(00ff00,1):background_color(blue):no_upscale():upscale():stretch():max_bytes(1000):max_age(60)"
            + ":brightness(-20):contrast(30):saturation(1.5):strip_exif():strip_icc()/a.jpg"
        #expect(try filters(path) == [
            .format(.webp), .quality(85), .blur(radius: 3, sigma: 3), .blur(radius: 4, sigma: 2.5), .grayscale, .rotate(270),
            .roundCorner(horizontalRadius: 20, verticalRadius: 10, color: RGBAColor(red: 255, green: 0, blue: 128), transparent: true),
            .fill("red", transparent: false), .fill("00ff00", transparent: true), .backgroundColor("blue"), .noUpscale, .upscale, .stretch,
            .maxBytes(1000), .maxAge(60), .brightness(-20), .contrast(30), .saturation(1.5), .stripExif, .stripICC,
        ])
    }

    @Test(arguments: [
        ("format(jpg)", ThumborFilter.format(.jpeg)),
        ("format(JPEG)", .format(.jpeg)),
        ("format('png')", .format(.png)),
        ("format( gif )", .format(.gif)),
        ("format(avif)", .format(.avif)),
        ("format(auto)", .format(.auto)),
        ("quality(0)", .quality(0)),
        ("quality(100)", .quality(100)),
        ("quality( 75 )", .quality(75)),
        ("blur(300)", .blur(radius: 150, sigma: 300)),
        ("blur(5,0)", .blur(radius: 5, sigma: 5)),
        ("blur(5, -2)", .blur(radius: 5, sigma: 2)),
        ("blur(5,.5)", .blur(radius: 5, sigma: 0.5)),
        ("rotate(0)", .rotate(0)),
        ("rotate(90)", .rotate(90)),
        ("rotate(450)", .rotate(90)),
        ("rotate(-180)", .rotate(180)),
        ("rotate(-450)", .rotate(270)),
        ("round_corner(8,0,0,0)", .roundCorner(horizontalRadius: 8, verticalRadius: 8, color: .black, transparent: false)),
        ("round_corner(8, 1, 2, 3, False)", .roundCorner(horizontalRadius: 8, verticalRadius: 8, color: RGBAColor(red: 1, green: 2, blue: 3), transparent: false)),
        ("fill(transparent)", .fill("transparent", transparent: false)),
        ("fill(auto,True)", .fill("auto", transparent: true)),
        ("fill(blur)", .fill("blur", transparent: false)),
        ("brightness(100)", .brightness(100)),
        ("contrast(-100)", .contrast(-100)),
        ("saturation(0)", .saturation(0)),
        ("saturation(-0.5)", .saturation(-0.5)),
        ("saturation(2.)", .saturation(2)),
        ("max_age(0)", .maxAge(0)),
    ])
    func parsesFilterArguments(filter: String, expected: ThumborFilter) throws {
        #expect(try filters("/unsafe/filters:\(filter)/a.jpg") == [expected])
    }

    @Test func focalRegionsAreKeptApartFromTheFilters() throws {
        let request = try ThumborURLParser.parse("/unsafe/300x300/filters:quality(80):focal(10x20:30x40):focal('1x1:1x5'):focal( 5x5:9x9 )/a.jpg")
        #expect(request.filters == [.quality(80)])
        // The second region has no area: thumbor skips it.
        #expect(request.focalRegions == [.init(left: 10, top: 20, right: 30, bottom: 40), .init(left: 5, top: 5, right: 9, bottom: 9)])
        #expect(request.ignoredFilters.isEmpty)
    }

    @Test(arguments: ["focal(10x20)", "focal(10x20:30)", "focal(ax1:2x3)", "focal(1x2:3x4:5x6)", "focal(30x20:10x40)", "focal()"])
    func refusesMalformedFocalRegions(filter: String) throws {
        let message = try #require(failure("/unsafe/filters:\(filter)/a.jpg"))
        #expect(message.contains("filter \(filter):"), "\(message)")
    }

    @Test func dropsMaxBytesZeroAsThumborDoes() throws {
        #expect(try filters("/unsafe/filters:max_bytes(0)/a.jpg").isEmpty)
    }

    @Test func skipsUnknownFiltersAndKeepsTheOthersInOrder() throws {
        let request = try ThumborURLParser.parse("/unsafe/filters:overlay(http://x.com/w.png,10,10,50):quality(70):nonsense(1,1,true):format(png)/a.jpg")
        #expect(request.filters == [.quality(70), .format(.png)])
        #expect(request.ignoredFilters == ["overlay(http://x.com/w.png,10,10,50)", "nonsense(1,1,true)"])
    }

    @Test func decodesTheFiltersOnceBeforeSplittingThem() throws {
        // `%29%3A` is `):` once decoded: thumbor splits there too.
        #expect(try filters("/unsafe/filters:quality(70%29%3Aformat(webp)/a.jpg") == [.quality(70), .format(.webp)])
        #expect(try filters("/unsafe/filters:fill(red%2C1)/a.jpg") == [.fill("red", transparent: true)])
    }

    @Test func encodedParenthesesAreNotAFiltersPart() throws {
        // The grammar needs a literal `)/`: an encoded one makes the text part of the image.
        let request = try ThumborURLParser.parse("/unsafe/filters:quality%2870%29/a.jpg")
        #expect(request.filters.isEmpty)
        #expect(request.source == "filters:quality(70)/a.jpg")
    }

    @Test func combinesEveryPart() throws {
        let path = "/unsafe/trim:bottom-right:12/5x6:105x206/adaptive-full-fit-in/-0x-orig/left/bottom/smart/filters:quality(90):rotate(180)/https%3A%2F%2Fexample.com%2Fa%2Fb.png"
        let request = try ThumborURLParser.parse(path)
        #expect(request == ThumborRequest(
            security: .unsafe,
            signedPart: String(path.dropFirst("/unsafe/".count)),
            trim: .init(fromBottomRight: true, tolerance: 12),
            crop: .init(left: 5, top: 6, right: 105, bottom: 206),
            fitIn: .adaptiveFullFitIn,
            width: 0, height: nil, usesSourceWidth: false, usesSourceHeight: true,
            flipsHorizontally: true, flipsVertically: true,
            horizontalAlignment: .left, verticalAlignment: .bottom, smart: true,
            filters: [.quality(90), .rotate(180)],
            source: "https://example.com/a/b.png"
        ))
    }

    @Test func signedPathsKeepTheSignatureAndTheRawSignedPart() throws {
        let request = try ThumborURLParser.parse("/as8U2DbUUtTMgvPF26LkjS3MocY=/10x10:200x200/300x200/filters:brightness(20):contrast(10)/my.server.com/some/path/to/image.jpg")
        #expect(request.security == .signed("as8U2DbUUtTMgvPF26LkjS3MocY="))
        #expect(request.signedPart == "10x10:200x200/300x200/filters:brightness(20):contrast(10)/my.server.com/some/path/to/image.jpg")
        #expect(request.filters == [.brightness(20), .contrast(10)])
        #expect(ThumborSigner(key: "my-security-key").isValid(signature: "as8U2DbUUtTMgvPF26LkjS3MocY=", for: request.signedPart))
    }
}
