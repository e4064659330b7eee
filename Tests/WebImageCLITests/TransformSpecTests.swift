import Testing
import SwiftWebImage
@testable import WebImageCLIKit

/// Every entry of the `--transform` grammar builds the framework transformer it names (compared
/// by transformer key, which encodes every parameter), and every mistake is a usage error that
/// names the spec.
@Suite struct TransformSpecTests {
    static let valid: [(String, any ImageTransformer)] = [
        ("resize=400x300", ResizingTransformer(size: PixelSize(width: 400, height: 300))),
        ("resize=400x300:aspectFill", ResizingTransformer(size: PixelSize(width: 400, height: 300), mode: .aspectFill)),
        ("RESIZE=40X30:bicubic:AspectFit", ResizingTransformer(size: PixelSize(width: 40, height: 30), mode: .aspectFit, filter: .bicubic)),
        ("crop=10,10,200,200", CroppingTransformer(rect: PixelRect(x: 10, y: 10, width: 200, height: 200))),
        ("crop=-5,0,20,10:strict", CroppingTransformer(rect: PixelRect(x: -5, y: 0, width: 20, height: 10), bounds: .strict)),
        ("flip=h", FlippingTransformer(horizontal: true)),
        ("flip=v", FlippingTransformer(vertical: true)),
        ("flip=hv", FlippingTransformer(horizontal: true, vertical: true)),
        ("rotate=90", RotationTransformer(angle: .pi / 2)),
        ("rotate=-30:nofit", RotationTransformer(angle: -.pi / 6, fitSize: false)),
        ("round=16", RoundCornerTransformer(radius: 16)),
        ("round=8:border=2:color=#ff000080:corners=tl+br", RoundCornerTransformer(radius: 8, corners: [.topLeft, .bottomRight], borderWidth: 2, borderColor: RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))),
        ("blur=4", BlurTransformer(radius: 4)),
        ("tint=#ff000080", TintTransformer(color: RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))),
        ("tint=#0f0:multiply", TintTransformer(color: RGBAColor(red: 0, green: 255, blue: 0), mode: .multiply)),
        ("grayscale", ColorMatrixTransformer(matrix: .grayscale)),
        ("sepia", ColorMatrixTransformer(matrix: .sepia)),
        ("invert", ColorMatrixTransformer(matrix: .invert)),
        ("brightness=-0.5", ColorMatrixTransformer(matrix: .brightness(-0.5))),
        ("contrast=1.5", ColorMatrixTransformer(matrix: .contrast(1.5))),
        ("saturation=0", ColorMatrixTransformer(matrix: .saturation(0))),
    ]

    @Test(arguments: valid.indices)
    func parses(_ index: Int) throws {
        let (spec, expected) = Self.valid[index]
        #expect(try TransformSpec.parse(spec).transformerKey == expected.transformerKey, "\(spec)")
    }

    @Test func severalSpecsMakeAPipelineInOrder() throws {
        let pipeline = try #require(try TransformSpec.transformer(for: ["resize=10x10", "grayscale"]))
        #expect(pipeline.transformerKey == PipelineTransformer([ResizingTransformer(size: PixelSize(width: 10, height: 10)), ColorMatrixTransformer(matrix: .grayscale)]).transformerKey)
        #expect(try TransformSpec.transformer(for: []) == nil)
        #expect(try TransformSpec.transformer(for: ["blur=1"])?.transformerKey == BlurTransformer(radius: 1).transformerKey)
    }

    @Test(arguments: [
        ("sharpen", "unknown transform 'sharpen'"),
        ("resize", "bad transform 'resize': resize needs a value"),
        ("resize=400", "'400' is not a size like 400x300"),
        ("resize=0x10", "'0x10' is not a size"),
        ("resize=10x10:stretchy", "'stretchy' is not a mode or filter"),
        ("crop=1,2,3", "'1,2,3' is not four whole numbers"),
        ("crop=0,0,0,5", "the width and height must be at least 1"),
        ("crop=0,0,5,5:loose", "'loose' is not strict or clamp"),
        ("flip=x", "'x' is not h, v or hv"),
        ("rotate=abc", "'abc' is not a number"),
        ("rotate=nan", "'nan' is not a number"),
        ("round=-1", "-1 is outside 0 and up"),
        ("round=4:shadow=2", "'shadow=2' is not border=W"),
        ("round=4:color=red", "'red' is not a color"),
        ("round=4:corners=tl+middle", "'middle' is not a corner"),
        ("blur=1001", "1001 is outside 0...1000"),
        ("tint=#12345", "'#12345' is not a color"),
        ("tint=#ff0000:glow", "'glow' is not a blend mode"),
        ("grayscale=1", "grayscale takes no value"),
        ("brightness=2", "2 is outside -1...1"),
    ])
    func rejects(_ spec: String, fragment: String) {
        do {
            _ = try TransformSpec.parse(spec)
            Issue.record("\(spec) was accepted")
        } catch {
            #expect(error.kind == .usage)
            #expect(error.message.contains(fragment), "\(error.message)")
            #expect(error.message.contains("'\(spec)'"), "the message names the spec: \(error.message)")
        }
    }

    @Test func colorsAndSizes() {
        #expect(TransformSpec.color("#abc") == RGBAColor(red: 0xAA, green: 0xBB, blue: 0xCC))
        #expect(TransformSpec.color("11223344") == RGBAColor(red: 0x11, green: 0x22, blue: 0x33, alpha: 0x44))
        #expect(TransformSpec.color("#1122334") == nil)
        #expect(TransformSpec.color("#gg0000") == nil)
        #expect(TransformSpec.pixelSize("200X100") == PixelSize(width: 200, height: 100))
        #expect(TransformSpec.pixelSize("200x") == nil)
        #expect(TransformSpec.pixelSize("-2x5") == nil)
    }

    /// The help text documents every transform the parser knows.
    @Test func grammarDocumentsEveryTransform() {
        for name in ["resize=", "crop=", "flip=", "rotate=", "round=", "blur=", "tint=", "grayscale", "sepia", "invert", "brightness=", "contrast=", "saturation="] {
            #expect(TransformSpec.grammar.contains(name), "\(name)")
            #expect(ConvertCommand.help.contains(name), "\(name)")
        }
    }
}
