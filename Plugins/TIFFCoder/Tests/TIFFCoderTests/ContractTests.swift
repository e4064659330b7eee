import Foundation
import Testing
import TIFFCoder
import WebImageCore
import WebImageTestSupport

/// The core's coder contract (round trip, own output claimed, empty, truncated and corrupt
/// input, bounded thumbnails) for each compression the coder writes: TIFF is lossless, alpha
/// included.
@Suite(.onOwnThreads) struct ContractTests {
    @Test(arguments: ImageCoderContract.Check.allCases)
    func deflate(_ check: ImageCoderContract.Check) throws {
        try ImageCoderContract.verify(check, subject: .init(coder: TIFFCoder(), format: .tiff, tolerance: 0, preservesAlpha: true))
    }

    @Test(arguments: ImageCoderContract.Check.allCases)
    func lzw(_ check: ImageCoderContract.Check) throws {
        try ImageCoderContract.verify(check, subject: .init(coder: TIFFCoder(compression: .lzw), format: .tiff, tolerance: 0, preservesAlpha: true))
    }

    @Test(arguments: ImageCoderContract.Check.allCases)
    func opaqueUncompressed(_ check: ImageCoderContract.Check) throws {
        try ImageCoderContract.verify(check, subject: .init(coder: TIFFCoder(compression: .none), format: .tiff, tolerance: 0, preservesAlpha: false))
    }
}
