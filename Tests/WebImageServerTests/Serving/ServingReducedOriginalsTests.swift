import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
import WebImageTransformers
@testable import WebImageServer

@Suite struct ServingReducedOriginalsTests {
    @Test func halvingAveragesEachBlock() throws {
        let bitmap = try Bitmap(width: 3, height: 2, bytes: [
            0, 10, 20, 255, 4, 10, 21, 255, 99, 99, 99, 255,
            8, 10, 22, 255, 13, 11, 23, 255, 99, 99, 99, 255,
        ], hasAlpha: false)
        let half = ReducedOriginals.halved(bitmap)
        #expect(half.size == PixelSize(width: 1, height: 1))
        // (0 + 4 + 8 + 13 + 2) / 4 = 6, (10 + 10 + 10 + 11 + 2) / 4 = 10, (20 + 21 + 22 + 23 + 2) / 4 = 22.
        #expect(half[0, 0] == RGBAColor(red: 6, green: 10, blue: 22))
    }

    @Test func theSmallestCopyAtLeastAsLargeAsTheTargetIsUsed() {
        let reduced = ReducedOriginals(capacity: 1 << 24)
        let original = TestImages.gradient(width: 400, height: 200)
        let whole = PixelRect(x: 0, y: 0, width: 400, height: 200)
        // The smallest copy that still leaves at least a 3x reduction to the resampler.
        let copy = reduced.reduced(original, key: "k", region: whole, target: PixelSize(width: 30, height: 13))
        #expect(copy?.bitmap.size == PixelSize(width: 100, height: 50))
        #expect(copy?.region == PixelRect(x: 0, y: 0, width: 100, height: 50))
        let cropped = reduced.reduced(original, key: "k", region: PixelRect(x: 40, y: 20, width: 200, height: 100), target: PixelSize(width: 16, height: 16))
        #expect(cropped?.region == PixelRect(x: 20, y: 10, width: 100, height: 50))
        #expect(reduced.usage.count == 1)
        // A copy would leave less than 3x: the original itself.
        #expect(reduced.reduced(original, key: "k", region: whole, target: PixelSize(width: 67, height: 30)) == nil)
        // Transparent sources are never box-averaged.
        #expect(reduced.reduced(TestImages.gradient(width: 400, height: 200, alpha: true), key: "a", region: whole, target: PixelSize(width: 50, height: 25)) == nil)
        #expect(ReducedOriginals(capacity: 0).reduced(original, key: "k", region: whole, target: PixelSize(width: 50, height: 25)) == nil)
    }

    /// A copy's region is in whole copy pixels and a copy drops the original's odd last row:
    /// a level that would move the region's edges by more than a sixteenth of an answer's pixel
    /// is not used (thumbor's 3x5 answer of a 180x270 portrait moved by a quarter pixel at 1/16).
    @Test func aCopyThatWouldMoveTheRegionIsNotUsed() {
        let reduced = ReducedOriginals(capacity: 1 << 24)
        let portrait = TestImages.gradient(width: 180, height: 270)
        let crop = PixelRect(x: 9, y: 0, width: 162, height: 270)
        let target = PixelSize(width: 3, height: 5)
        // 1/16 leaves 3.4x but moves the bottom edge by 0.875 of its pixels (0.26 of the answer's).
        #expect(ReducedOriginals.shift(of: crop, in: portrait.size, level: 4, target: target) > 0.25)
        #expect(ReducedOriginals.shift(of: crop, in: portrait.size, level: 3, target: target) > ReducedOriginals.maximumShift)
        #expect(ReducedOriginals.shift(of: crop, in: portrait.size, level: 2, target: target) <= ReducedOriginals.maximumShift)
        let copy = reduced.reduced(portrait, key: "p", region: crop, target: target)
        #expect(copy?.bitmap.size == PixelSize(width: 45, height: 67))
        #expect(copy?.region == PixelRect(x: 2, y: 0, width: 40, height: 67))
        // An even-sided region loses nothing at any level.
        #expect(ReducedOriginals.shift(of: PixelRect(x: 0, y: 0, width: 400, height: 200), in: PixelSize(width: 400, height: 200), level: 2, target: PixelSize(width: 30, height: 13)) == 0)
    }

    @Test func theCapacityBoundsTheCopies() {
        let original = TestImages.gradient(width: 400, height: 200)
        let whole = PixelRect(x: 0, y: 0, width: 400, height: 200)
        // One 200x100 copy is 80,000 bytes: room for one.
        let reduced = ReducedOriginals(capacity: 100_000)
        _ = reduced.reduced(original, key: "a", region: whole, target: PixelSize(width: 60, height: 30))
        _ = reduced.reduced(original, key: "b", region: whole, target: PixelSize(width: 60, height: 30))
        #expect(reduced.usage.count == 1)
        #expect(reduced.usage.cost <= 100_000)
    }

    @Test func aResizeFromACopyMatchesOneFromTheOriginal() async throws {
        let photo = ServingFixture.jpeg(width: 800, height: 600)
        // Without shrink-on-load, which would decode at 1/4 and need no copy.
        let direct = try ServingFixture {
            $0.reducedOriginalsCapacity = 0
            $0.shrinksOnLoad = false
        }
        let pyramid = try ServingFixture { $0.shrinksOnLoad = false }
        try photo.writeWithoutSync(to: direct.root.appendingPathComponent("photo.jpg"))
        try photo.writeWithoutSync(to: pyramid.root.appendingPathComponent("photo.jpg"))
        let path = "/unsafe/fit-in/60x60/filters:format(png)/photo.jpg"
        let a = try ServingFixture.decode(await direct.get(path: path)).bitmap
        let b = try ServingFixture.decode(await pyramid.get(path: path)).bitmap
        #expect(a.size == PixelSize(width: 60, height: 45))
        #expect(b.size == a.size)
        #expect(pyramid.server.reducedOriginals.usage.count == 1)
        #expect(direct.server.reducedOriginals.usage.count == 0)
        var total = 0
        for (p, q) in zip(a.bytes, b.bytes) { total += abs(Int(p) - Int(q)) }
        #expect(Double(total) / Double(a.bytes.count) < 2.0)
    }
}
