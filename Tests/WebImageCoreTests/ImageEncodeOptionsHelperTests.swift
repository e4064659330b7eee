import Foundation
import Testing
import WebImageCore

/// The encode helpers every plug-in encoder shares (issue 32): fitting to `maxPixelSize` and the
/// search for the largest output under `maxFileSize`.
@Suite struct ImageEncodeOptionsHelperTests {
    @Test func fittingKeepsTheAspectRatioAndNeverEnlarges() throws {
        var options = ImageEncodeOptions()
        #expect(options.fittedSize(for: PixelSize(width: 400, height: 300)) == nil, "no limit")
        options.maxPixelSize = PixelSize(width: 100, height: 100)
        #expect(options.fittedSize(for: PixelSize(width: 400, height: 300)) == PixelSize(width: 100, height: 75))
        #expect(options.fittedSize(for: PixelSize(width: 30, height: 300)) == PixelSize(width: 10, height: 100))
        #expect(options.fittedSize(for: PixelSize(width: 90, height: 60)) == nil, "fits already")
        #expect(options.fittedSize(for: PixelSize(width: 1000, height: 1)) == PixelSize(width: 100, height: 1), "at least one pixel")
        let bitmap = try Bitmap(width: 40, height: 20, fill: RGBAColor(red: 10, green: 20, blue: 30, alpha: 255), hasAlpha: false)
        options.maxPixelSize = PixelSize(width: 10, height: 10)
        #expect(try options.fitted(bitmap).size == PixelSize(width: 10, height: 5))
        options.maxPixelSize = nil
        #expect(try options.fitted(bitmap) == bitmap)
    }

    @Test func theSearchFindsTheHighestStepUnderTheLimitInLogarithmicEncodes() throws {
        // Output size grows with the step: step s gives 100 + 10 s bytes.
        var calls = 0
        let encode = { (step: Int) -> Data in
            calls += 1
            return Data(count: 100 + 10 * step)
        }
        let best = try ImageEncodeOptions.largestOutput(fitting: 555, steps: 90, encode)
        #expect(best.count == 550, "step 45 is the last under 555 bytes")
        #expect(calls <= 8, "\(calls) encodes for 90 steps")
        calls = 0
        #expect(try ImageEncodeOptions.largestOutput(fitting: 50, steps: 90, encode).count == 100, "nothing fits: the lowest step")
        #expect(try ImageEncodeOptions.largestOutput(fitting: 50, steps: 0, encode).count == 100, "no step below: the lowest")
    }
}
