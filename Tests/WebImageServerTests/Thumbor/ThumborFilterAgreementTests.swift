import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageServer

/// Issue 34's pixel filters (`blur`, `sharpen`, `equalize`, `noise`, `rgb`, `colorize`,
/// `convolution`, `curve`) agree with thumbor 7.8's own answers
/// (`Tests/Fixtures/thumbor/cases/filters.txt`, recorded by `scripts/thumbor-fixtures --only filter-`).
///
/// thumbor's filters are C code on 8-bit pixels; this server repeats their arithmetic, so a PNG
/// answer for an unresized PNG source is the same to the last bit (PSNR infinity). A JPEG
/// source or output, or a resize before the filter, goes through decoders, resamplers or
/// encoders that differ: those cases ask 35 dB. `noise` without a seed is random in thumbor:
/// its cases are compared by statistics.
@Suite struct ThumborFilterAgreementTests {
    /// Whether thumbor's answer for `reference` can be matched to the bit.
    static func isExact(_ reference: ThumborReference.Case) -> Bool {
        !reference.name.hasSuffix("-jpeg") && !reference.name.hasSuffix("-resized")
    }

    /// The cases compared by pixels (all but unseeded noise).
    static let compared = ThumborReference.cases("filter-").filter { !$0.name.hasPrefix("filter-noise-unseeded") }

    @Test func theRecordedReferenceIsPresent() {
        #expect(Self.compared.count >= 50, "Tests/Fixtures/thumbor/expected/manifest.json has the filter cases")
        #expect(ThumborReference.cases("filter-noise-unseeded").count >= 3)
    }

    @Test(arguments: compared)
    func agreesWithThumbor(_ reference: ThumborReference.Case) async throws {
        let fixture = try ThumborReference.makeFixture()
        try await ThumborReference.expectAgreement(reference, with: fixture, minimumPSNR: Self.isExact(reference) ? .infinity : 35)
    }

    /// `noise(amount)` without a seed: thumbor draws from its process's generator, so its
    /// pixels cannot be repeated; this server seeds the same generator from the URL. The
    /// change each pixel gets must have thumbor's distribution: the same mean and spread of
    /// (output - source) over red, green and blue.
    ///
    /// Tolerance: the change is uniform over `amount` integers (deviation
    /// `s = sqrt((amount^2 - 1) / 12)`), one draw per pixel, so over `n` pixels the mean of one
    /// side has a standard error of `s / sqrt(n)` and the deviation about `0.45 s / sqrt(n)`
    /// (the uniform's fourth moment); the difference of the two sides has `sqrt(2)` times that.
    /// 4.5 standard errors of the difference: a correct implementation fails one of the two
    /// checks about once in 70,000 recordings (clipping at 0 and 255 shrinks the spread alike on
    /// both sides). Both sides are fixed (thumbor's recording, this server's seed from the
    /// URL), so a run either always passes or always fails.
    @Test(arguments: ThumborReference.cases("filter-noise-unseeded"))
    func unseededNoiseHasThumborsStatistics(_ reference: ThumborReference.Case) async throws {
        let amount = try #require(Int(reference.path.split(separator: "noise(")[1].prefix { $0.isNumber }))
        let sourceName = try #require(reference.path.split(separator: "/").last)
        let source = try ServingFixture.coders.decode(Data(contentsOf: ThumborReference.sources.appendingPathComponent(String(sourceName))), options: ImageDecodeOptions())
        let expected = try ThumborReference.expectedImage(reference)
        let outcome = await ThumborReference.serve(reference, with: try ThumborReference.makeFixture())
        #expect(outcome.status == reference.status && outcome.type == reference.type)
        let ours = try #require(outcome.image)
        try #require(ours.pixelSize == source.pixelSize && expected.pixelSize == source.pixelSize)

        let theirs = Self.changes(from: source.bitmap, to: expected.bitmap)
        let mine = Self.changes(from: source.bitmap, to: ours.bitmap)
        let n = Double(source.pixelSize.width * source.pixelSize.height)
        let deviation = (Double(amount * amount - 1) / 12).squareRoot()
        let meanTolerance = 4.5 * 2.0.squareRoot() * deviation / n.squareRoot()
        let deviationTolerance = 4.5 * 2.0.squareRoot() * 0.45 * deviation / n.squareRoot()
        #expect(abs(mine.mean - theirs.mean) <= meanTolerance, "mean change \(mine.mean) against thumbor's \(theirs.mean) (tolerance \(meanTolerance))")
        #expect(abs(mine.deviation - theirs.deviation) <= deviationTolerance,
                "deviation of the change \(mine.deviation) against thumbor's \(theirs.deviation) (tolerance \(deviationTolerance))")
        // Noise indeed: most pixels changed.
        #expect(mine.deviation > deviation / 2)
    }

    /// One URL gives one result (a cacheable one); another URL other numbers.
    @Test func unseededNoiseIsTheSameForOneURLAndDiffersBetweenURLs() async throws {
        let path = "/unsafe/filters:format(png):noise(40)/photo.png"
        let first = await (try ThumborReference.makeFixture()).get(path: path)
        let second = await (try ThumborReference.makeFixture()).get(path: path)
        #expect(first.status == 200 && second.status == 200)
        #expect(first.body == second.body)
        let other = await (try ThumborReference.makeFixture()).get(path: "/unsafe/filters:noise(40):format(png)/photo.png")
        #expect(other.status == 200)
        let a = try ServingFixture.decode(first).bitmap, b = try ServingFixture.decode(other).bitmap
        #expect(Pixels.psnr(a, b, includeAlpha: false) < 30, "two URLs, two draws")
        // An explicit seed is thumbor's: the same numbers whatever the URL around it.
        let seeded = await (try ThumborReference.makeFixture()).get(path: "/unsafe/filters:format(png):noise(40,7)/photo.png")
        let reseeded = await (try ThumborReference.makeFixture()).get(path: "/unsafe/filters:noise(40,7):format(png):quality(90)/photo.png")
        #expect(seeded.body == reseeded.body)
    }

    /// The mean and the deviation of every colour channel's change from `source` to `output`.
    static func changes(from source: Bitmap, to output: Bitmap) -> (mean: Double, deviation: Double) {
        var sum = 0.0, squares = 0.0, count = 0.0
        for y in 0..<source.height {
            for x in 0..<source.width {
                let a = source[x, y], b = output[x, y]
                for (before, after) in [(a.red, b.red), (a.green, b.green), (a.blue, b.blue)] {
                    let change = Double(after) - Double(before)
                    sum += change
                    squares += change * change
                    count += 1
                }
            }
        }
        let mean = sum / count
        return (mean, (squares / count - mean * mean).squareRoot())
    }
}
