import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageServer
#if canImport(Glibc)
import Glibc
#endif

/// The pieces of thumbor's C arithmetic that thumbor's recorded answers
/// (``ThumborFilterAgreementTests``) do not reach: glibc's generator, C's conversions of
/// out-of-range values, the curve's corner cases, tiny images, alpha, animations.
@Suite struct ThumborPixelFilterTests {
    @Test(arguments: [0, 1, 5, 7, 123_456, 2_147_483_647] as [UInt32])
    func randomIsGlibcs(seed: UInt32) throws {
        var ours = ThumborRandom(seed: seed)
        #if canImport(Glibc)
        // glibc's own generator, with a state of its own (random_r), 128 bytes: TYPE_3.
        var state = [CChar](repeating: 0, count: 128)
        var data = random_data()
        var theirs: [Int] = []
        state.withUnsafeMutableBufferPointer { buffer in
            _ = initstate_r(seed, buffer.baseAddress!, 128, &data)
            for _ in 0..<1000 {
                var value: Int32 = 0
                _ = random_r(&data, &value)
                theirs.append(Int(value))
            }
        }
        #expect((0..<1000).map { _ in ours.next() } == theirs)
        #else
        _ = ours
        #endif
    }

    @Test func randomMatchesGlibcsDefaultSequence() {
        // `random()` without `srandom()` in any glibc program.
        var random = ThumborRandom(seed: 1)
        let first: [Int] = (0..<4).map { _ in random.next() }
        #expect(first == [1_804_289_383, 846_930_886, 1_681_692_777, 1_714_636_915])
        var copy = random
        #expect(copy.next() == random.next(), "a copy draws the same numbers")
    }

    @Test func cConversionsOfOutOfRangeValuesAreX86s() {
        #expect(ThumborCArithmetic.int32(truncating: -0.9) == 0)
        #expect(ThumborCArithmetic.int32(truncating: 255.99) == 255)
        #expect(ThumborCArithmetic.int32(truncating: -2_147_483_648.5) == .min)
        #expect(ThumborCArithmetic.int32(truncating: 2_147_483_647.5) == .max)
        #expect(ThumborCArithmetic.int32(truncating: 1e20) == .min)
        #expect(ThumborCArithmetic.int32(truncating: .infinity) == .min)
        #expect(ThumborCArithmetic.byte(truncating: .nan) == 0)
        #expect(ThumborCArithmetic.byte(truncating: 300) == 44)
    }

    @Test func curveTables() {
        let point = ThumborFilter.CurvePoint.init(x:y:)
        #expect(ThumborCurve.table([point(0, 0), point(255, 255)]) == (0...255).map { UInt8($0) })
        // One point: its output everywhere.
        #expect(ThumborCurve.table([point(10, 100)]) == [UInt8](repeating: 100, count: 256))
        // Before the first point its output; from the last point on the last output.
        let ramp = ThumborCurve.table([point(50, 10), point(100, 60)])
        #expect(ramp[0] == 10 && ramp[49] == 10 && ramp[75] == 35 && ramp[100] == 60 && ramp[255] == 60)
        // A segment going backwards draws nothing.
        let backwards = ThumborCurve.table([point(100, 0), point(50, 255)])
        #expect(backwards[49] == 0 && backwards[50] == 255 && backwards[99] == 255 && backwards[255] == 255)
        // Two points with one input: the spline is NaN, its levels 0 (as thumbor answered).
        let twice = ThumborCurve.table([point(0, 0), point(100, 50), point(100, 200), point(255, 255)])
        #expect(twice[50] == 0 && twice[150] == 0 && twice[255] == 255)
        #expect(ThumborCurve.table([]) == [UInt8](repeating: 0, count: 256))
    }

    @Test func convolutionKeepsAnOpaqueImageOpaqueAndConvolvesAlpha() throws {
        let opaque = Pixels.make(width: 9, height: 7, hasAlpha: false) { x, y in RGBAColor(red: UInt8(x * 20), green: UInt8(y * 30), blue: 90) }
        // A kernel that doubles: colours double (clamped), an opaque image's alpha stays 255.
        let doubled = try ThumborConvolution.apply(opaque, kernel: [2], columns: 1, normalize: false)
        #expect(doubled[4, 3] == RGBAColor(red: 160, green: 180, blue: 180, alpha: 255))
        #expect(try ThumborConvolution.apply(opaque, kernel: [0, 0, 1, 0, 0], columns: 5, normalize: false) == opaque)
        // A kernel summing to 0 is not normalised.
        let edges = try ThumborConvolution.apply(opaque, kernel: [-1, 0, 1], columns: 3, normalize: true)
        #expect(edges[4, 3].red == 40 && edges[0, 0].red == 20)
        // Straight alpha is convolved like a colour, as thumbor's RGBA buffer is.
        let alpha = Pixels.make(width: 3, height: 1) { x, _ in RGBAColor(red: 200, green: 0, blue: 0, alpha: x == 1 ? 255 : 0) }
        let blurred = try ThumborConvolution.apply(alpha, kernel: [1, 1, 1], columns: 3, normalize: true)
        // Three thirds of 200 add up to 199.99999999999997 in doubles: truncated, 199 (thumbor's too).
        #expect(blurred[1, 0] == RGBAColor(red: 199, green: 0, blue: 0, alpha: 85))
        #expect(blurred[0, 0].alpha == 85)
    }

    @Test func blurKernelIsThumborsCutGaussian() {
        let kernel = ThumborConvolution.blurKernel(radius: 3, sigma: 1.5)
        #expect(kernel.count == 7)
        #expect(kernel[0] == kernel[6] && kernel[2] == kernel[4] && kernel[3] > kernel[2])
        // Python: math.e ** -(0 / 4.5) / math.sqrt(4.5 * math.pi)
        #expect(kernel[3] == 1 / (4.5 * Double.pi).squareRoot())
    }

    @Test(arguments: [(1, 1), (2, 3), (17, 1), (1, 40), (5, 5), (33, 18)])
    func sharpenMirrorsOnImagesSmallerThanItsWidestHole(width: Int, height: Int) throws {
        let bitmap = Pixels.make(width: width, height: height) { x, y in RGBAColor(red: UInt8((x * 37 + y * 11) % 256), green: UInt8((x * y) % 256), blue: 128, alpha: 200) }
        for luminance in [false, true] {
            let sharpened = try ThumborSharpen.apply(bitmap, amount: 2, radius: 1, luminanceOnly: luminance)
            #expect(sharpened.size == bitmap.size)
            // An amount of 0 gives the image back, within the float arithmetic's truncation.
            let same = try ThumborSharpen.apply(bitmap, amount: 0, radius: 1, luminanceOnly: luminance)
            for y in 0..<height {
                for x in 0..<width {
                    let a = same[x, y], b = bitmap[x, y]
                    #expect(abs(Int(a.red) - Int(b.red)) <= 2 && abs(Int(a.green) - Int(b.green)) <= 2 && a.alpha == b.alpha)
                }
            }
        }
    }

    @Test func equalizeOfOneLevelIsBlackAsThumbors() {
        let flat = Pixels.make(width: 4, height: 4, hasAlpha: false) { _, _ in RGBAColor(red: 90, green: 90, blue: 90) }
        #expect(ThumborEqualize.apply(flat)[2, 2] == RGBAColor(red: 0, green: 0, blue: 0))
    }

    @Test func noiseOfAmountOneChangesNothing() {
        let bitmap = Pixels.smooth(width: 10, height: 10)
        #expect(ThumborNoise.apply(bitmap, amount: 1, random: ThumborRandom(seed: 3)) == bitmap)
        #expect(ThumborNoise.apply(bitmap, amount: 0, random: ThumborRandom(seed: 3)) == bitmap)
        #expect(ThumborNoise.seed(for: "a") == ThumborNoise.seed(for: "a") && ThumborNoise.seed(for: "a") != ThumborNoise.seed(for: "b"))
    }

    /// Filters built by hand, past the parser: a kernel that is not odd rows of odd columns
    /// is a 400, a blur radius out of 1...150 is no blur or thumbor's largest, never a crash.
    @Test func handBuiltFiltersOutsideThumborsRangesAreRefusedOrBounded() async throws {
        let fixture = try ServingFixture()
        for kernel in [([1.0, 2], 1), ([1.0, 2, 1], 0), ([1.0, 2, 1], 2), ([Double](), 1)] {
            let request = ThumborRequest(signedPart: "convolution|\(kernel)", filters: [.convolution(kernel: kernel.0, columns: kernel.1, normalize: true)], source: "b.png")
            let response = await fixture.get(request)
            #expect(response.status == 400 && response.text.contains("odd number of rows"), "\(kernel): \(response.text)")
        }
        for radius in [-5, 0, 1_000_000] {
            let request = ThumborRequest(signedPart: "blur|\(radius)", filters: [.blur(radius: radius, sigma: nil), .format(.png)], source: "b.png")
            let response = await fixture.get(request)
            #expect(response.status == 200, "blur radius \(radius): \(response.text)")
        }
    }

    /// thumbor 7.8 leaves GIF sources unfiltered; this server filters every frame (a
    /// documented difference), noise with the same numbers on each frame.
    @Test func everyFrameOfAnAnimationIsFiltered() async throws {
        let fixture = try ServingFixture()
        for filters in ["sharpen(2,1,true)", "noise(30)", "blur(2)", "convolution(1;2;1,3)", "equalize()", "curve([(0,40),(255,200)],[],[(0,0),(255,255)],[(0,0),(255,255)])"] {
            let response = await fixture.get(path: "/unsafe/filters:\(filters):format(gif)/anim.gif")
            #expect(response.status == 200, "\(filters): \(response.text)")
            let image = try ServingFixture.decode(response)
            #expect(image.frameCount == 3, "\(filters)")
        }
    }
}
