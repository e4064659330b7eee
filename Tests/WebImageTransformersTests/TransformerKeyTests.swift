import Testing
import WebImageTestSupport
import WebImageCore
import WebImageTransformers

/// Keys: the documented spelling, stable for equal parameters, distinct for different ones.
@Suite(.onOwnThreads) struct TransformerKeyTests {
    static let size = PixelSize(width: 400, height: 300)

    @Test("each transformer spells its key as documented")
    func documentedKeys() {
        let cases: [(any ImageTransformer, String)] = [
            (.resize(to: Self.size, mode: .aspectFill), "ResizingTransformer(400x300,aspectFill,lanczos3)"),
            (.resize(to: Self.size, filter: .bilinear), "ResizingTransformer(400x300,fill,bilinear)"),
            (.crop(to: PixelRect(x: 10, y: 20, width: 100, height: 50)), "CroppingTransformer(10,20,100x50,clamp)"),
            (.crop(to: PixelRect(x: -1, y: 0, width: 5, height: 5), bounds: .strict), "CroppingTransformer(-1,0,5x5,strict)"),
            (.flip(horizontal: true), "FlippingTransformer(1,0)"),
            (.flip(horizontal: true, vertical: true), "FlippingTransformer(1,1)"),
            (.rotate(by: Double.pi / 4), "RotationTransformer(0.785398,1)"),
            (.rotate(degrees: -90, fitSize: false), "RotationTransformer(-1.570796,0)"),
            (.roundCorner(radius: 8), "RoundCornerTransformer(8.000000,15,0.000000,#000000FF)"),
            (.roundCorner(radius: 2.5, corners: [.topLeft, .bottomRight], borderWidth: 1, borderColor: RGBAColor(red: 255, green: 16, blue: 0, alpha: 128)),
             "RoundCornerTransformer(2.500000,9,1.000000,#FF100080)"),
            (.tint(RGBAColor(red: 255, green: 0, blue: 0)), "TintTransformer(#FF0000FF,sourceIn)"),
            (.tint(RGBAColor(red: 0, green: 171, blue: 205, alpha: 0), mode: .overlay), "TintTransformer(#00ABCD00,overlay)"),
            (.blur(radius: 10), "BlurTransformer(10.000000)"),
            (.blur(radius: 0.1234567), "BlurTransformer(0.123457)"),
            (.filter(name: "posterize4") { $0 }, "FilterTransformer(posterize4)"),
            (.grayscale, "ColorMatrixTransformer(0.212600,0.715200,0.072200,0.000000,0.000000,0.212600,0.715200,0.072200,0.000000,0.000000,0.212600,0.715200,0.072200,0.000000,0.000000,0.000000,0.000000,0.000000,1.000000,0.000000)"),
            (.brightness(-0.25), "ColorMatrixTransformer(1.000000,0.000000,0.000000,0.000000,-0.250000,0.000000,1.000000,0.000000,0.000000,-0.250000,0.000000,0.000000,1.000000,0.000000,-0.250000,0.000000,0.000000,0.000000,1.000000,0.000000)"),
            (.pipeline([]), "PipelineTransformer()"),
            (.pipeline([.resize(to: Self.size, mode: .aspectFill), .roundCorner(radius: 8)]),
             "ResizingTransformer(400x300,aspectFill,lanczos3)-RoundCornerTransformer(8.000000,15,0.000000,#000000FF)"),
        ]
        for (transformer, key) in cases {
            #expect(transformer.transformerKey == key)
        }
    }

    /// Many transformers with different parameters: every key differs from every other.
    static func variety() -> [any ImageTransformer] {
        var list: [any ImageTransformer] = []
        for mode in ResizingTransformer.ScaleMode.allCases {
            for filter in ResamplingFilter.allCases {
                list.append(.resize(to: Self.size, mode: mode, filter: filter))
            }
        }
        list.append(.resize(to: PixelSize(width: 300, height: 400)))
        list.append(.resize(to: PixelSize(width: 40, height: 300)))
        list.append(.resize(to: PixelSize(width: 4, height: 300)))
        list += [
            .crop(to: PixelRect(x: 1, y: 2, width: 3, height: 4)), .crop(to: PixelRect(x: 2, y: 1, width: 3, height: 4)),
            .crop(to: PixelRect(x: 1, y: 2, width: 4, height: 3)), .crop(to: PixelRect(x: 1, y: 2, width: 3, height: 4), bounds: .strict),
            .crop(to: PixelRect(x: 12, y: 3, width: 4, height: 5)), .crop(to: PixelRect(x: 1, y: 23, width: 4, height: 5)),
        ]
        list += [.flip(), .flip(horizontal: true), .flip(vertical: true), .flip(horizontal: true, vertical: true)]
        list += [.rotate(by: 0.5), .rotate(by: -0.5), .rotate(by: 0.5, fitSize: false), .rotate(by: 0.500001), .rotate(degrees: 90), .rotate(degrees: 270)]
        list += [
            .roundCorner(radius: 8), .roundCorner(radius: 8.5), .roundCorner(radius: 8, corners: .topLeft),
            .roundCorner(radius: 8, borderWidth: 1), .roundCorner(radius: 8, borderWidth: 1, borderColor: .white),
            .roundCorner(radius: 8, borderWidth: 1, borderColor: RGBAColor(red: 0, green: 0, blue: 0, alpha: 254)),
        ]
        for mode in TintTransformer.BlendMode.allCases {
            list.append(.tint(RGBAColor(red: 10, green: 20, blue: 30), mode: mode))
        }
        list += [.tint(RGBAColor(red: 20, green: 10, blue: 30)), .tint(RGBAColor(red: 10, green: 20, blue: 30, alpha: 100))]
        list += [.blur(radius: 0), .blur(radius: 1), .blur(radius: 10), .blur(radius: 10.5)]
        list += [.grayscale, .sepia, .invert, .brightness(0.1), .brightness(-0.1), .contrast(1.1), .saturation(1.1), .saturation(0.5),
                 .colorMatrix(.identity), .colorMatrix(.sepia.concatenated(with: .contrast(1.2)))]
        list += [.filter(name: "a") { $0 }, .filter(name: "b") { $0 }]
        list += [
            .pipeline([]), .pipeline([.flip(horizontal: true), .blur(radius: 1)]), .pipeline([.blur(radius: 1), .flip(horizontal: true)]),
        ]
        return list
    }

    @Test("different parameters give different keys")
    func distinct() {
        let keys = Self.variety().map(\.transformerKey)
        var seen: [String: Int] = [:]
        for (index, key) in keys.enumerated() {
            #expect(seen[key] == nil, "\(key) twice: \(seen[key] ?? -1) and \(index)")
            seen[key] = index
        }
    }

    @Test("equal parameters give equal keys, every time")
    func stable() {
        let first = Self.variety().map(\.transformerKey)
        let second = Self.variety().map(\.transformerKey)
        #expect(first == second)
        #expect(first.allSatisfy { !$0.isEmpty && !$0.contains(" ") })
    }

    @Test("floating-point parameters are rounded to six decimals, in the key and in the work")
    func quantized() {
        #expect(BlurTransformer(radius: 2.0000001).transformerKey == BlurTransformer(radius: 2).transformerKey)
        #expect(BlurTransformer(radius: 2.0000001).radius == 2)
        #expect(BlurTransformer(radius: 2.000001).transformerKey != BlurTransformer(radius: 2).transformerKey)
        #expect(RotationTransformer(angle: -0.0000001).transformerKey == "RotationTransformer(0.000000,1)")
        #expect(RoundCornerTransformer(radius: 1.23456789).radius == 1.234568)
        #expect(ColorMatrix.brightness(0.12345678).values[4] == 0.123457)
    }
}
