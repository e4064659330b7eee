import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageServer

/// thumbor's geometry end to end, through real URL paths, on a 200x100 JPEG.
@Suite struct ServingGeometryTests {
    let fixture: ServingFixture

    init() throws {
        fixture = try ServingFixture()
        try ServingFixture.jpeg(width: 200, height: 100).writeWithoutSync(to: fixture.root.appendingPathComponent("wide.jpg"))
    }

    private func size(_ path: String) async throws -> PixelSize {
        let response = await fixture.get(path: path)
        try #require(response.status == 200, "\(path): \(response.status) \(response.text)")
        return try ServingFixture.decode(response).pixelSize
    }

    @Test(arguments: [
        ("/unsafe/100x50/wide.jpg", PixelSize(width: 100, height: 50)),
        ("/unsafe/50x50/wide.jpg", PixelSize(width: 50, height: 50)),
        ("/unsafe/0x25/wide.jpg", PixelSize(width: 50, height: 25)),
        ("/unsafe/80x0/wide.jpg", PixelSize(width: 80, height: 40)),
        ("/unsafe/fit-in/50x50/wide.jpg", PixelSize(width: 50, height: 25)),
        ("/unsafe/fit-in/400x400/wide.jpg", PixelSize(width: 200, height: 100)),
        ("/unsafe/fit-in/400x400/filters:upscale()/wide.jpg", PixelSize(width: 400, height: 200)),
        ("/unsafe/10x10:110x60/wide.jpg", PixelSize(width: 100, height: 50)),
        ("/unsafe/10x10:110x60/50x0/wide.jpg", PixelSize(width: 50, height: 25)),
        ("/unsafe/-100x-50/wide.jpg", PixelSize(width: 100, height: 50)),
        ("/unsafe/fit-in/100x100/filters:fill(red)/wide.jpg", PixelSize(width: 100, height: 100)),
        ("/unsafe/fit-in/100x100/filters:rotate(90)/wide.jpg", PixelSize(width: 50, height: 100)),
        ("/unsafe/60x60/filters:stretch()/wide.jpg", PixelSize(width: 60, height: 60)),
        ("/unsafe/400x200/filters:no_upscale()/wide.jpg", PixelSize(width: 200, height: 100)),
        ("/unsafe/50x50/smart/wide.jpg", PixelSize(width: 50, height: 50)),
        ("/unsafe/50x50/left/top/wide.jpg", PixelSize(width: 50, height: 50)),
    ])
    func sizesFollowThumbor(path: String, expected: PixelSize) async throws {
        #expect(try await size(path) == expected)
    }

    @Test func alignmentPicksThePartKept() async throws {
        // The gradient's red rises left to right: a left crop is darker than a right one.
        let left = try ServingFixture.decode(await fixture.get(path: "/unsafe/50x100/left/filters:format(png)/wide.jpg")).bitmap
        let right = try ServingFixture.decode(await fixture.get(path: "/unsafe/50x100/right/filters:format(png)/wide.jpg")).bitmap
        #expect(Int(left[25, 50].red) + 100 < Int(right[25, 50].red))
    }

    @Test func fillPutsTheImageInTheMiddle() async throws {
        let image = try ServingFixture.decode(await fixture.get(path: "/unsafe/fit-in/100x100/filters:fill(ff0000):format(png)/wide.jpg")).bitmap
        #expect(image[0, 0] == RGBAColor(red: 255, green: 0, blue: 0))
        #expect(image[99, 99] == RGBAColor(red: 255, green: 0, blue: 0))
        #expect(image[50, 50] != RGBAColor(red: 255, green: 0, blue: 0))
    }

    @Test func aHorizontalFlipMirrors() async throws {
        let plain = try ServingFixture.decode(await fixture.get(path: "/unsafe/100x50/filters:format(png)/wide.jpg")).bitmap
        let flipped = try ServingFixture.decode(await fixture.get(path: "/unsafe/-100x50/filters:format(png)/wide.jpg")).bitmap
        #expect(abs(Int(plain[0, 10].red) - Int(flipped[99, 10].red)) <= 2)
        #expect(abs(Int(plain[99, 10].red) - Int(flipped[0, 10].red)) <= 2)
    }
}

extension ServingGeometryTests {
    @Test func trimKeepsWhatDiffersFromTheCorner() async throws {
        var bitmap = TestImages.solid(.white, width: 60, height: 40)
        for y in 15..<25 {
            for x in 20..<40 { bitmap[x, y] = RGBAColor(red: 255, green: 0, blue: 0) }
        }
        try PNGCoder().encode(WebImage(bitmap: bitmap), as: .png).writeWithoutSync(to: fixture.root.appendingPathComponent("bordered.png"))
        #expect(try await size("/unsafe/trim/bordered.png") == PixelSize(width: 20, height: 10))
        #expect(try await size("/unsafe/bordered.png") == PixelSize(width: 60, height: 40))
    }

    @Test func aResultOverTheOutputLimitIs400() async throws {
        let limited = try ServingFixture { $0.maximumOutputDimension = 100 }
        try ServingFixture.jpeg(width: 200, height: 100).writeWithoutSync(to: limited.root.appendingPathComponent("wide.jpg"))
        let response = await limited.get(path: "/unsafe/origx0/wide.jpg")
        #expect(response.status == 400, "\(response.text)")
        #expect(await limited.get(path: "/unsafe/100x0/wide.jpg").status == 200)
    }
}
