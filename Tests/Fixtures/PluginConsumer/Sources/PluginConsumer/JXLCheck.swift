import Foundation
import JXLCoder
import SwiftWebImage

/// JXLCoder: registered with one line, then the shared coders write and read lossless JPEG XL.
enum JXLCheck {
    @Sendable static func run() async throws -> String {
        CodersManager.shared.add(JXLCoder(lossless: true))
        let source = WebImage(bitmap: try Scratch.bitmap())
        let data = try CodersManager.shared.encode(source, as: .jpegXL, options: ImageEncodeOptions())
        guard ImageFormat.detect(data) == .jpegXL else { throw CheckFailure("the encoded data is not JPEG XL") }
        let decoded = try CodersManager.shared.decode(data)
        guard decoded.format == .jpegXL, decoded.bitmap == source.bitmap else {
            throw CheckFailure("a lossless round trip gave \(decoded.format) \(decoded.pixelSize), not the same pixels")
        }
        return "registered; lossless round trip of \(decoded.pixelSize) through CodersManager.shared (\(data.count) bytes)"
    }
}
