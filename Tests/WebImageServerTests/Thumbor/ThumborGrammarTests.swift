import Testing
import WebImageServer

/// One path and how thumbor 7.8 splits it: the expected values were computed by running
/// libthumbor 2.0.2's `Url.regex()` (what thumbor 7.8 routes with, anchored as tornado anchors
/// it) on each path in Python, percent-decoding the captures once as tornado does, and reading
/// `trim` with thumbor's own `RequestParameters` (where `trim:25` is the corner "25", which the
/// trimming takes as bottom-right, with tolerance 0).
struct GrammarCase: Sendable, CustomTestStringConvertible {
    var path: String
    var security: String
    var signedPart: String
    /// `[fromBottomRight ? 1 : 0, tolerance]`.
    var trim: [Int]?
    /// `[left, top, right, bottom]`.
    var crop: [Int]?
    var fitIn: String
    var width: Int?
    var height: Int?
    var widthIsOrig: Bool
    var heightIsOrig: Bool
    var flips: [Bool]
    var halign: String
    var valign: String
    var smart: Bool
    /// thumbor's split of the `filters:` text (every name here is unknown, so all are ignored).
    var filters: [String]?
    var source: String

    init(_ path: String, security: String, signedPart: String, trim: [Int]?, crop: [Int]?, fitIn: String, width: Int?, height: Int?, widthIsOrig: Bool, heightIsOrig: Bool, flips: [Bool], halign: String, valign: String, smart: Bool, filters: [String]?, source: String) {
        self.path = path
        self.security = security
        self.signedPart = signedPart
        self.trim = trim
        self.crop = crop
        self.fitIn = fitIn
        self.width = width
        self.height = height
        self.widthIsOrig = widthIsOrig
        self.heightIsOrig = heightIsOrig
        self.flips = flips
        self.halign = halign
        self.valign = valign
        self.smart = smart
        self.filters = filters
        self.source = source
    }

    var testDescription: String { path }
}

@Suite struct ThumborGrammarTests {
    static let cases: [GrammarCase] = [
        GrammarCase("/unsafe/a.jpg", security: "unsafe", signedPart: "a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/300x200/a.jpg", security: "unsafe", signedPart: "300x200/a.jpg", trim: nil, crop: nil, fitIn: "none", width: 300, height: 200, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("unsafe/300x200/a.jpg", security: "unsafe", signedPart: "300x200/a.jpg", trim: nil, crop: nil, fitIn: "none", width: 300, height: 200, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/fit-in/300x200/http://example.com/a.jpg", security: "unsafe", signedPart: "fit-in/300x200/http://example.com/a.jpg", trim: nil, crop: nil, fitIn: "fit-in", width: 300, height: 200, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "http://example.com/a.jpg"),
        GrammarCase("/unsafe/full-fit-in/300x200/example.com/a.jpg", security: "unsafe", signedPart: "full-fit-in/300x200/example.com/a.jpg", trim: nil, crop: nil, fitIn: "full-fit-in", width: 300, height: 200, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "example.com/a.jpg"),
        GrammarCase("/unsafe/adaptive-fit-in/300x200/a.jpg", security: "unsafe", signedPart: "adaptive-fit-in/300x200/a.jpg", trim: nil, crop: nil, fitIn: "adaptive-fit-in", width: 300, height: 200, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/adaptive-full-fit-in/300x200/a.jpg", security: "unsafe", signedPart: "adaptive-full-fit-in/300x200/a.jpg", trim: nil, crop: nil, fitIn: "adaptive-full-fit-in", width: 300, height: 200, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/-300x-200/a.jpg", security: "unsafe", signedPart: "-300x-200/a.jpg", trim: nil, crop: nil, fitIn: "none", width: 300, height: 200, widthIsOrig: false, heightIsOrig: false, flips: [true, true], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/-x-/a.jpg", security: "unsafe", signedPart: "-x-/a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [true, true], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/-0x0/a.jpg", security: "unsafe", signedPart: "-0x0/a.jpg", trim: nil, crop: nil, fitIn: "none", width: 0, height: 0, widthIsOrig: false, heightIsOrig: false, flips: [true, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/300x/a.jpg", security: "unsafe", signedPart: "300x/a.jpg", trim: nil, crop: nil, fitIn: "none", width: 300, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/x200/a.jpg", security: "unsafe", signedPart: "x200/a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: 200, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/0x0/a.jpg", security: "unsafe", signedPart: "0x0/a.jpg", trim: nil, crop: nil, fitIn: "none", width: 0, height: 0, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/x/a.jpg", security: "unsafe", signedPart: "x/a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/origx200/a.jpg", security: "unsafe", signedPart: "origx200/a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: 200, widthIsOrig: true, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/300xorig/a.jpg", security: "unsafe", signedPart: "300xorig/a.jpg", trim: nil, crop: nil, fitIn: "none", width: 300, height: nil, widthIsOrig: false, heightIsOrig: true, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/10x20:300x400/a.jpg", security: "unsafe", signedPart: "10x20:300x400/a.jpg", trim: nil, crop: [10, 20, 300, 400], fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/0x0:0x0/a.jpg", security: "unsafe", signedPart: "0x0:0x0/a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/trim/a.jpg", security: "unsafe", signedPart: "trim/a.jpg", trim: [0, 0], crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/trim:bottom-right/a.jpg", security: "unsafe", signedPart: "trim:bottom-right/a.jpg", trim: [1, 0], crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/trim:top-left:10/a.jpg", security: "unsafe", signedPart: "trim:top-left:10/a.jpg", trim: [0, 10], crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/trim:25/a.jpg", security: "unsafe", signedPart: "trim:25/a.jpg", trim: [1, 0], crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/trim:1000/a.jpg", security: "unsafe", signedPart: "trim:1000/a.jpg", trim: [1, 0], crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/trim:bottom-right:1000/a.jpg", security: "unsafe", signedPart: "trim:bottom-right:1000/a.jpg", trim: [1, 442], crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/trim:top-left:0/a.jpg", security: "unsafe", signedPart: "trim:top-left:0/a.jpg", trim: [0, 0], crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/left/top/a.jpg", security: "unsafe", signedPart: "left/top/a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "left", valign: "top", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/right/bottom/smart/a.jpg", security: "unsafe", signedPart: "right/bottom/smart/a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "right", valign: "bottom", smart: true, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/center/middle/a.jpg", security: "unsafe", signedPart: "center/middle/a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/smart/a.jpg", security: "unsafe", signedPart: "smart/a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: true, filters: nil, source: "a.jpg"),
        GrammarCase("/unsafe/trim/10x20:300x400/fit-in/-300x-200/right/bottom/smart/filters:foo(1):bar(a,b)/http://example.com/x/y.jpg?q=1", security: "unsafe", signedPart: "trim/10x20:300x400/fit-in/-300x-200/right/bottom/smart/filters:foo(1):bar(a,b)/http://example.com/x/y.jpg?q=1", trim: [0, 0], crop: [10, 20, 300, 400], fitIn: "fit-in", width: 300, height: 200, widthIsOrig: false, heightIsOrig: false, flips: [true, true], halign: "right", valign: "bottom", smart: true, filters: ["foo(1)", "bar(a,b)"], source: "http://example.com/x/y.jpg?q=1"),
        GrammarCase("/unsafe/300x200/fit-in/a.jpg", security: "unsafe", signedPart: "300x200/fit-in/a.jpg", trim: nil, crop: nil, fitIn: "none", width: 300, height: 200, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "fit-in/a.jpg"),
        GrammarCase("/unsafe/top/left/a.jpg", security: "unsafe", signedPart: "top/left/a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "top", smart: false, filters: nil, source: "left/a.jpg"),
        GrammarCase("/unsafe/fit-in/300x200", security: "unsafe", signedPart: "fit-in/300x200", trim: nil, crop: nil, fitIn: "fit-in", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "300x200"),
        GrammarCase("/unsafe/300x200/", security: "unsafe", signedPart: "300x200/", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "300x200/"),
        GrammarCase("/unsafe/filters:foo()/", security: "unsafe", signedPart: "filters:foo()/", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "filters:foo()/"),
        GrammarCase("/unsafe/filters:foo(1)/bar(2)/a.jpg", security: "unsafe", signedPart: "filters:foo(1)/bar(2)/a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: ["foo(1)"], source: "bar(2)/a.jpg"),
        GrammarCase("/unsafe/filters:foo(a)x/b)/c.jpg", security: "unsafe", signedPart: "filters:foo(a)x/b)/c.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: ["foo(a)x/b)"], source: "c.jpg"),
        GrammarCase("/unsafe/filters:foo%281%29/a.jpg", security: "unsafe", signedPart: "filters:foo%281%29/a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "filters:foo(1)/a.jpg"),
        GrammarCase("/unsafe/filters:foo(%29%3Abar(1)/a.jpg", security: "unsafe", signedPart: "filters:foo(%29%3Abar(1)/a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: ["foo()", "bar(1)"], source: "a.jpg"),
        GrammarCase("/unsafe/filters:foo:bar(1)/a.jpg", security: "unsafe", signedPart: "filters:foo:bar(1)/a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: ["foo:bar(1)"], source: "a.jpg"),
        GrammarCase("/unsafe/filters:)/a.jpg", security: "unsafe", signedPart: "filters:)/a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "filters:)/a.jpg"),
        GrammarCase("/unsafe/filters:a)/b.jpg", security: "unsafe", signedPart: "filters:a)/b.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: ["a)"], source: "b.jpg"),
        GrammarCase("/unsafe/http%3A%2F%2Fexample.com%2Fa%20b.jpg", security: "unsafe", signedPart: "http%3A%2F%2Fexample.com%2Fa%20b.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "http://example.com/a b.jpg"),
        GrammarCase("/unsafe/https://example.com/a.jpg%3Fx%3D1", security: "unsafe", signedPart: "https://example.com/a.jpg%3Fx%3D1", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "https://example.com/a.jpg?x=1"),
        GrammarCase("/unsafe/a%zz.jpg", security: "unsafe", signedPart: "a%zz.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a%zz.jpg"),
        GrammarCase("/unsafe/a+b%2Bc.jpg", security: "unsafe", signedPart: "a+b%2Bc.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a+b+c.jpg"),
        GrammarCase("/unsafe/caf%C3%A9.jpg", security: "unsafe", signedPart: "caf%C3%A9.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "café.jpg"),
        GrammarCase("/unsafe/unsafe/a.jpg", security: "unsafe", signedPart: "unsafe/a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "unsafe/a.jpg"),
        GrammarCase("/unsafe/300x200/300x200/a.jpg", security: "unsafe", signedPart: "300x200/300x200/a.jpg", trim: nil, crop: nil, fitIn: "none", width: 300, height: 200, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "300x200/a.jpg"),
        GrammarCase("/unsafe/fit-in/fit-in/a.jpg", security: "unsafe", signedPart: "fit-in/fit-in/a.jpg", trim: nil, crop: nil, fitIn: "fit-in", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "fit-in/a.jpg"),
        GrammarCase("/unsafe/trim:foo/a.jpg", security: "unsafe", signedPart: "trim:foo/a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "trim:foo/a.jpg"),
        GrammarCase("/unsafe/-3x-2x/a.jpg", security: "unsafe", signedPart: "-3x-2x/a.jpg", trim: nil, crop: nil, fitIn: "none", width: nil, height: nil, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "-3x-2x/a.jpg"),
        GrammarCase("/unsafe/12345678901234x5/a.jpg", security: "unsafe", signedPart: "12345678901234x5/a.jpg", trim: nil, crop: nil, fitIn: "none", width: 999999999, height: 5, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "a.jpg"),
        GrammarCase("/8ammJH8D-7tXy6kU3lTvoXlhu4o=/300x200/my.server.com/some/path/to/image.jpg", security: "8ammJH8D-7tXy6kU3lTvoXlhu4o=", signedPart: "300x200/my.server.com/some/path/to/image.jpg", trim: nil, crop: nil, fitIn: "none", width: 300, height: 200, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "my.server.com/some/path/to/image.jpg"),
        GrammarCase("/8ammJH8D-7tXy6kU3lTvoXlhu4o%3D/300x200/my.server.com/some/path/to/image.jpg", security: "8ammJH8D-7tXy6kU3lTvoXlhu4o=", signedPart: "300x200/my.server.com/some/path/to/image.jpg", trim: nil, crop: nil, fitIn: "none", width: 300, height: 200, widthIsOrig: false, heightIsOrig: false, flips: [false, false], halign: "center", valign: "middle", smart: false, filters: nil, source: "my.server.com/some/path/to/image.jpg"),
    ]

    @Test(arguments: cases)
    func splitsLikeThumbor(_ expected: GrammarCase) throws {
        let request = try ThumborURLParser.parse(expected.path)
        switch request.security {
        case .unsafe: #expect(expected.security == "unsafe")
        case .signed(let signature): #expect(signature == expected.security)
        }
        #expect(request.signedPart == expected.signedPart)
        #expect(request.trim.map { [$0.fromBottomRight ? 1 : 0, $0.tolerance] } == expected.trim)
        #expect(request.crop.map { [$0.left, $0.top, $0.right, $0.bottom] } == expected.crop)
        #expect(request.fitIn.rawValue == expected.fitIn)
        #expect(request.width == expected.width)
        #expect(request.height == expected.height)
        #expect(request.usesSourceWidth == expected.widthIsOrig)
        #expect(request.usesSourceHeight == expected.heightIsOrig)
        #expect([request.flipsHorizontally, request.flipsVertically] == expected.flips)
        #expect(request.horizontalAlignment.rawValue == expected.halign)
        #expect(request.verticalAlignment.rawValue == expected.valign)
        #expect(request.smart == expected.smart)
        #expect(request.filters.isEmpty)
        #expect(request.ignoredFilters == (expected.filters ?? []))
        #expect(request.source == expected.source)
    }
}
