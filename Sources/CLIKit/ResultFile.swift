import Foundation
import SwiftWebImage

/// What `fetch` and `demo` write for a loaded image.
///
/// Decision: the loaded bytes are written as they are when the image is as loaded (no
/// transformer, no thumbnail) and the result carries them; otherwise (a transformed or
/// thumbnailed image, or a memory hit, which has no bytes) the image is encoded with
/// ``CodersManager/shared`` in its own format when a coder can write it, else as PNG. JPEG is
/// written at quality 90; animations stay animated in GIF and PNG.
enum ResultFile {
    /// The bytes to write and their format.
    /// - Parameter reencode: Whether the image differs from the loaded bytes.
    /// - Throws: The encoder's error.
    static func contents(of result: ImageLoadResult, image: WebImage, reencode: Bool) throws -> (Data, ImageFormat) {
        if !reencode, let data = result.data {
            let format = ImageFormat.detect(data)
            return (data, format == .undefined ? image.format : format)
        }
        let format = CodersManager.shared.canEncode(to: image.format) ? image.format : .png
        let options = ImageEncodeOptions(compressionQuality: format == .jpeg ? 0.9 : 1)
        return (try CodersManager.shared.encode(image, as: format, options: options), format)
    }
}
