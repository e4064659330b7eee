import Foundation
import SwiftWebImage
import TIFFCoder

/// TIFFCoder: registered with one line, then the shared coders write and read TIFF (lossless:
/// the pixels come back exactly).
enum TIFFCheck {
    @Sendable static func run() async throws -> String {
        CodersManager.shared.add(TIFFCoder())
        let source = WebImage(bitmap: try Scratch.bitmap())
        let data = try CodersManager.shared.encode(source, as: .tiff, options: ImageEncodeOptions())
        guard ImageFormat.detect(data) == .tiff else { throw CheckFailure("the encoded data is not TIFF") }
        let decoded = try CodersManager.shared.decode(data)
        guard decoded.format == .tiff, decoded.bitmap == source.bitmap else {
            throw CheckFailure("a lossless round trip gave \(decoded.format) \(decoded.pixelSize), not the same pixels")
        }
        return "registered; lossless round trip of \(decoded.pixelSize) through CodersManager.shared (\(data.count) bytes)"
    }
}
