import Foundation
import ICOCoder
import SwiftWebImage

/// ICOCoder: registered with one line, then the shared coders write and read ICO (PNG entries:
/// the pixels come back exactly), and an icon of several sizes lists its entries.
enum ICOCheck {
    @Sendable static func run() async throws -> String {
        CodersManager.shared.add(ICOCoder())
        let source = WebImage(bitmap: try Scratch.bitmap())
        let data = try CodersManager.shared.encode(source, as: .ico, options: ImageEncodeOptions())
        guard ImageFormat.detect(data) == .ico else { throw CheckFailure("the encoded data is not ICO") }
        let decoded = try CodersManager.shared.decode(data)
        guard decoded.format == .ico, decoded.bitmap == source.bitmap else {
            throw CheckFailure("a round trip gave \(decoded.format) \(decoded.pixelSize), not the same pixels")
        }
        let sizes = try ICOCoder().entries(in: try ICOCoder(encodedSizes: [16, 32]).encode(source, as: .ico)).map(\.pixelSize.width)
        guard sizes == [16, 32] else { throw CheckFailure("an icon of sizes 16 and 32 lists \(sizes)") }
        return "registered; round trip of \(decoded.pixelSize) through CodersManager.shared, an icon of 16 and 32"
    }
}
