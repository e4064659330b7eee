import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageCLIKit

/// The demo's custom coder meets the coder contract every coder meets, and refuses bad data
/// with a clear error.
@Suite struct RunLengthImageCoderTests {
    @Test(arguments: ImageCoderContract.Check.allCases)
    func contract(_ check: ImageCoderContract.Check) throws {
        WebImageCLI.registerLaunchComponents()  // the contract sniffs the format of the output
        try ImageCoderContract.verify(check, subject: .init(coder: RunLengthImageCoder(), format: .wirl))
    }

    @Test func registeredAtLaunchAndAskedFirst() throws {
        WebImageCLI.registerLaunchComponents()
        WebImageCLI.registerLaunchComponents()  // once per process, however often it is called
        // Other tests add and remove coders of their own meanwhile: check the order against the
        // built-in coders only.
        let coders = CodersManager.shared.coders
        let registered = coders.indices.filter { coders[$0] is RunLengthImageCoder }
        #expect(registered.count == 1)
        #expect(registered.first.map { coders[$0] as? RunLengthImageCoder === RunLengthImageCoder.shared } == true)
        let builtIns = coders.indices.filter { index in BuiltInCoders.all.contains { type(of: $0) == type(of: coders[index]) } }
        #expect(builtIns.count == 4)
        #expect(builtIns.allSatisfy { $0 < registered[0] }, "added after the built-in coders, so asked before them")
        #expect(ImageFormat(fileExtension: "wirl") == .wirl)
        #expect(ImageFormat(mimeType: "image/x-wirl") == .wirl)
        #expect(ImageFormat.detect(try Fixtures.wirl()) == .wirl)
        #expect(try CodersManager.shared.decode(try Fixtures.wirl()).format == .wirl)
    }

    static func header(width: Int, height: Int, version: UInt8 = 1) -> [UInt8] {
        Array("WIRL".utf8) + [version, UInt8(width >> 8), UInt8(width & 0xFF), UInt8(height >> 8), UInt8(height & 0xFF), 0]
    }

    static let badData: [([UInt8], String)] = [
        (header(width: 2, height: 1, version: 2) + [2, 1, 2, 3, 255], "WIRL version 2 is not supported"),
        (header(width: 0, height: 1) + [1, 1, 2, 3, 255], "WIRL image size 0x1 is empty"),
        (header(width: 2, height: 1) + [3, 1, 2, 3, 255], "does not fit the 2x1 image"),
        (header(width: 2, height: 1) + [0, 1, 2, 3, 255], "does not fit the 2x1 image"),
        (header(width: 2, height: 2) + [2, 1, 2, 3, 255], "truncated: 2 of 4 pixels"),
        (header(width: 2, height: 1) + [2, 1, 2], "ends inside a run"),
        (Array("WIRL".utf8), "are not WIRL data"),
    ]

    @Test(arguments: badData.indices)
    func rejects(_ index: Int) {
        let (bytes, fragment) = Self.badData[index]
        do {
            _ = try RunLengthImageCoder().decode(Data(bytes))
            Issue.record("accepted \(bytes)")
        } catch let error as WebImageError {
            #expect(error.code == .badImageData)
            #expect(error.message.contains(fragment), "\(error.message)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func checksThePixelLimitBeforeAllocating() {
        var options = ImageDecodeOptions()
        options.maxPixelCount = 100
        let data = Data(Self.header(width: 65535, height: 65535) + [255, 0, 0, 0, 255])
        #expect {
            try RunLengthImageCoder().decode(data, options: options)
        } throws: { error in
            (error as? WebImageError)?.code == .imageTooLarge
        }
    }
}
