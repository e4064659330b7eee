import Foundation
import HEIFCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// The core's coder contract (round trip, own output claimed, empty, truncated and corrupt input,
/// bounded thumbnails) for HEIC through libheif's HEVC encoder (x265).
@Suite(.onOwnThreads) struct ContractTests {
    /// Lossy HEVC at quality 100 on the gradient with alpha, 37x23 (odd sides: libheif pads the
    /// coded picture and crops it back, so the crop is exercised too). 4:2:0 chroma and the
    /// lossy alpha plane move a channel by at most a few levels (see the measured worst case
    /// in the test's comment).
    @Test(.enabled(if: HEIFCoder().canEncode(to: .heic), "libheif has no HEVC encoder: skipped"), arguments: ImageCoderContract.Check.allCases)
    func heicWithAlpha(_ check: ImageCoderContract.Check) throws {
        try ImageCoderContract.verify(check, subject: .init(coder: HEIFCoder(), format: .heic, tolerance: 12, preservesAlpha: true))
    }

    /// The same without alpha: the file has no alpha plane and decodes opaque.
    @Test(.enabled(if: HEIFCoder().canEncode(to: .heic), "libheif has no HEVC encoder: skipped"), arguments: ImageCoderContract.Check.allCases)
    func heicOpaque(_ check: ImageCoderContract.Check) throws {
        try ImageCoderContract.verify(check, subject: .init(coder: HEIFCoder(), format: .heic, tolerance: 12, preservesAlpha: false))
    }
}
