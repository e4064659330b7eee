import Foundation
import HEIFCoder
import SwiftWebImage

/// HEIFCoder: registered with one line, then the shared coders write and read HEIC (lossy, so
/// the check compares the size and format, not the pixels).
enum HEIFCheck {
    @Sendable static func run() async throws -> String {
        CodersManager.shared.add(HEIFCoder())
        let source = WebImage(bitmap: try Scratch.bitmap())
        guard CodersManager.shared.canEncode(to: .heic) else {
            throw CheckFailure("no HEVC encoder in this libheif: HEIC cannot be written")
        }
        let data = try CodersManager.shared.encode(source, as: .heic, options: ImageEncodeOptions(compressionQuality: 0.9))
        guard ImageFormat.detect(data) == .heic else { throw CheckFailure("the encoded data is not HEIC") }
        let decoded = try CodersManager.shared.decode(data)
        guard decoded.format == .heic, decoded.pixelSize == source.pixelSize else {
            throw CheckFailure("a round trip gave \(decoded.format) \(decoded.pixelSize), not HEIC \(source.pixelSize)")
        }
        return "registered; round trip of \(decoded.pixelSize) through CodersManager.shared (\(data.count) bytes)"
    }
}
