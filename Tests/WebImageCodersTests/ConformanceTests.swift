import Foundation
import Testing
import WebImageTestSupport
import WebImageCoders
import WebImageCore

/// The public corpora in ../shared/testdata, against pixel checksums from independent decoders
/// (see Fixtures/ConformanceReferences.swift). Skipped, saying so, when the folder is absent.
@Suite(.onOwnThreads) struct ConformanceTests {
    static let coders = CodersManager(BuiltInCoders.all)

    static func check(_ url: URL, against reference: Reference) throws {
        let data = try Data(contentsOf: url)
        let image = try coders.decode(data)
        #expect(image.pixelSize == PixelSize(width: reference.width, height: reference.height), "\(url.lastPathComponent)")
        #expect(image.frameCount == reference.frameHashes.count, "\(url.lastPathComponent)")
        for (index, hash) in reference.frameHashes.enumerated() where index < image.frameCount {
            #expect(PixelHash.of(try image.frame(at: index).bitmap) == hash, "\(url.lastPathComponent) frame \(index)")
        }
    }

    @Test(.enabled(if: TestData.hasPNGSuite, "../shared/testdata/pngsuite is absent: PngSuite conformance skipped"),
          arguments: ConformanceReferences.pngSuite.keys.sorted())
    func pngSuite(_ name: String) throws {
        try Self.check(TestData.pngSuite.appendingPathComponent(name), against: try #require(ConformanceReferences.pngSuite[name]))
    }

    @Test(.enabled(if: TestData.hasSDWebImage, "../shared/testdata/sdwebimage is absent: SDWebImage image conformance skipped"),
          arguments: ConformanceReferences.sdWebImage.keys.sorted().filter(TestData.isSupported))
    func sdWebImage(_ name: String) throws {
        try Self.check(TestData.sdWebImage.appendingPathComponent(name), against: try #require(ConformanceReferences.sdWebImage[name]))
    }
}
