import WebImageCore

/// The properties of a GIF from its blocks alone: the logical screen, each image's region,
/// graphic control (delay, transparency) and the first loop extension, skipping the colour
/// tables and the LZW sub-blocks without reading them. Keeps one delay per image and nothing
/// else per image, so any number of frames costs a few bytes each.
///
/// Follows ``GIFFile`` and ``GIFProvider`` rule for rule (images of zero size are not frames,
/// the first NETSCAPE2.0 / ANIMEXTS1.0 loop count wins, a zero screen takes the first image's
/// extent, data that ends early keeps the images found so far), so that the properties are the
/// ones a decode reports.
enum GIFBlockWalk {
    /// - Throws: ``WebImageError/Code/badImageData`` for a missing signature, a header cut short,
    ///   an invalid LZW code size, or no image.
    static func properties(_ bytes: UnsafeRawBufferPointer) throws -> ImageProperties {
        let count = bytes.count
        func ascii(_ text: String, at offset: Int) -> Bool {
            let utf8 = Array(text.utf8)
            guard offset + utf8.count <= count else { return false }
            return utf8.indices.allSatisfy { bytes[offset + $0] == utf8[$0] }
        }
        guard ascii("GIF87a", at: 0) || ascii("GIF89a", at: 0) else {
            throw WebImageError(.badImageData, "\(count) bytes are not GIF data (no GIF87a or GIF89a signature)")
        }
        guard count >= 13 else {
            throw WebImageError(.badImageData, "GIF data of \(count) bytes is truncated inside its header")
        }
        func u16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
        var width = u16(6), height = u16(8)
        var offset = 13
        if bytes[10] & 0x80 != 0 {
            offset += 3 * (2 << Int(bytes[10] & 0x07))
            guard offset <= count else {
                throw WebImageError(.badImageData, "GIF data of \(count) bytes is truncated inside its global color table")
            }
        }
        func skipSubBlocks() -> Bool {
            while offset < count {
                let size = Int(bytes[offset])
                offset += 1
                if size == 0 { return true }
                offset += size
            }
            return false
        }

        var delays: [Int] = []
        var hasAlpha = false
        var loopCount: Int?
        var transparent = false
        var delay = 0
        blocks: while offset < count {
            let introducer = bytes[offset]
            offset += 1
            switch introducer {
            case 0x21:
                guard offset < count else { break blocks }
                let label = bytes[offset]
                offset += 1
                if label == 0xF9, offset + 5 <= count, bytes[offset] >= 4 {
                    delay = u16(offset + 2)
                    transparent = bytes[offset + 1] & 0x01 != 0
                } else if label == 0xFF, offset + 12 <= count, bytes[offset] == 11,
                          ascii("NETSCAPE2.0", at: offset + 1) || ascii("ANIMEXTS1.0", at: offset + 1) {
                    let sub = offset + 12
                    if loopCount == nil, sub + 4 <= count, bytes[sub] >= 3, bytes[sub + 1] == 1 {
                        loopCount = u16(sub + 2)
                    }
                }
                guard skipSubBlocks() else { break blocks }
            case 0x2C:
                guard offset + 9 <= count else { break blocks }
                let region = (x: u16(offset), y: u16(offset + 2), width: u16(offset + 4), height: u16(offset + 6))
                let packed = bytes[offset + 8]
                offset += 9
                if packed & 0x80 != 0 {
                    offset += 3 * (2 << Int(packed & 0x07))
                    guard offset <= count else { break blocks }
                }
                guard offset < count else { break blocks }
                let codeSize = Int(bytes[offset])
                offset += 1
                guard (1...11).contains(codeSize) else {
                    throw WebImageError(.badImageData, "GIF image \(delays.count) has an invalid LZW code size \(codeSize)")
                }
                let complete = skipSubBlocks()
                if region.width > 0 && region.height > 0 {
                    if delays.isEmpty, width == 0 || height == 0 {
                        // A zero logical screen takes the first image's extent, as browsers do.
                        width = region.x + region.width
                        height = region.y + region.height
                    }
                    delays.append(delay)
                    // As the provider: transparency, missing data, or an image that (clipped to
                    // the screen) does not cover it leaves transparent pixels.
                    let covers = region.x == 0 && region.y == 0 && region.width >= width && region.height >= height
                    if transparent || !complete || !covers { hasAlpha = true }
                }
                transparent = false
                delay = 0
                if !complete { break blocks }
            default:
                break blocks
            }
        }
        guard !delays.isEmpty else {
            throw WebImageError(.badImageData, "GIF data of \(count) bytes has no image")
        }
        let frameCount = delays.count
        return ImageProperties(
            format: .gif, pixelSize: PixelSize(width: width, height: height), frameCount: frameCount,
            loopCount: frameCount > 1 ? loopCount : nil,
            frameDurations: frameCount == 1 ? [0] : delays.map { Double($0) / 100 },
            hasAlpha: hasAlpha
        )
    }
}
