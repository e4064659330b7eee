import AVIFCoder
import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// The core's coder contract (round trip, own output claimed, empty, truncated and corrupt input,
/// bounded thumbnails) for each way the coder encodes.
@Suite struct ContractTests {
    /// Quality 1 (the default) is lossless: exact pixels, alpha included.
    @Test(arguments: ImageCoderContract.Check.allCases)
    func lossless(_ check: ImageCoderContract.Check) throws {
        try ImageCoderContract.verify(check, subject: .init(coder: AVIFCoder(speed: 10), format: .avif, tolerance: 0, preservesAlpha: true))
    }
}
