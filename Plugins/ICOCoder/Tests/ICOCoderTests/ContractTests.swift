import Foundation
import ICOCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// The core's coder contract (round trip, own output claimed, empty, truncated and corrupt
/// input, bounded thumbnails): ICO entries are PNG, lossless, alpha included.
@Suite(.onOwnThreads) struct ContractTests {
    @Test(arguments: ImageCoderContract.Check.allCases)
    func singleEntry(_ check: ImageCoderContract.Check) throws {
        try ImageCoderContract.verify(check, subject: .init(coder: ICOCoder(), format: .ico, tolerance: 0, preservesAlpha: true))
    }
}
