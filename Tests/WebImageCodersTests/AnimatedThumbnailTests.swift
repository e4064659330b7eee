import Foundation
import Testing
import WebImageTestSupport
import WebImageCoders
import WebImageCore

/// Thumbnails of animations are composited at thumbnail size (every frame area-averaged into a
/// canvas of the target size): each frame matches the full-size decode of that frame downscaled
/// with a box filter, within a tolerance (exactly where frame edges fall on the thumbnail's pixel
/// grid; approximately where they cut a thumbnail pixel).
@Suite(.onOwnThreads) struct AnimatedThumbnailTests {
    typealias Builder = GIFCoderTests.Builder

    /// A deterministic pseudo-random sequence.
    struct Noise {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// Indices of a `width` x `height` image: blocks of `block` pixels of one palette index, with
    /// `transparent` (if any) among them.
    static func blocks(width: Int, height: Int, block: Int, colors: Int, noise: inout Noise) -> [Int] {
        let columns = (width + block - 1) / block, rows = (height + block - 1) / block
        let cells = (0..<columns * rows).map { _ in noise.next(colors) }
        return (0..<height).flatMap { y in (0..<width).map { x in cells[(y / block) * columns + x / block] } }
    }

    /// A 40x40 GIF of 5 frames: a full opaque frame, then sub-frames with a transparent index
    /// and disposals none, background (2), previous (3), one interlaced. `offset` moves the
    /// sub-frames off a 4-pixel grid.
    static func gif(offset: Int = 0) -> Data {
        var noise = Noise(state: 7)
        var gif = Builder(width: 40, height: 40, globalPalette: GIFCoderTests.palette)
        gif.loop(0)
        gif.control(disposal: 1, delay: 10, transparent: nil)
        gif.image(x: 0, y: 0, width: 40, height: 40, indices: blocks(width: 40, height: 40, block: 4, colors: 4, noise: &noise))
        gif.control(disposal: 2, delay: 10, transparent: 3)
        gif.image(x: 8 + offset, y: 4 + offset, width: 16, height: 20, indices: blocks(width: 16, height: 20, block: 2, colors: 4, noise: &noise))
        gif.control(disposal: 3, delay: 10, transparent: 0)
        gif.image(x: 4 + offset, y: 12 + offset, width: 20, height: 12, indices: blocks(width: 20, height: 12, block: 4, colors: 4, noise: &noise))
        gif.control(disposal: 1, delay: 10, transparent: 2)
        let rows = blocks(width: 24, height: 16, block: 4, colors: 4, noise: &noise)
        // Interlaced: stored rows 0, 8, 4, 12, 2, 6, 10, 14, 1, 3, ...
        let order = Array(stride(from: 0, to: 16, by: 8)) + Array(stride(from: 4, to: 16, by: 8))
            + Array(stride(from: 2, to: 16, by: 4)) + Array(stride(from: 1, to: 16, by: 2))
        gif.image(x: 12 + offset, y: 20 + offset, width: 24, height: 16,
                  indices: order.flatMap { y in rows[y * 24..<(y + 1) * 24] }, interlaced: true)
        gif.control(disposal: 0, delay: 10, transparent: 1)
        gif.image(x: 0, y: 28, width: 40, height: 12, indices: blocks(width: 40, height: 12, block: 4, colors: 4, noise: &noise))
        gif.end()
        return gif.data
    }

    /// One APNG frame: its rectangle, operations and RGBA pixels.
    struct APNGFrame {
        var x: Int, y: Int, width: Int, height: Int
        var dispose: Int, blend: Int
        var pixels: [[Int]]
    }

    /// RGBA rows of `width` x `height` in blocks of `block` pixels, colors from `palette`.
    static func rgba(width: Int, height: Int, block: Int, palette: [[Int]], noise: inout Noise) -> [[Int]] {
        let columns = (width + block - 1) / block, rows = (height + block - 1) / block
        let cells = (0..<columns * rows).map { _ in palette[noise.next(palette.count)] }
        return (0..<height).map { y in (0..<width).flatMap { x in cells[(y / block) * columns + x / block] } }
    }

    /// An APNG of `frames` on a `width` x `height` canvas, frame 0 the default image.
    static func apng(width: Int, height: Int, frames: [APNGFrame]) -> Data {
        var png = PNGBuilder()
        png.header(width: width, height: height, bitDepth: 8, colorType: 6)
        png.chunk("acTL", PNGBuilder.be32(frames.count) + PNGBuilder.be32(0))
        var sequence = 0
        for (index, frame) in frames.enumerated() {
            png.chunk("fcTL", PNGBuilder.be32(sequence) + PNGBuilder.be32(frame.width) + PNGBuilder.be32(frame.height)
                + PNGBuilder.be32(frame.x) + PNGBuilder.be32(frame.y) + PNGBuilder.be16(1) + PNGBuilder.be16(10)
                + [UInt8(frame.dispose), UInt8(frame.blend)])
            sequence += 1
            let raw = PNGBuilder.rawRows(frame.pixels, bitDepth: 8)
            if index == 0 {
                png.imageData(raw)
            } else {
                png.chunk("fdAT", PNGBuilder.be32(sequence) + PNGBuilder.zlibStored(raw))
                sequence += 1
            }
        }
        png.end()
        return png.data
    }

    /// A 40x40 APNG of 5 frames: opaque and translucent colors, blend over and source, dispose
    /// none, background and previous. `offset` moves the sub-frames off a 4-pixel grid.
    static func apng(offset: Int = 0) -> Data {
        var noise = Noise(state: 11)
        let opaque = [[255, 0, 0, 255], [0, 128, 255, 255], [20, 200, 40, 255], [250, 250, 250, 255]]
        let mixed = [[255, 255, 0, 255], [0, 0, 0, 0], [0, 0, 255, 128], [255, 0, 255, 64]]
        return apng(width: 40, height: 40, frames: [
            APNGFrame(x: 0, y: 0, width: 40, height: 40, dispose: 0, blend: 0,
                      pixels: rgba(width: 40, height: 40, block: 4, palette: opaque, noise: &noise)),
            APNGFrame(x: 8 + offset, y: 8 + offset, width: 16, height: 16, dispose: 2, blend: 1,
                      pixels: rgba(width: 16, height: 16, block: 2, palette: mixed, noise: &noise)),
            APNGFrame(x: 20 + offset, y: 4 + offset, width: 12, height: 24, dispose: 1, blend: 0,
                      pixels: rgba(width: 12, height: 24, block: 4, palette: mixed, noise: &noise)),
            APNGFrame(x: 4 + offset, y: 24 + offset, width: 28, height: 12, dispose: 2, blend: 0,
                      pixels: rgba(width: 28, height: 12, block: 4, palette: opaque + mixed, noise: &noise)),
            APNGFrame(x: 0, y: 20, width: 40, height: 20, dispose: 0, blend: 1,
                      pixels: rgba(width: 40, height: 20, block: 4, palette: mixed, noise: &noise)),
        ])
    }

    /// The largest and the mean difference of premultiplied channels (and alpha) between two
    /// bitmaps of one size.
    static func difference(_ a: Bitmap, _ b: Bitmap) -> (max: Int, mean: Double) {
        var largest = 0, total = 0, count = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                let pa = Int(p.alpha), qa = Int(q.alpha)
                let pairs = [(Int(p.red) * pa / 255, Int(q.red) * qa / 255), (Int(p.green) * pa / 255, Int(q.green) * qa / 255),
                             (Int(p.blue) * pa / 255, Int(q.blue) * qa / 255), (pa, qa)]
                for (u, v) in pairs {
                    largest = max(largest, abs(u - v))
                    total += abs(u - v)
                    count += 1
                }
            }
        }
        return (largest, Double(total) / Double(max(1, count)))
    }

    /// `bitmap` box-averaged (premultiplied) to `size`, source pixel (x, y) falling in target
    /// pixel (x * width / source width, y * height / source height): the pixel-to-box mapping the
    /// thumbnail decode uses, so that only its compositing approximations remain in the
    /// difference (Core's box filter weighs fractional pixels at non-integer ratios).
    static func boxDownscale(_ bitmap: Bitmap, to size: PixelSize) throws -> Bitmap {
        var sums = [Int](repeating: 0, count: size.width * size.height * 5)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap[x, y]
                let index = ((y * size.height / bitmap.height) * size.width + x * size.width / bitmap.width) * 5
                let alpha = Int(p.alpha)
                sums[index] += Int(p.red) * alpha
                sums[index + 1] += Int(p.green) * alpha
                sums[index + 2] += Int(p.blue) * alpha
                sums[index + 3] += alpha
                sums[index + 4] += 1
            }
        }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: sums.count, by: 5) {
            let alphaSum = sums[index + 3]
            guard alphaSum > 0 else {
                bytes += [0, 0, 0, 0]
                continue
            }
            bytes += (0..<3).map { UInt8((sums[index + $0] + alphaSum / 2) / alphaSum) }
            bytes.append(UInt8((alphaSum + sums[index + 4] / 2) / sums[index + 4]))
        }
        return try Bitmap(width: size.width, height: size.height, bytes: bytes, hasAlpha: true)
    }

    /// Every frame of `data` decoded as a `target` thumbnail against the full decode downscaled
    /// with Core's box filter (`exactBoxes: false`) or ``boxDownscale(_:to:)``.
    static func compare(_ data: Data, coder: any AnimatedImageCoder, target: PixelSize, exactBoxes: Bool = false) throws -> [(max: Int, mean: Double)] {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = target
        options.preserveAspectRatio = false
        let thumbnail = try coder.makeAnimatedImageProvider(for: data, options: options)
        let full = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        #expect(thumbnail.pixelSize == target)
        #expect(thumbnail.frameCount == full.frameCount)
        return try (0..<full.frameCount).map { index in
            let frame = try full.frame(at: index)
            let reference = exactBoxes ? try boxDownscale(frame, to: target) : try frame.resampled(to: target, filter: .box)
            let small = try thumbnail.frame(at: index)
            #expect(small.size == target)
            return difference(small, reference)
        }
    }

    // MARK: - GIF

    @Test func aGIFThumbnailOnTheGridMatchesTheFullDecodeDownscaled() throws {
        let differences = try Self.compare(Self.gif(), coder: GIFCoder(), target: PixelSize(width: 10, height: 10))
        for (index, difference) in differences.enumerated() {
            #expect(difference.max <= 2, "frame \(index): \(difference)")
        }
    }

    @Test func aGIFThumbnailOffTheGridIsCloseToTheFullDecodeDownscaled() throws {
        for target in [PixelSize(width: 10, height: 10), PixelSize(width: 13, height: 7)] {
            let differences = try Self.compare(Self.gif(offset: 1), coder: GIFCoder(), target: target, exactBoxes: true)
            for (index, difference) in differences.enumerated() {
                // Measured: mean 0-6.1, largest 76 (a thumbnail pixel at a frame edge over
                // detailed content, where the box under the frame is not one colour).
                #expect(difference.mean <= 8 && difference.max <= 96, "\(target) frame \(index): \(difference)")
            }
        }
    }

    /// A scale-down budget (`scaleDownLimitBytes`) takes the same frame-by-frame path: 5 frames
    /// of 20x20 RGBA fit 8,000 bytes.
    @Test func aScaleDownOfAGIFIsCompositedAtTheSmallerSize() throws {
        var options = ImageDecodeOptions()
        options.scaleDownLimitBytes = 5 * 20 * 20 * 4
        let data = Self.gif()
        let image = try GIFCoder().decode(data, options: options)
        #expect(image.pixelSize == PixelSize(width: 20, height: 20))
        #expect(image.metadata.contains(.thumbnail))
        let full = try GIFCoder().makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        for index in 0..<5 {
            let reference = try full.frame(at: index).resampled(to: PixelSize(width: 20, height: 20), filter: .box)
            let difference = Self.difference(try image.frame(at: index).bitmap, reference)
            #expect(difference.max <= 2, "frame \(index): \(difference)")
        }
    }

    /// Going back (a restart from the keyframe) and random access give the same thumbnails as
    /// playing in order.
    @Test func aGIFThumbnailFrameIsTheSameInAnyOrder() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 10, height: 10)
        let data = Self.gif(offset: 1)
        let inOrder = try GIFCoder().makeAnimatedImageProvider(for: data, options: options)
        let frames = try (0..<inOrder.frameCount).map { try inOrder.frame(at: $0) }
        let backwards = try GIFCoder().makeAnimatedImageProvider(for: data, options: options)
        for index in (0..<backwards.frameCount).reversed() {
            #expect(try backwards.frame(at: index) == frames[index], "frame \(index)")
        }
    }

    // MARK: - APNG

    @Test func anAPNGThumbnailOnTheGridMatchesTheFullDecodeDownscaled() throws {
        let differences = try Self.compare(Self.apng(), coder: PNGCoder(), target: PixelSize(width: 10, height: 10))
        for (index, difference) in differences.enumerated() {
            #expect(difference.max <= 2, "frame \(index): \(difference)")
        }
    }

    @Test func anAPNGThumbnailOffTheGridIsCloseToTheFullDecodeDownscaled() throws {
        for target in [PixelSize(width: 10, height: 10), PixelSize(width: 13, height: 7)] {
            let differences = try Self.compare(Self.apng(offset: 1), coder: PNGCoder(), target: target, exactBoxes: true)
            for (index, difference) in differences.enumerated() {
                // Measured: mean 0-6.1, largest 76 (a thumbnail pixel at a frame edge over
                // detailed content, where the box under the frame is not one colour).
                #expect(difference.mean <= 8 && difference.max <= 96, "\(target) frame \(index): \(difference)")
            }
        }
    }

    @Test func anAPNGThumbnailFrameIsTheSameInAnyOrder() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 10, height: 10)
        let data = Self.apng(offset: 1)
        let inOrder = try PNGCoder().makeAnimatedImageProvider(for: data, options: options)
        let frames = try (0..<inOrder.frameCount).map { try inOrder.frame(at: $0) }
        let backwards = try PNGCoder().makeAnimatedImageProvider(for: data, options: options)
        for index in (0..<backwards.frameCount).reversed() {
            #expect(try backwards.frame(at: index) == frames[index], "frame \(index)")
        }
    }

    /// An interlaced PNG seen as one frame (the provider path) is downsampled pass by pass.
    @Test func anInterlacedPNGThumbnailThroughTheProviderMatchesTheFullDecodeDownscaled() throws {
        let width = 24, height = 16
        func value(_ x: Int, _ y: Int) -> Int { ((x / 4) * 53 + (y / 4) * 97) % 256 }
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var raw: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            let columns = Array(stride(from: x0, to: width, by: dx)), rows = Array(stride(from: y0, to: height, by: dy))
            guard !columns.isEmpty, !rows.isEmpty else { continue }
            raw += PNGBuilder.rawRows(rows.map { y in columns.map { value($0, y) } }, bitDepth: 8)
        }
        var png = PNGBuilder()
        png.header(width: width, height: height, bitDepth: 8, colorType: 0, interlaced: true)
        png.imageData(raw)
        png.end()
        let differences = try Self.compare(png.data, coder: PNGCoder(), target: PixelSize(width: 6, height: 4))
        #expect(differences.count == 1)
        #expect(differences[0].max <= 1, "\(differences[0])")
    }

    /// A truncated GIF frame: the rows that never arrived are transparent in the thumbnail too.
    @Test func aTruncatedGIFFrameLeavesTheMissingRowsTransparent() throws {
        var gif = Builder(width: 8, height: 8, globalPalette: GIFCoderTests.palette)
        gif.image(x: 0, y: 0, width: 8, height: 8, indices: Array(repeating: 1, count: 32))  // half the rows
        gif.end()
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 2, height: 2)
        let provider = try GIFCoder().makeAnimatedImageProvider(for: gif.data, options: options)
        let frame = try provider.frame(at: 0)
        #expect(frame[0, 0] == GIFCoderTests.green && frame[1, 0] == GIFCoderTests.green)
        #expect(frame[0, 1].alpha == 0 && frame[1, 1].alpha == 0)
    }
}
