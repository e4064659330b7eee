import Testing
import WebImageCore
import WebImageServer
import WebImageTransformers

/// One URL on one source and what thumbor 7.8 did. The expected values were recorded by
/// running thumbor 7.8.0 itself (`pip install thumbor==7.8.0`, PIL engine, file loader) on
/// PNG sources of these sizes, with an engine subclass logging every crop, resize, flip,
/// rotate and paste: `crop` is the crops composed in source pixels (`[x, y, width, height]`),
/// `size` the image's size after the last resize before `fill` (before `rotate` turns it),
/// `canvas` the canvas `fill` pasted onto, `output` the size of thumbor's answer. The `trim`
/// cases use a 400x300 white image with a red 300x220 rectangle at (50, 40).
struct PlanCase: Sendable, CustomTestStringConvertible {
    var path: String
    var source: PixelSize
    var trimmed: PixelRect?
    var crop: PixelRect?
    var size: PixelSize
    var canvas: PixelSize?
    var flips: [Bool]
    var output: PixelSize

    init(_ path: String, source: [Int], trimmed: [Int]?, crop: [Int]?, size: [Int], canvas: [Int]?, flips: [Bool], output: [Int]) {
        self.path = path
        self.source = PixelSize(width: source[0], height: source[1])
        self.trimmed = trimmed.map { PixelRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
        self.crop = crop.map { PixelRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
        self.size = PixelSize(width: size[0], height: size[1])
        self.canvas = canvas.map { PixelSize(width: $0[0], height: $0[1]) }
        self.flips = flips
        self.output = PixelSize(width: output[0], height: output[1])
    }

    var testDescription: String { "\(path) on \(source)" }
}

@Suite struct ThumborPlanTests {
    static let cases: [PlanCase] = [
        PlanCase("/unsafe/trim/a.png", source: [400, 300], trimmed: [50, 40, 300, 220], crop: [50, 40, 300, 220], size: [300, 220], canvas: nil, flips: [false, false], output: [300, 220]),
        PlanCase("/unsafe/trim/100x100/a.png", source: [400, 300], trimmed: [50, 40, 300, 220], crop: [90, 40, 220, 220], size: [100, 100], canvas: nil, flips: [false, false], output: [100, 100]),
        PlanCase("/unsafe/trim/10x10:110x60/50x50/a.png", source: [400, 300], trimmed: [50, 40, 300, 220], crop: [70, 40, 20, 20], size: [50, 50], canvas: nil, flips: [false, false], output: [50, 50]),
        PlanCase("/unsafe/trim:bottom-right/fit-in/100x100/a.png", source: [400, 300], trimmed: [50, 40, 300, 220], crop: [50, 40, 300, 220], size: [100, 73], canvas: nil, flips: [false, false], output: [100, 73]),
        PlanCase("/unsafe/trim/0x0:1000x100/a.png", source: [400, 300], trimmed: [50, 40, 300, 220], crop: [50, 40, 300, 60], size: [300, 60], canvas: nil, flips: [false, false], output: [300, 60]),
        PlanCase("/unsafe/300x200/a.png", source: [1000, 500], trimmed: nil, crop: [125, 0, 750, 500], size: [300, 200], canvas: nil, flips: [false, false], output: [300, 200]),
        PlanCase("/unsafe/200x300/a.png", source: [1000, 500], trimmed: nil, crop: [333, 0, 334, 500], size: [200, 300], canvas: nil, flips: [false, false], output: [200, 300]),
        PlanCase("/unsafe/300x200/a.png", source: [500, 1000], trimmed: nil, crop: [0, 334, 500, 333], size: [300, 200], canvas: nil, flips: [false, false], output: [300, 200]),
        PlanCase("/unsafe/400x300/a.png", source: [800, 600], trimmed: nil, crop: nil, size: [400, 300], canvas: nil, flips: [false, false], output: [400, 300]),
        PlanCase("/unsafe/300x0/a.png", source: [800, 600], trimmed: nil, crop: nil, size: [300, 225], canvas: nil, flips: [false, false], output: [300, 225]),
        PlanCase("/unsafe/0x300/a.png", source: [800, 600], trimmed: nil, crop: nil, size: [400, 300], canvas: nil, flips: [false, false], output: [400, 300]),
        PlanCase("/unsafe/300x/a.png", source: [800, 600], trimmed: nil, crop: nil, size: [300, 225], canvas: nil, flips: [false, false], output: [300, 225]),
        PlanCase("/unsafe/x300/a.png", source: [800, 600], trimmed: nil, crop: nil, size: [400, 300], canvas: nil, flips: [false, false], output: [400, 300]),
        PlanCase("/unsafe/0x0/a.png", source: [800, 600], trimmed: nil, crop: nil, size: [800, 600], canvas: nil, flips: [false, false], output: [800, 600]),
        PlanCase("/unsafe/1600x1200/a.png", source: [800, 600], trimmed: nil, crop: nil, size: [1600, 1200], canvas: nil, flips: [false, false], output: [1600, 1200]),
        PlanCase("/unsafe/1000x500/a.png", source: [800, 600], trimmed: nil, crop: [0, 100, 800, 400], size: [1000, 500], canvas: nil, flips: [false, false], output: [1000, 500]),
        PlanCase("/unsafe/600x600/a.png", source: [300, 200], trimmed: nil, crop: [50, 0, 200, 200], size: [600, 600], canvas: nil, flips: [false, false], output: [600, 600]),
        PlanCase("/unsafe/333x222/a.png", source: [1001, 667], trimmed: nil, crop: nil, size: [333, 222], canvas: nil, flips: [false, false], output: [333, 222]),
        PlanCase("/unsafe/150x150/a.png", source: [1001, 667], trimmed: nil, crop: [166, 0, 667, 667], size: [150, 150], canvas: nil, flips: [false, false], output: [150, 150]),
        PlanCase("/unsafe/50x50/a.png", source: [123, 457], trimmed: nil, crop: [0, 166, 123, 123], size: [50, 50], canvas: nil, flips: [false, false], output: [50, 50]),
        PlanCase("/unsafe/100x0/a.png", source: [333, 777], trimmed: nil, crop: nil, size: [100, 233], canvas: nil, flips: [false, false], output: [100, 233]),
        PlanCase("/unsafe/0x101/a.png", source: [333, 777], trimmed: nil, crop: nil, size: [43, 101], canvas: nil, flips: [false, false], output: [43, 101]),
        PlanCase("/unsafe/300x200/left/top/a.png", source: [1000, 500], trimmed: nil, crop: [0, 0, 750, 500], size: [300, 200], canvas: nil, flips: [false, false], output: [300, 200]),
        PlanCase("/unsafe/300x200/right/bottom/a.png", source: [1000, 500], trimmed: nil, crop: [250, 0, 750, 500], size: [300, 200], canvas: nil, flips: [false, false], output: [300, 200]),
        PlanCase("/unsafe/300x200/center/top/a.png", source: [500, 1000], trimmed: nil, crop: [0, 0, 500, 333], size: [300, 200], canvas: nil, flips: [false, false], output: [300, 200]),
        PlanCase("/unsafe/300x200/left/bottom/a.png", source: [500, 1000], trimmed: nil, crop: [0, 667, 500, 333], size: [300, 200], canvas: nil, flips: [false, false], output: [300, 200]),
        PlanCase("/unsafe/300x200/smart/a.png", source: [1000, 500], trimmed: nil, crop: [125, 0, 750, 500], size: [300, 200], canvas: nil, flips: [false, false], output: [300, 200]),
        PlanCase("/unsafe/100x100/right/a.png", source: [640, 427], trimmed: nil, crop: [213, 0, 427, 427], size: [100, 100], canvas: nil, flips: [false, false], output: [100, 100]),
        PlanCase("/unsafe/-300x200/a.png", source: [1000, 500], trimmed: nil, crop: [125, 0, 750, 500], size: [300, 200], canvas: nil, flips: [true, false], output: [300, 200]),
        PlanCase("/unsafe/300x-200/a.png", source: [1000, 500], trimmed: nil, crop: [125, 0, 750, 500], size: [300, 200], canvas: nil, flips: [false, true], output: [300, 200]),
        PlanCase("/unsafe/-300x-200/a.png", source: [1000, 500], trimmed: nil, crop: [125, 0, 750, 500], size: [300, 200], canvas: nil, flips: [true, true], output: [300, 200]),
        PlanCase("/unsafe/-0x-0/a.png", source: [1000, 500], trimmed: nil, crop: nil, size: [1000, 500], canvas: nil, flips: [true, true], output: [1000, 500]),
        PlanCase("/unsafe/-x-/a.png", source: [1000, 500], trimmed: nil, crop: nil, size: [1000, 500], canvas: nil, flips: [true, true], output: [1000, 500]),
        PlanCase("/unsafe/fit-in/300x300/a.png", source: [1000, 500], trimmed: nil, crop: nil, size: [300, 150], canvas: nil, flips: [false, false], output: [300, 150]),
        PlanCase("/unsafe/fit-in/300x300/a.png", source: [500, 1000], trimmed: nil, crop: nil, size: [150, 300], canvas: nil, flips: [false, false], output: [150, 300]),
        PlanCase("/unsafe/fit-in/1000x1000/a.png", source: [800, 600], trimmed: nil, crop: nil, size: [800, 600], canvas: nil, flips: [false, false], output: [800, 600]),
        PlanCase("/unsafe/fit-in/300x0/a.png", source: [800, 600], trimmed: nil, crop: nil, size: [300, 225], canvas: nil, flips: [false, false], output: [300, 225]),
        PlanCase("/unsafe/fit-in/0x300/a.png", source: [800, 600], trimmed: nil, crop: nil, size: [400, 300], canvas: nil, flips: [false, false], output: [400, 300]),
        PlanCase("/unsafe/fit-in/500x500/a.png", source: [1001, 667], trimmed: nil, crop: nil, size: [500, 333], canvas: nil, flips: [false, false], output: [500, 333]),
        PlanCase("/unsafe/fit-in/512x512/a.png", source: [4000, 3000], trimmed: nil, crop: nil, size: [512, 384], canvas: nil, flips: [false, false], output: [512, 384]),
        PlanCase("/unsafe/fit-in/512x512/a.png", source: [3000, 2000], trimmed: nil, crop: nil, size: [512, 341], canvas: nil, flips: [false, false], output: [512, 341]),
        PlanCase("/unsafe/full-fit-in/300x300/a.png", source: [1000, 500], trimmed: nil, crop: nil, size: [600, 300], canvas: nil, flips: [false, false], output: [600, 300]),
        PlanCase("/unsafe/full-fit-in/300x300/a.png", source: [500, 1000], trimmed: nil, crop: nil, size: [300, 600], canvas: nil, flips: [false, false], output: [300, 600]),
        PlanCase("/unsafe/full-fit-in/600x600/a.png", source: [300, 200], trimmed: nil, crop: nil, size: [900, 600], canvas: nil, flips: [false, false], output: [900, 600]),
        PlanCase("/unsafe/full-fit-in/300x0/a.png", source: [800, 600], trimmed: nil, crop: nil, size: [300, 225], canvas: nil, flips: [false, false], output: [300, 225]),
        PlanCase("/unsafe/adaptive-fit-in/200x400/a.png", source: [1000, 500], trimmed: nil, crop: nil, size: [400, 200], canvas: nil, flips: [false, false], output: [400, 200]),
        PlanCase("/unsafe/adaptive-fit-in/400x200/a.png", source: [500, 1000], trimmed: nil, crop: nil, size: [200, 400], canvas: nil, flips: [false, false], output: [200, 400]),
        PlanCase("/unsafe/adaptive-fit-in/400x200/a.png", source: [1000, 500], trimmed: nil, crop: nil, size: [400, 200], canvas: nil, flips: [false, false], output: [400, 200]),
        PlanCase("/unsafe/adaptive-full-fit-in/200x400/a.png", source: [1000, 500], trimmed: nil, crop: nil, size: [400, 200], canvas: nil, flips: [false, false], output: [400, 200]),
        PlanCase("/unsafe/adaptive-fit-in/400x200/a.png", source: [100, 100], trimmed: nil, crop: nil, size: [100, 100], canvas: nil, flips: [false, false], output: [100, 100]),
        PlanCase("/unsafe/10x20:510x420/a.png", source: [1000, 500], trimmed: nil, crop: [10, 20, 500, 400], size: [500, 400], canvas: nil, flips: [false, false], output: [500, 400]),
        PlanCase("/unsafe/10x20:510x420/100x100/a.png", source: [1000, 500], trimmed: nil, crop: [60, 20, 400, 400], size: [100, 100], canvas: nil, flips: [false, false], output: [100, 100]),
        PlanCase("/unsafe/10x20:510x420/fit-in/100x100/a.png", source: [1000, 500], trimmed: nil, crop: [10, 20, 500, 400], size: [100, 80], canvas: nil, flips: [false, false], output: [100, 80]),
        PlanCase("/unsafe/900x400:2000x2000/50x50/a.png", source: [1000, 500], trimmed: nil, crop: [900, 400, 100, 100], size: [50, 50], canvas: nil, flips: [false, false], output: [50, 50]),
        PlanCase("/unsafe/500x100:400x200/300x200/a.png", source: [1000, 500], trimmed: nil, crop: [125, 0, 750, 500], size: [300, 200], canvas: nil, flips: [false, false], output: [300, 200]),
        PlanCase("/unsafe/0x0:400x500/0x100/a.png", source: [1000, 500], trimmed: nil, crop: [0, 0, 400, 500], size: [80, 100], canvas: nil, flips: [false, false], output: [80, 100]),
        PlanCase("/unsafe/1600x1200/filters:no_upscale()/a.png", source: [800, 600], trimmed: nil, crop: nil, size: [800, 600], canvas: nil, flips: [false, false], output: [800, 600]),
        PlanCase("/unsafe/1000x400/filters:no_upscale()/a.png", source: [800, 600], trimmed: nil, crop: [0, 100, 800, 400], size: [800, 400], canvas: nil, flips: [false, false], output: [800, 400]),
        PlanCase("/unsafe/400x1000/filters:no_upscale()/a.png", source: [800, 600], trimmed: nil, crop: [200, 0, 400, 600], size: [400, 600], canvas: nil, flips: [false, false], output: [400, 600]),
        PlanCase("/unsafe/fit-in/1600x1600/filters:upscale()/a.png", source: [800, 600], trimmed: nil, crop: nil, size: [1600, 1200], canvas: nil, flips: [false, false], output: [1600, 1200]),
        PlanCase("/unsafe/fit-in/600x900/filters:upscale()/a.png", source: [300, 200], trimmed: nil, crop: nil, size: [600, 400], canvas: nil, flips: [false, false], output: [600, 400]),
        PlanCase("/unsafe/fit-in/600x0/filters:upscale()/a.png", source: [300, 200], trimmed: nil, crop: nil, size: [300, 200], canvas: nil, flips: [false, false], output: [300, 200]),
        PlanCase("/unsafe/fit-in/600x600/filters:no_upscale():upscale()/a.png", source: [300, 200], trimmed: nil, crop: nil, size: [300, 200], canvas: nil, flips: [false, false], output: [300, 200]),
        PlanCase("/unsafe/600x600/filters:upscale()/a.png", source: [300, 200], trimmed: nil, crop: [50, 0, 200, 200], size: [600, 600], canvas: nil, flips: [false, false], output: [600, 600]),
        PlanCase("/unsafe/300x200/filters:stretch()/a.png", source: [1000, 500], trimmed: nil, crop: nil, size: [300, 200], canvas: nil, flips: [false, false], output: [300, 200]),
        PlanCase("/unsafe/fit-in/300x300/filters:fill(red)/a.png", source: [1000, 500], trimmed: nil, crop: nil, size: [300, 150], canvas: [300, 300], flips: [false, false], output: [300, 300]),
        PlanCase("/unsafe/fit-in/300x300/filters:fill(00ff00)/a.png", source: [500, 1000], trimmed: nil, crop: nil, size: [150, 300], canvas: [300, 300], flips: [false, false], output: [300, 300]),
        PlanCase("/unsafe/fit-in/300x0/filters:fill(red)/a.png", source: [1000, 500], trimmed: nil, crop: nil, size: [300, 150], canvas: [300, 150], flips: [false, false], output: [300, 150]),
        PlanCase("/unsafe/fit-in/600x600/filters:fill(red)/a.png", source: [300, 200], trimmed: nil, crop: nil, size: [300, 200], canvas: [600, 600], flips: [false, false], output: [600, 600]),
        PlanCase("/unsafe/fit-in/600x600/filters:upscale():fill(red)/a.png", source: [300, 200], trimmed: nil, crop: nil, size: [600, 400], canvas: [600, 600], flips: [false, false], output: [600, 600]),
        PlanCase("/unsafe/fit-in/600x600/filters:fill(red):upscale()/a.png", source: [300, 200], trimmed: nil, crop: nil, size: [300, 200], canvas: [600, 600], flips: [false, false], output: [600, 600]),
        PlanCase("/unsafe/full-fit-in/300x300/filters:fill(red)/a.png", source: [1000, 500], trimmed: nil, crop: nil, size: [600, 300], canvas: [600, 300], flips: [false, false], output: [600, 300]),
        PlanCase("/unsafe/300x200/filters:fill(red)/a.png", source: [1000, 500], trimmed: nil, crop: [125, 0, 750, 500], size: [300, 200], canvas: [300, 200], flips: [false, false], output: [300, 200]),
        PlanCase("/unsafe/fit-in/300x300/filters:rotate(90):fill(red)/a.png", source: [1000, 500], trimmed: nil, crop: nil, size: [300, 150], canvas: [300, 300], flips: [false, false], output: [300, 300]),
        PlanCase("/unsafe/fit-in/300x300/filters:fill(red):rotate(90)/a.png", source: [1000, 500], trimmed: nil, crop: nil, size: [300, 150], canvas: [300, 300], flips: [false, false], output: [300, 300]),
        PlanCase("/unsafe/fit-in/500x1000/filters:rotate(90):upscale()/a.png", source: [300, 200], trimmed: nil, crop: nil, size: [750, 500], canvas: nil, flips: [false, false], output: [500, 750]),
        PlanCase("/unsafe/300x200/filters:rotate(270)/a.png", source: [1000, 500], trimmed: nil, crop: [125, 0, 750, 500], size: [300, 200], canvas: nil, flips: [false, false], output: [200, 300]),
        PlanCase("/unsafe/origx300/a.png", source: [800, 600], trimmed: nil, crop: [0, 150, 800, 300], size: [800, 300], canvas: nil, flips: [false, false], output: [800, 300]),
        PlanCase("/unsafe/300xorig/a.png", source: [800, 600], trimmed: nil, crop: [250, 0, 300, 600], size: [300, 600], canvas: nil, flips: [false, false], output: [300, 600]),
        PlanCase("/unsafe/fit-in/origx300/a.png", source: [800, 600], trimmed: nil, crop: nil, size: [400, 300], canvas: nil, flips: [false, false], output: [400, 300]),
        PlanCase("/unsafe/fit-in/10x10/a.png", source: [50, 30], trimmed: nil, crop: nil, size: [10, 6], canvas: nil, flips: [false, false], output: [10, 6]),
        PlanCase("/unsafe/7x3/a.png", source: [50, 30], trimmed: nil, crop: [0, 4, 50, 21], size: [7, 3], canvas: nil, flips: [false, false], output: [7, 3]),
        PlanCase("/unsafe/fit-in/333x0/a.png", source: [1001, 667], trimmed: nil, crop: nil, size: [333, 222], canvas: nil, flips: [false, false], output: [333, 222]),
        PlanCase("/unsafe/full-fit-in/100x100/a.png", source: [640, 427], trimmed: nil, crop: nil, size: [150, 100], canvas: nil, flips: [false, false], output: [150, 100]),
        PlanCase("/unsafe/adaptive-full-fit-in/100x300/a.png", source: [640, 427], trimmed: nil, crop: nil, size: [300, 200], canvas: nil, flips: [false, false], output: [300, 200]),
        // `focal(...)` regions (thumbor's centre of mass of their centres, weighted by area).
        PlanCase("/unsafe/300x300/filters:focal(800x100:900x200)/a.png", source: [1000, 500], trimmed: nil, crop: [500, 0, 500, 500], size: [300, 300], canvas: nil, flips: [false, false], output: [300, 300]),
        PlanCase("/unsafe/300x300/filters:focal(0x0:100x100)/a.png", source: [1000, 500], trimmed: nil, crop: [0, 0, 500, 500], size: [300, 300], canvas: nil, flips: [false, false], output: [300, 300]),
        PlanCase("/unsafe/300x300/filters:focal(800x100:900x200):focal(100x100:140x140)/a.png", source: [1000, 500], trimmed: nil, crop: [499, 0, 500, 500], size: [300, 300], canvas: nil, flips: [false, false], output: [300, 300]),
        PlanCase("/unsafe/300x300/filters:focal(800x100:900x200):focal(100x100:400x400)/a.png", source: [1000, 500], trimmed: nil, crop: [60, 0, 500, 500], size: [300, 300], canvas: nil, flips: [false, false], output: [300, 300]),
        PlanCase("/unsafe/300x300/filters:focal(100x800:200x900)/a.png", source: [500, 1000], trimmed: nil, crop: [0, 500, 500, 500], size: [300, 300], canvas: nil, flips: [false, false], output: [300, 300]),
        PlanCase("/unsafe/300x300/left/filters:focal(600x100:700x200)/a.png", source: [1000, 500], trimmed: nil, crop: [400, 0, 500, 500], size: [300, 300], canvas: nil, flips: [false, false], output: [300, 300]),
        PlanCase("/unsafe/300x300/filters:focal(600x100:600x200)/a.png", source: [1000, 500], trimmed: nil, crop: [250, 0, 500, 500], size: [300, 300], canvas: nil, flips: [false, false], output: [300, 300]),
        PlanCase("/unsafe/100x0:700x500/300x300/filters:focal(500x100:600x200)/a.png", source: [1000, 500], trimmed: nil, crop: [200, 0, 500, 500], size: [300, 300], canvas: nil, flips: [false, false], output: [300, 300]),
        PlanCase("/unsafe/100x0:700x500/300x300/filters:focal(800x100:900x200)/a.png", source: [1000, 500], trimmed: nil, crop: [150, 0, 500, 500], size: [300, 300], canvas: nil, flips: [false, false], output: [300, 300]),
        PlanCase("/unsafe/100x0:700x500/300x300/filters:focal(800x100:900x200):focal(150x10:160x20)/a.png", source: [1000, 500], trimmed: nil, crop: [100, 0, 500, 500], size: [300, 300], canvas: nil, flips: [false, false], output: [300, 300]),
        PlanCase("/unsafe/fit-in/300x300/filters:focal(800x100:900x200)/a.png", source: [1000, 500], trimmed: nil, crop: nil, size: [300, 150], canvas: nil, flips: [false, false], output: [300, 150]),
        PlanCase("/unsafe/300x200/filters:focal('700x0:1000x500')/a.png", source: [1000, 500], trimmed: nil, crop: [250, 0, 750, 500], size: [300, 200], canvas: nil, flips: [false, false], output: [300, 200]),
        PlanCase("/unsafe/trim/100x100/filters:focal(300x100:340x140)/a.png", source: [400, 300], trimmed: [50, 40, 300, 220], crop: [130, 40, 220, 220], size: [100, 100], canvas: nil, flips: [false, false], output: [100, 100]),
        PlanCase("/unsafe/150x150/filters:focal(1x1:4x4)/a.png", source: [1001, 667], trimmed: nil, crop: [0, 0, 667, 667], size: [150, 150], canvas: nil, flips: [false, false], output: [150, 150]),
        // Random combinations (seeded), recorded the same way (flips from the URL).
        PlanCase("/unsafe/557x67:131x130/full-fit-in/56x/top/filters:stretch():rotate(90)/a.png", source: [640, 427], trimmed: nil, crop: nil, size: [56, 37], canvas: nil, flips: [false, false], output: [37, 56]),
        PlanCase("/unsafe/0x-527/center/a.png", source: [147, 376], trimmed: nil, crop: nil, size: [206, 527], canvas: nil, flips: [false, true], output: [206, 527]),
        PlanCase("/unsafe/fit-in/357x841/filters:fill(red)/a.png", source: [1001, 667], trimmed: nil, crop: nil, size: [357, 238], canvas: [357, 841], flips: [false, false], output: [357, 841]),
        PlanCase("/unsafe/548x48:374x298/full-fit-in/x-192/center/smart/filters:rotate(90):upscale()/a.png", source: [664, 309], trimmed: nil, crop: nil, size: [413, 192], canvas: nil, flips: [false, true], output: [192, 413]),
        PlanCase("/unsafe/-0x36/top/filters:stretch()/a.png", source: [616, 1362], trimmed: nil, crop: nil, size: [16, 36], canvas: nil, flips: [true, false], output: [16, 36]),
        PlanCase("/unsafe/adaptive-fit-in/26x196/filters:fill(red)/a.png", source: [1411, 31], trimmed: nil, crop: nil, size: [196, 4], canvas: [196, 26], flips: [false, false], output: [196, 26]),
        PlanCase("/unsafe/426x1383/top/a.png", source: [671, 1093], trimmed: nil, crop: [166, 0, 337, 1093], size: [426, 1383], canvas: nil, flips: [false, false], output: [426, 1383]),
        PlanCase("/unsafe/adaptive-full-fit-in/-642x/filters:rotate(90)/a.png", source: [901, 1121], trimmed: nil, crop: nil, size: [642, 799], canvas: nil, flips: [true, false], output: [799, 642]),
        PlanCase("/unsafe/adaptive-fit-in/-13x-460/filters:rotate(180)/a.png", source: [983, 901], trimmed: nil, crop: nil, size: [14, 13], canvas: nil, flips: [true, true], output: [14, 13]),
        PlanCase("/unsafe/filters:fill(red):rotate(90)/a.png", source: [215, 266], trimmed: nil, crop: nil, size: [215, 266], canvas: [215, 266], flips: [false, false], output: [266, 215]),
        PlanCase("/unsafe/x0/filters:upscale()/a.png", source: [226, 247], trimmed: nil, crop: nil, size: [226, 247], canvas: nil, flips: [false, false], output: [226, 247]),
        PlanCase("/unsafe/full-fit-in/46x-673/right/filters:stretch()/a.png", source: [640, 427], trimmed: nil, crop: nil, size: [1009, 673], canvas: nil, flips: [false, true], output: [1009, 673]),
        PlanCase("/unsafe/fit-in/36x22/a.png", source: [1035, 182], trimmed: nil, crop: nil, size: [36, 6], canvas: nil, flips: [false, false], output: [36, 6]),
        PlanCase("/unsafe/fit-in/1431x-214/bottom/a.png", source: [500, 1000], trimmed: nil, crop: nil, size: [107, 214], canvas: nil, flips: [false, true], output: [107, 214]),
        PlanCase("/unsafe/593x271/middle/filters:fill(red):upscale()/a.png", source: [1185, 522], trimmed: nil, crop: [20, 0, 1143, 522], size: [593, 271], canvas: [593, 271], flips: [false, false], output: [593, 271]),
        PlanCase("/unsafe/fit-in/2x-1428/smart/a.png", source: [944, 832], trimmed: nil, crop: nil, size: [2, 2], canvas: nil, flips: [false, true], output: [2, 2]),
        PlanCase("/unsafe/516x53:300x88/adaptive-full-fit-in/40x460/filters:fill(red):rotate(180):stretch()/a.png", source: [1491, 77], trimmed: nil, crop: nil, size: [775, 40], canvas: [775, 40], flips: [false, false], output: [775, 40]),
        PlanCase("/unsafe/797x185:276x132/44x606/left/top/filters:upscale():fill(red)/a.png", source: [800, 600], trimmed: nil, crop: [0, 0, 44, 600], size: [44, 606], canvas: [44, 606], flips: [false, false], output: [44, 606]),
        PlanCase("/unsafe/full-fit-in/0x1312/left/a.png", source: [500, 1000], trimmed: nil, crop: nil, size: [656, 1312], canvas: nil, flips: [false, false], output: [656, 1312]),
        PlanCase("/unsafe/38x190:270x273/fit-in/-44x38/a.png", source: [289, 353], trimmed: nil, crop: [38, 190, 232, 83], size: [44, 16], canvas: nil, flips: [true, false], output: [44, 16]),
        PlanCase("/unsafe/768x346:407x122/0x-/smart/filters:rotate(90)/a.png", source: [800, 600], trimmed: nil, crop: nil, size: [800, 600], canvas: nil, flips: [false, true], output: [600, 800]),
        PlanCase("/unsafe/adaptive-full-fit-in/-46x/left/middle/filters:rotate(90)/a.png", source: [180, 575], trimmed: nil, crop: nil, size: [46, 147], canvas: nil, flips: [true, false], output: [147, 46]),
        PlanCase("/unsafe/-540x1495/right/top/filters:fill(red)/a.png", source: [76, 567], trimmed: nil, crop: [0, 0, 76, 210], size: [540, 1495], canvas: [540, 1495], flips: [true, false], output: [540, 1495]),
        PlanCase("/unsafe/full-fit-in/380x494/center/filters:upscale()/a.png", source: [649, 1042], trimmed: nil, crop: nil, size: [380, 610], canvas: nil, flips: [false, false], output: [380, 610]),
        PlanCase("/unsafe/513x796:671x78/-307x46/right/a.png", source: [1011, 961], trimmed: nil, crop: [0, 404, 1011, 151], size: [307, 46], canvas: nil, flips: [true, false], output: [307, 46]),
        PlanCase("/unsafe/-15x29/center/filters:upscale()/a.png", source: [500, 1000], trimmed: nil, crop: [0, 16, 500, 967], size: [15, 29], canvas: nil, flips: [true, false], output: [15, 29]),
        PlanCase("/unsafe/1045x/smart/a.png", source: [562, 1305], trimmed: nil, crop: nil, size: [1045, 2427], canvas: nil, flips: [false, false], output: [1045, 2427]),
        PlanCase("/unsafe/fit-in/x1424/top/a.png", source: [589, 349], trimmed: nil, crop: nil, size: [589, 349], canvas: nil, flips: [false, false], output: [589, 349]),
        PlanCase("/unsafe/right/a.png", source: [1001, 667], trimmed: nil, crop: nil, size: [1001, 667], canvas: nil, flips: [false, false], output: [1001, 667]),
        PlanCase("/unsafe/320x463:73x151/adaptive-full-fit-in/filters:no_upscale()/a.png", source: [423, 549], trimmed: nil, crop: nil, size: [423, 549], canvas: nil, flips: [false, false], output: [423, 549]),
        PlanCase("/unsafe/adaptive-fit-in/33x-0/center/a.png", source: [500, 1000], trimmed: nil, crop: nil, size: [33, 66], canvas: nil, flips: [false, true], output: [33, 66]),
        PlanCase("/unsafe/adaptive-full-fit-in/0x-26/left/a.png", source: [915, 396], trimmed: nil, crop: nil, size: [60, 26], canvas: nil, flips: [false, true], output: [60, 26]),
        PlanCase("/unsafe/0x293/right/top/a.png", source: [961, 1287], trimmed: nil, crop: nil, size: [219, 293], canvas: nil, flips: [false, false], output: [219, 293]),
        PlanCase("/unsafe/0x0/left/filters:no_upscale():stretch()/a.png", source: [843, 364], trimmed: nil, crop: nil, size: [843, 364], canvas: nil, flips: [false, false], output: [843, 364]),
        PlanCase("/unsafe/609x215:593x476/26x436/left/top/smart/a.png", source: [809, 648], trimmed: nil, crop: [0, 0, 39, 648], size: [26, 436], canvas: nil, flips: [false, false], output: [26, 436]),
        PlanCase("/unsafe/full-fit-in/x-0/filters:upscale()/a.png", source: [401, 887], trimmed: nil, crop: nil, size: [401, 887], canvas: nil, flips: [false, true], output: [401, 887]),
        PlanCase("/unsafe/adaptive-fit-in/x18/right/filters:rotate(90)/a.png", source: [640, 427], trimmed: nil, crop: nil, size: [27, 18], canvas: nil, flips: [false, false], output: [18, 27]),
        PlanCase("/unsafe/14x-0/a.png", source: [1044, 708], trimmed: nil, crop: [0, 18, 1044, 671], size: [14, 9], canvas: nil, flips: [false, true], output: [14, 9]),
        PlanCase("/unsafe/15x448/a.png", source: [708, 177], trimmed: nil, crop: [351, 0, 6, 177], size: [15, 448], canvas: nil, flips: [false, false], output: [15, 448]),
        PlanCase("/unsafe/-x0/bottom/filters:upscale():rotate(90)/a.png", source: [342, 775], trimmed: nil, crop: nil, size: [342, 775], canvas: nil, flips: [true, false], output: [775, 342]),
        PlanCase("/unsafe/left/filters:upscale():no_upscale()/a.png", source: [404, 1086], trimmed: nil, crop: nil, size: [404, 1086], canvas: nil, flips: [false, false], output: [404, 1086]),
        PlanCase("/unsafe/1133x0/center/a.png", source: [1001, 667], trimmed: nil, crop: nil, size: [1133, 755], canvas: nil, flips: [false, false], output: [1133, 755]),
        PlanCase("/unsafe/fit-in/576x-/center/filters:rotate(90)/a.png", source: [523, 67], trimmed: nil, crop: nil, size: [523, 67], canvas: nil, flips: [false, true], output: [67, 523]),
        PlanCase("/unsafe/full-fit-in/492x-920/left/top/filters:no_upscale()/a.png", source: [65, 1259], trimmed: nil, crop: nil, size: [65, 1259], canvas: nil, flips: [false, true], output: [65, 1259]),
        PlanCase("/unsafe/a.png", source: [100, 1002], trimmed: nil, crop: nil, size: [100, 1002], canvas: nil, flips: [false, false], output: [100, 1002]),
        PlanCase("/unsafe/1130x/right/filters:no_upscale()/a.png", source: [1001, 667], trimmed: nil, crop: nil, size: [1001, 667], canvas: nil, flips: [false, false], output: [1001, 667]),
        PlanCase("/unsafe/1003x538/filters:fill(red)/a.png", source: [1206, 486], trimmed: nil, crop: [150, 0, 907, 486], size: [1003, 538], canvas: [1003, 538], flips: [false, false], output: [1003, 538]),
        PlanCase("/unsafe/193x531/filters:rotate(180):upscale()/a.png", source: [333, 777], trimmed: nil, crop: [24, 0, 283, 777], size: [193, 531], canvas: nil, flips: [false, false], output: [193, 531]),
        PlanCase("/unsafe/full-fit-in/937x441/middle/filters:stretch():upscale()/a.png", source: [1276, 447], trimmed: nil, crop: nil, size: [1259, 441], canvas: nil, flips: [false, false], output: [1259, 441]),
        PlanCase("/unsafe/96x/top/filters:upscale():stretch()/a.png", source: [579, 416], trimmed: nil, crop: nil, size: [96, 69], canvas: nil, flips: [false, false], output: [96, 69]),
        PlanCase("/unsafe/adaptive-fit-in/0x26/a.png", source: [333, 777], trimmed: nil, crop: nil, size: [11, 26], canvas: nil, flips: [false, false], output: [11, 26]),
        PlanCase("/unsafe/adaptive-fit-in/-60x290/left/top/a.png", source: [442, 952], trimmed: nil, crop: nil, size: [60, 129], canvas: nil, flips: [true, false], output: [60, 129]),
        PlanCase("/unsafe/231x62:1168x374/adaptive-fit-in/-683x-694/filters:rotate(180)/a.png", source: [1444, 1248], trimmed: nil, crop: [231, 62, 937, 312], size: [694, 231], canvas: nil, flips: [true, true], output: [694, 231]),
        PlanCase("/unsafe/full-fit-in/-0x667/left/filters:rotate(90):stretch()/a.png", source: [1000, 500], trimmed: nil, crop: nil, size: [1334, 667], canvas: nil, flips: [true, false], output: [667, 1334]),
        PlanCase("/unsafe/right/middle/a.png", source: [333, 777], trimmed: nil, crop: nil, size: [333, 777], canvas: nil, flips: [false, false], output: [333, 777]),
        PlanCase("/unsafe/94x1378:407x102/-668x0/a.png", source: [987, 1448], trimmed: nil, crop: nil, size: [668, 980], canvas: nil, flips: [true, false], output: [668, 980]),
        PlanCase("/unsafe/adaptive-fit-in/384x615/left/filters:rotate(90)/a.png", source: [42, 846], trimmed: nil, crop: nil, size: [31, 615], canvas: nil, flips: [false, false], output: [615, 31]),
        PlanCase("/unsafe/fit-in/480x219/bottom/filters:rotate(180):no_upscale()/a.png", source: [945, 528], trimmed: nil, crop: nil, size: [392, 219], canvas: nil, flips: [false, false], output: [392, 219]),
        PlanCase("/unsafe/x1415/bottom/filters:no_upscale()/a.png", source: [202, 1210], trimmed: nil, crop: nil, size: [202, 1210], canvas: nil, flips: [false, false], output: [202, 1210]),
        PlanCase("/unsafe/adaptive-full-fit-in/center/a.png", source: [704, 1494], trimmed: nil, crop: nil, size: [704, 1494], canvas: nil, flips: [false, false], output: [704, 1494]),
    ]

    @Test(arguments: cases)
    func plansLikeThumbor(_ expected: PlanCase) throws {
        let request = try ThumborURLParser.parse(expected.path)
        let plan = request.plan(sourceSize: expected.source, trimmedRegion: expected.trimmed)
        #expect(plan.crop == expected.crop)
        #expect(plan.size == expected.size)
        #expect(plan.canvas == expected.canvas)
        #expect([plan.flipsHorizontally, plan.flipsVertically] == expected.flips)
        // Applying the plan in its documented order gives thumbor's output size.
        var result = plan.size
        for filter in request.filters {
            switch filter {
            case .rotate(let degrees) where degrees % 180 == 90: result = PixelSize(width: result.height, height: result.width)
            case .fill: result = try #require(plan.canvas)
            default: break
            }
        }
        #expect(result == expected.output)
    }

    @Test func withoutTrimTheTrimmedRegionIsIgnored() throws {
        let request = try ThumborURLParser.parse("/unsafe/100x100/a.png")
        #expect(request.plan(sourceSize: PixelSize(width: 400, height: 300), trimmedRegion: PixelRect(x: 50, y: 40, width: 300, height: 220))
            == request.plan(sourceSize: PixelSize(width: 400, height: 300)))
    }

    @Test func placementCentresTheImageRoundingDown() {
        let plan = ThumborPlan(size: PixelSize(width: 300, height: 151), canvas: PixelSize(width: 300, height: 300))
        #expect(plan.placement(of: plan.size) == PixelRect(x: 0, y: 74, width: 300, height: 151))
        // Larger than the canvas: a negative origin, rounded down as Python's `//`.
        #expect(plan.placement(of: PixelSize(width: 301, height: 10)) == PixelRect(x: -1, y: 145, width: 301, height: 10))
        #expect(ThumborPlan(size: PixelSize(width: 1, height: 1)).placement(of: PixelSize(width: 1, height: 1)) == nil)
    }

    /// Sizes where thumbor itself fails (a side rounding to 0, division by zero, `orig`
    /// without the other side): the plan stays at least 1 pixel on every side, inside the source.
    @Test(arguments: [
        ("/unsafe/x100/a.png", PixelSize(width: 10, height: 10000)),
        ("/unsafe/100x/a.png", PixelSize(width: 10000, height: 10)),
        ("/unsafe/fit-in/x1/a.png", PixelSize(width: 10, height: 10000)),
        ("/unsafe/full-fit-in/1x/a.png", PixelSize(width: 10000, height: 10)),
        ("/unsafe/origx/a.png", PixelSize(width: 30, height: 20)),
        ("/unsafe/xorig/filters:upscale():fill(red)/a.png", PixelSize(width: 30, height: 20)),
        ("/unsafe/fit-in/origxorig/filters:upscale():fill(red)/a.png", PixelSize(width: 30, height: 20)),
        ("/unsafe/1x1/a.png", PixelSize(width: 1, height: 1)),
        ("/unsafe/999999999x1/a.png", PixelSize(width: 3, height: 2)),
        ("/unsafe/fit-in/999999999x999999999/filters:upscale()/a.png", PixelSize(width: 3, height: 2)),
        ("/unsafe/5x5:5x5/a.png", PixelSize(width: 3, height: 2)),
        ("/unsafe/a.png", PixelSize(width: 0, height: 0)),
    ])
    func degenerateSizesStayValid(path: String, source: PixelSize) throws {
        let plan = try ThumborURLParser.parse(path).plan(sourceSize: source)
        #expect(!plan.size.isEmpty)
        if let crop = plan.crop {
            #expect(!crop.isEmpty)
            #expect(PixelRect(x: 0, y: 0, size: source).contains(crop))
        }
        if let canvas = plan.canvas { #expect(!canvas.isEmpty) }
    }

    @Test func origTakesTheImageSideWhereThumborWouldFail() throws {
        #expect(try ThumborURLParser.parse("/unsafe/origx/a.png").plan(sourceSize: PixelSize(width: 30, height: 20)).size == PixelSize(width: 30, height: 20))
        #expect(try ThumborURLParser.parse("/unsafe/0xorig/a.png").plan(sourceSize: PixelSize(width: 30, height: 20)).size == PixelSize(width: 30, height: 20))
    }

    @Test func enormousRequestsResizeToWhatIsAsked() throws {
        // The server's output limits refuse these; the plan itself neither traps nor clamps.
        let plan = try ThumborURLParser.parse("/unsafe/999999999x999999999/a.png").plan(sourceSize: PixelSize(width: 4000, height: 3000))
        #expect(plan.size == PixelSize(width: 999_999_999, height: 999_999_999))
    }
}
