import Foundation
import SwiftWebImage
import WebPCoder

/// WebPCoder: registered with one line, then the shared coders write and read WebP.
enum WebPCheck {
    @Sendable static func run() async throws -> String {
        CodersManager.shared.add(WebPCoder(lossless: true))
        let source = WebImage(bitmap: try Scratch.bitmap())
        let data = try CodersManager.shared.encode(source, as: .webp, options: ImageEncodeOptions())
        guard ImageFormat.detect(data) == .webp else { throw CheckFailure("the encoded data is not WebP") }
        let decoded = try CodersManager.shared.decode(data)
        guard decoded.format == .webp, decoded.bitmap == source.bitmap else {
            throw CheckFailure("a lossless round trip gave \(decoded.format) \(decoded.pixelSize), not the same pixels")
        }
        return "registered; lossless round trip of \(decoded.pixelSize) through CodersManager.shared (\(data.count) bytes)"
    }
}
