import Testing
import WebImageCore
import WebImageServer

/// Expected values from PIL 12 (`ImageColor.getrgb(word)`, then `getrgb("#" + word)`), which
/// is how thumbor 7.8's `fill` and `background_color` read their colour.
@Suite struct ThumborColorTests {
    @Test(arguments: [
        ("red", ThumborColor.rgba(RGBAColor(red: 255, green: 0, blue: 0))),
        ("RED", .rgba(RGBAColor(red: 255, green: 0, blue: 0))),
        ("DarkSlateGray", .rgba(RGBAColor(red: 47, green: 79, blue: 79))),
        ("darkslategrey", .rgba(RGBAColor(red: 47, green: 79, blue: 79))),
        ("rebeccapurple", .rgba(RGBAColor(red: 102, green: 51, blue: 153))),
        ("aliceblue", .rgba(RGBAColor(red: 240, green: 248, blue: 255))),
        ("yellowgreen", .rgba(RGBAColor(red: 154, green: 205, blue: 50))),
        ("fff", .rgba(.white)),
        ("abcd", .rgba(RGBAColor(red: 170, green: 187, blue: 204, alpha: 221))),
        ("00ff00", .rgba(RGBAColor(red: 0, green: 255, blue: 0))),
        ("FF000080", .rgba(RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))),
        ("transparent", .transparent),
        ("auto", .auto),
        ("blur", .blur),
    ])
    func readsColoursLikeThumbor(text: String, expected: ThumborColor) {
        #expect(ThumborColor(text) == expected)
    }

    @Test(arguments: ["", "reddish", "12345", "fffff", "ggg", "Transparent", "AUTO", "#fff", "1234567890"])
    func refusesWhatThumborRefuses(text: String) {
        #expect(ThumborColor(text) == nil)
    }
}
