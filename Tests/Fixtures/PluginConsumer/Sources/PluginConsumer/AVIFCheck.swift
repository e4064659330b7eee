import Foundation
import AVIFCoder
import SwiftWebImage

/// AVIFCoder: registered with one line, then the shared coders write and read AVIF (quality 1
/// is lossless in AVIFCoder, so the pixels come back exactly).
enum AVIFCheck {
    @Sendable static func run() async throws -> String {
        CodersManager.shared.add(AVIFCoder())
        let source = WebImage(bitmap: try Scratch.bitmap())
        let data = try CodersManager.shared.encode(source, as: .avif, options: ImageEncodeOptions())
        guard ImageFormat.detect(data) == .avif else { throw CheckFailure("the encoded data is not AVIF") }
        let decoded = try CodersManager.shared.decode(data)
        guard decoded.format == .avif, decoded.bitmap == source.bitmap else {
            throw CheckFailure("a lossless round trip gave \(decoded.format) \(decoded.pixelSize), not the same pixels")
        }
        return "registered; lossless round trip of \(decoded.pixelSize) through CodersManager.shared (\(data.count) bytes)"
    }
}
