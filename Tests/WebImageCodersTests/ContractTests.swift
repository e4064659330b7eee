import Foundation
import Testing
import WebImageTestSupport
import WebImageCoders
import WebImageCore

/// The core coder contract (round trip, own output, empty, truncated, corrupt, thumbnail) run
/// on every built-in coder.
@Suite(.onOwnThreads) struct ContractTests {
    static let subjects: [ImageCoderContract.Subject] = [
        .init(coder: PNGCoder(), format: .png, tolerance: 0, preservesAlpha: true),
        .init(coder: JPEGCoder(), format: .jpeg, tolerance: 12, preservesAlpha: false),
        .init(coder: GIFCoder(), format: .gif, tolerance: 24, preservesAlpha: false),
        .init(coder: BMPCoder(), format: .bmp, tolerance: 0, preservesAlpha: true),
    ]

    @Test(arguments: ImageCoderContract.Check.allCases, subjects.indices)
    func contract(_ check: ImageCoderContract.Check, _ subject: Int) throws {
        try ImageCoderContract.verify(check, subject: Self.subjects[subject])
    }

    @Test func builtInCodersCoverEveryFormat() throws {
        let manager = CodersManager(BuiltInCoders.all)
        for format in [ImageFormat.jpeg, .png, .gif, .bmp] {
            #expect(manager.canEncode(to: format), "no built-in coder encodes \(format)")
            let data = try manager.encode(TestImages.still(width: 9, height: 7), as: format)
            let image = try manager.decode(data)
            #expect(image.format == format)
            #expect(image.pixelSize == PixelSize(width: 9, height: 7))
        }
    }
}
