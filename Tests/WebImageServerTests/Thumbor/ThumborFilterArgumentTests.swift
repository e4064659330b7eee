import Testing
import WebImageCore
@testable import WebImageServer

/// The arguments of `blur`, `sharpen`, `equalize`, `noise`, `rgb`, `colorize`, `convolution`
/// and `curve` are read with thumbor 7.8's own expressions: what they match is applied, what
/// they do not match is skipped (as thumbor skips it), and what thumbor matches but then fails
/// on with a `500` is refused with a `400`. Each row below was checked against thumbor itself.
@Suite struct ThumborFilterArgumentTests {
    private let identity = [ThumborFilter.CurvePoint(x: 0, y: 0), ThumborFilter.CurvePoint(x: 255, y: 255)]

    private func parse(_ filter: String) throws(WebImageError) -> ThumborRequest {
        try ThumborURLParser.parse("/unsafe/filters:\(filter)/a.jpg")
    }

    @Test(arguments: [
        ("blur(3)", ThumborFilter.blur(radius: 3, sigma: 3)),
        ("blur(03)", .blur(radius: 3, sigma: 3)),
        ("blur(3,0)", .blur(radius: 3, sigma: 3)),
        ("blur(3, -1.5)", .blur(radius: 3, sigma: 1.5)),
        ("blur(3,.5)", .blur(radius: 3, sigma: 0.5)),
        ("blur(200)", .blur(radius: 150, sigma: 200)),
        ("blur(2147483648)", .blur(radius: 150, sigma: 2_147_483_648)),
        ("blur( 4 , 2. )", .blur(radius: 4, sigma: 2)),
        // Python's \d is any Unicode decimal digit, and int() reads them (the type's [1-9] is ASCII).
        ("blur(1\u{0664})", .blur(radius: 14, sigma: 14)),
        ("sharpen(2,1,true)", .sharpen(amount: 2, radius: 1, luminanceOnly: true)),
        ("sharpen(2.,1.0,True)", .sharpen(amount: 2, radius: 1, luminanceOnly: true)),
        ("sharpen(.5,-1,1)", .sharpen(amount: 0.5, radius: -1, luminanceOnly: true)),
        ("sharpen(-2,0,false)", .sharpen(amount: -2, radius: 0, luminanceOnly: false)),
        ("sharpen(1,1,False)", .sharpen(amount: 1, radius: 1, luminanceOnly: false)),
        ("sharpen(1,1,0)", .sharpen(amount: 1, radius: 1, luminanceOnly: false)),
        ("equalize()", .equalize),
        ("noise(10)", .noise(amount: 10, seed: nil)),
        ("noise(10,0)", .noise(amount: 10, seed: nil)),
        ("noise(10,5)", .noise(amount: 10, seed: 5)),
        ("noise(0)", .noise(amount: 0, seed: nil)),
        ("noise(10,2147483647)", .noise(amount: 10, seed: 2_147_483_647)),
        ("rgb(10,-20,30)", .rgb(red: 10, green: -20, blue: 30)),
        ("rgb( 10 , 0 , -0 )", .rgb(red: 10, green: 0, blue: 0)),
        ("rgb(2147483647,-2147483648,0)", .rgb(red: 2_147_483_647, green: -2_147_483_648, blue: 0)),
        ("colorize(10,20,30,ff0000)", .colorize(red: 10, green: 20, blue: 30, fill: RGBAColor(red: 255, green: 0, blue: 0))),
        ("colorize(10,20,30,'00FF80')", .colorize(red: 10, green: 20, blue: 30, fill: RGBAColor(red: 0, green: 255, blue: 128))),
        ("colorize(150,0,7, 0a 0b  0c )", .colorize(red: 150, green: 0, blue: 7, fill: RGBAColor(red: 10, green: 11, blue: 12))),
        ("convolution(1;2;1;2;4;2;1;2;1,3,true)", .convolution(kernel: [1, 2, 1, 2, 4, 2, 1, 2, 1], columns: 3, normalize: true)),
        ("convolution(1;2;1,3)", .convolution(kernel: [1, 2, 1], columns: 3, normalize: true)),
        ("convolution(1;2;1,1,0)", .convolution(kernel: [1, 2, 1], columns: 1, normalize: false)),
        ("convolution(-1.5;2.;0.25,03,False)", .convolution(kernel: [-1.5, 2, 0.25], columns: 3, normalize: false)),
        ("convolution(1,1,true)", .convolution(kernel: [1], columns: 1, normalize: true)),
        // C's atof stops at the first digit that is not ASCII.
        ("convolution(1\u{0664};\u{0664};2,1)", .convolution(kernel: [1, 0, 2], columns: 1, normalize: true)),
    ])
    func readsThumborsArgumentForms(filter: String, expected: ThumborFilter) throws {
        let request = try parse(filter)
        #expect(request.filters == [expected])
        #expect(request.ignoredFilters.isEmpty)
    }

    @Test func readsCurves() throws {
        let request = try parse("curve([(0,0),(255,255)],[(0,50),(128,170),(255,254),],[],[(300,0),(00,7)])")
        let point = ThumborFilter.CurvePoint.init(x:y:)
        #expect(request.filters == [.curve(all: identity, red: [point(0, 50), point(128, 170), point(255, 254)], green: [], blue: [point(44, 0), point(0, 7)])])
        // The expression matches at the start; what follows its `)` is ignored, as Python's
        // re.match ignores it (here the rest of the text: it has no `):` to cut at).
        let trailing = try ThumborURLParser.parse("/unsafe/filters:rgb(1,2,3)x:format(png)/a.jpg")
        #expect(trailing.filters == [.rgb(red: 1, green: 2, blue: 3)])
        #expect(trailing.ignoredFilters.isEmpty)
    }

    @Test(arguments: [
        "blur(0)", "blur(00)", "blur(\u{0664})", "blur(-3)", "blur()", "blur(a)", "blur(3,)", "blur(3,x)", "blur(3,1e3)", "blur(3,.)", "blur(1,2,3)",
        "sharpen(2,1)", "sharpen(2,1,yes)", "sharpen(1e3,1,true)", "sharpen(-,1,true)", "sharpen(.,1,true)", "sharpen(2,1,true,1)",
        "equalize(1)", "equalize( )",
        "noise(-1)", "noise(1.5)", "noise(10,-1)", "noise()", "noise(10,5,1)",
        "rgb(10,0)", "rgb(10,0,0,0)", "rgb(1.5,0,0)", "rgb(--1,0,0)", "rgb(+1,0,0)",
        "colorize(10,20,30)", "colorize(-10,20,30,ff0000)", "colorize(10,20,30,ff0000,1)",
        "convolution(1;.5;1,3,false)", "convolution(1;2;1,0,true)", "convolution(1;;1,3)", "convolution(1;2;1,3,maybe)",
        "curve([(0, 0)],[],[],[])", "curve([],[],[])", "curve([(0,0)],[],[],[],[])", "curve((0,0),[],[],[])",
    ])
    func skipsWhatThumborsExpressionsDoNotMatch(filter: String) throws {
        let request = try parse(filter)
        #expect(request.filters.isEmpty)
        #expect(request.ignoredFilters == [filter])
    }

    @Test(arguments: [
        ("noise(2147483648)", "over 2147483647"),
        ("noise(10,2147483648)", "the seed (2147483648) is over"),
        ("rgb(2147483648,0,0)", "red (2147483648) is over"),
        ("colorize(2147483648,0,0,ff0000)", "over 2147483647"),
        ("colorize(10,20,30,red)", "not 6 hex digits"),
        ("colorize(10,20,30,f00)", "not 6 hex digits"),
        ("colorize(10,20,30,ff000000)", "not 6 hex digits"),
        ("colorize(10,20,30,'ff0000)", "not 6 hex digits"),
        ("colorize(10,20,30,'')", "not 6 hex digits"),
        ("colorize(10,20,30,f f0000)", "not 6 hex digits"),
        ("convolution(1;2;1;2,2,true)", "not an odd number of rows"),
        ("convolution(1;2;1;2;4;2,3,true)", "not an odd number of rows"),
        ("convolution(1;2;1,9)", "not an odd number of rows"),
        ("convolution(1;2;1,2147483648)", "over 2147483647"),
        ("curve([(0,0)(255,255)],[],[],[])", "with commas between them"),
        ("curve([(01,0)],[],[],[])", "leading zeros"),
        ("curve([(\u{0661},0)],[],[],[])", "not a list"),
        ("curve([(0,9223372036854775808)],[],[],[])", "below 2^63"),
    ])
    func refusesWhatThumborAcceptsButFailsOn(filter: String, reason: String) throws {
        do {
            _ = try parse(filter)
            Issue.record("\(filter) was accepted")
        } catch {
            #expect(error.code == .invalidURL)
            #expect(error.message.contains("filter \(filter):") && error.message.contains(reason), "\(error.message)")
        }
    }

    @Test func refusesACurveOfMoreThan255Points() throws {
        let points = (0..<256).map { "(\($0),\($0))" }.joined(separator: ",")
        #expect(throws: WebImageError.self) { try parse("curve([\(points)],[],[],[])") }
        let fewer = (0..<255).map { "(\($0),\($0))" }.joined(separator: ",")
        #expect(try parse("curve([\(fewer)],[],[],[])").filters.count == 1)
    }

    /// thumbor's String type is lazy after greedy spaces: `colorize(1,2,3,   )` matches with
    /// a fill of one space (then fails in `fromhex`), and a quoted fill may hold a comma.
    @Test func followsPythonsBacktrackingOfTheStringType() {
        #expect(ThumborArgumentPattern.match("colorize(1,2,3,   )", name: "colorize", [
            .init(pattern: .positiveNumber), .init(pattern: .positiveNumber), .init(pattern: .positiveNumber), .init(pattern: .string),
        ]).map { $0.compactMap { $0 } } == ["1", "2", "3", " "])
        #expect(ThumborArgumentPattern.match("colorize(1,2,3,'a,b' )", name: "colorize", [
            .init(pattern: .positiveNumber), .init(pattern: .positiveNumber), .init(pattern: .positiveNumber), .init(pattern: .string),
        ]).map { $0.compactMap { $0 } } == ["1", "2", "3", "'a,b'"])
        #expect(ThumborArgumentPattern.match("colorize(1,2,3,a,b)", name: "colorize", [
            .init(pattern: .positiveNumber), .init(pattern: .positiveNumber), .init(pattern: .positiveNumber), .init(pattern: .string),
        ]) == nil)
    }
}
