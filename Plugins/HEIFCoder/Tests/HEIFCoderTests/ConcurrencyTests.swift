import Foundation
import HEIFCoder
import Testing
import WebImageTestSupport
import WebImageCore

/// One coder value used from many threads at once: each decode has its own libheif context,
/// so the results are the same as one at a time.
@Suite(.onOwnThreads) struct ConcurrencyTests {
    @Test func concurrentDecodesAgree() async throws {
        let data = try HEIFFileMaker.heic(Pixels.smooth(width: 96, height: 64), thumbnail: Pixels.smooth(width: 96, height: 64), thumbnailSide: 32)
        let coder = HEIFCoder()
        let expected = try coder.decode(data).bitmap
        var thumbnailOptions = ImageDecodeOptions()
        thumbnailOptions.thumbnailPixelSize = PixelSize(width: 32, height: 32)
        let expectedThumbnail = try coder.decode(data, options: thumbnailOptions).bitmap
        let options = thumbnailOptions
        let results = try await withThrowingTaskGroup(of: (Int, Bitmap).self) { group in
            for index in 0..<16 {
                group.addTask {
                    (index, try coder.decode(data, options: index % 2 == 0 ? ImageDecodeOptions() : options).bitmap)
                }
            }
            var all: [(Int, Bitmap)] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 16)
        for (index, bitmap) in results {
            #expect(bitmap.bytes == (index % 2 == 0 ? expected : expectedThumbnail).bytes, "decode \(index)")
        }
    }
}
