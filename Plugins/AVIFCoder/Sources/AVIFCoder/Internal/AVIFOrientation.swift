import CAVIF
import WebImageCore

/// The `irot` (rotation) and `imir` (mirror) properties of an AVIF, which libavif 0.11 reports
/// in `avifImage.transformFlags` but does not apply: the coder applies them to the RGBA8 pixels,
/// rotation first, then the mirror (the order AVIF prescribes: clap, irot, imir).
struct AVIFOrientation: Hashable, Sendable {
    /// Quarter turns anti-clockwise, 0...3.
    var quarterTurns: Int
    /// `nil`: no mirror; 0: top and bottom exchanged; 1: left and right exchanged.
    var mirrorMode: Int?

    /// No transformation.
    static let identity = AVIFOrientation(quarterTurns: 0, mirrorMode: nil)

    /// The properties `image` carries (only those whose transform flag is set).
    init(_ image: avifImage) {
        let flags = image.transformFlags
        quarterTurns = flags & AVIF_TRANSFORM_IROT.rawValue != 0 ? Int(image.irot.angle & 3) : 0
        mirrorMode = flags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? Int(image.imir.mode & 1) : nil
    }

    init(quarterTurns: Int, mirrorMode: Int?) {
        self.quarterTurns = quarterTurns & 3
        self.mirrorMode = mirrorMode
    }

    var isIdentity: Bool { quarterTurns == 0 && mirrorMode == nil }

    /// The displayed size of a coded image of `size` (sides swapped by an odd number of turns).
    func displayedSize(of size: PixelSize) -> PixelSize {
        quarterTurns % 2 == 1 ? PixelSize(width: size.height, height: size.width) : size
    }

    /// `pixels` (RGBA8, `size`, tightly packed) with the rotation then the mirror applied.
    func apply(to pixels: [UInt8], size: PixelSize) -> [UInt8] {
        guard !isIdentity else { return pixels }
        let width = size.width, height = size.height
        let out = displayedSize(of: size)
        let outWidth = out.width, outHeight = out.height
        let turns = quarterTurns
        let mirror = mirrorMode
        return [UInt8](unsafeUninitializedCapacity: pixels.count) { buffer, initialized in
            pixels.withUnsafeBytes { sourceBytes in
                let source = sourceBytes.bindMemory(to: UInt32.self)
                let destination = UnsafeMutableRawBufferPointer(buffer).bindMemory(to: UInt32.self)
                for y in 0..<outHeight {
                    // The displayed pixel (x, y) before the mirror was (mx, my) after the rotation.
                    let my = mirror == 0 ? outHeight - 1 - y : y
                    for x in 0..<outWidth {
                        let mx = mirror == 1 ? outWidth - 1 - x : x
                        // Undo an anti-clockwise rotation by `turns` quarter turns.
                        let sx: Int, sy: Int
                        switch turns {
                        case 1: sx = width - 1 - my; sy = mx
                        case 2: sx = width - 1 - mx; sy = height - 1 - my
                        case 3: sx = my; sy = height - 1 - mx
                        default: sx = mx; sy = my
                        }
                        destination[y * outWidth + x] = source[sy * width + sx]
                    }
                }
            }
            initialized = pixels.count
        }
    }
}
