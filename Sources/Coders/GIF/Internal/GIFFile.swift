import Foundation
import WebImageCore
import WebImageColor

/// The block structure of a GIF (87a or 89a), parsed without decompressing: the logical screen,
/// the palettes, and for each image its region, graphic control (disposal, delay, transparency),
/// interlacing and where its LZW data lies. Every read is bounds-checked; data that ends early
/// keeps the images found so far (the last one may be partial) and sets ``truncated``.
struct GIFFile {
    struct Frame {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var interlaced: Bool
        /// 256 RGBA entries packed little-endian (R in the low byte), the transparent index at 0.
        var palette: [UInt32]
        var transparentIndex: Int?
        /// 0 unspecified, 1 none, 2 background, 3 previous (4...7 are treated as 0).
        var disposal: Int
        /// In hundredths of a second.
        var delay: Int
        var minimumCodeSize: Int
        /// The LZW data, the sub-blocks' payloads.
        var data: [Range<Int>]
        /// The data ended inside this image.
        var partial: Bool
    }

    var width: Int
    var height: Int
    var frames: [Frame] = []
    /// Whether the palettes were converted to sRGB from an `ICCRGBG1012` ICC profile.
    var colorConverted = false
    /// The first NETSCAPE2.0 / ANIMEXTS1.0 loop count (0 = forever), `nil` when the file states none.
    var loopCount: Int?
    var truncated = true

    /// Parses `bytes`.
    /// - Throws: ``WebImageError/Code/badImageData`` for a missing signature or a file with no
    ///   image; ``WebImageError/Code/imageTooLarge`` when the screen or an image is over the limit.
    static func parse(_ bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions) throws -> GIFFile {
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
        var file = GIFFile(width: u16(6), height: u16(8))
        let screenPacked = bytes[10]
        var offset = 13
        var globalPalette: [UInt32]?
        func readPalette(_ entries: Int) -> [UInt32]? {
            guard offset + entries * 3 <= count else { return nil }
            var palette = [UInt32](repeating: 0xFF00_0000, count: 256)
            for index in 0..<entries {
                let p = offset + index * 3
                palette[index] = UInt32(bytes[p]) | UInt32(bytes[p + 1]) << 8 | UInt32(bytes[p + 2]) << 16 | 0xFF00_0000
            }
            offset += entries * 3
            return palette
        }
        if screenPacked & 0x80 != 0 {
            guard let palette = readPalette(2 << Int(screenPacked & 0x07)) else {
                throw WebImageError(.badImageData, "GIF data of \(count) bytes is truncated inside its global color table")
            }
            globalPalette = palette
        }
        if file.width > 0, file.height > 0 {
            try PixelLimit.check(PixelSize(width: file.width, height: file.height), options: options, format: "GIF", byteCount: count)
        }

        // Skips sub-blocks; returns false if the data ends first.
        func skipSubBlocks() -> Bool {
            while offset < count {
                let size = Int(bytes[offset])
                offset += 1
                if size == 0 { return true }
                offset += size
            }
            return false
        }

        var iccProfile: Data?
        var transparentIndex: Int?
        var disposal = 0
        var delay = 0
        blocks: while offset < count {
            let introducer = bytes[offset]
            offset += 1
            switch introducer {
            case 0x3B:
                file.truncated = false
                break blocks
            case 0x21:
                guard offset < count else { break blocks }
                let label = bytes[offset]
                offset += 1
                if label == 0xF9, offset + 5 <= count, bytes[offset] >= 4 {
                    let packed = bytes[offset + 1]
                    disposal = Int(packed >> 2 & 0x07)
                    if disposal > 3 { disposal = 0 }
                    delay = u16(offset + 2)
                    transparentIndex = packed & 0x01 != 0 ? Int(bytes[offset + 4]) : nil
                } else if label == 0xFF, offset + 12 <= count, bytes[offset] == 11, ascii("ICCRGBG1012", at: offset + 1), iccProfile == nil {
                    // An ICC profile in the sub-blocks (the first one wins), bounded.
                    var profile = Data()
                    var at = offset + 12
                    while at < count, bytes[at] != 0, profile.count <= ColorConversion.maximumProfileBytes {
                        let size = Int(bytes[at])
                        guard at + 1 + size <= count else { break }
                        profile.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[(at + 1)..<(at + 1 + size)]))
                        at += 1 + size
                    }
                    iccProfile = profile
                } else if label == 0xFF, offset + 12 <= count, bytes[offset] == 11,
                          ascii("NETSCAPE2.0", at: offset + 1) || ascii("ANIMEXTS1.0", at: offset + 1) {
                    let sub = offset + 12
                    // The first loop sub-block wins, as in browsers; later ones are ignored.
                    if file.loopCount == nil, sub + 4 <= count, bytes[sub] >= 3, bytes[sub + 1] == 1 {
                        file.loopCount = u16(sub + 2)
                    }
                }
                guard skipSubBlocks() else { break blocks }
            case 0x2C:
                guard offset + 9 <= count else { break blocks }
                let x = u16(offset), y = u16(offset + 2), width = u16(offset + 4), height = u16(offset + 6)
                let packed = bytes[offset + 8]
                offset += 9
                var palette = globalPalette
                if packed & 0x80 != 0 {
                    guard let local = readPalette(2 << Int(packed & 0x07)) else { break blocks }
                    palette = local
                }
                guard offset < count else { break blocks }
                let codeSize = Int(bytes[offset])
                offset += 1
                guard (1...11).contains(codeSize) else {
                    throw WebImageError(.badImageData, "GIF image \(file.frames.count) has an invalid LZW code size \(codeSize)")
                }
                var ranges: [Range<Int>] = []
                var partial = true
                while offset < count {
                    let size = Int(bytes[offset])
                    offset += 1
                    if size == 0 {
                        partial = false
                        break
                    }
                    let end = min(count, offset + size)
                    ranges.append(offset..<end)
                    offset += size
                }
                if width > 0 && height > 0 {
                    guard let pixels = PixelSize(width: width, height: height).pixelCount, pixels <= options.maxPixelCount else {
                        throw WebImageError(.imageTooLarge, "GIF image \(file.frames.count) of \(width)x\(height) is over the limit of \(options.maxPixelCount) pixels")
                    }
                    if !options.firstFrameOnly, file.frames.count >= options.maxFrameCount {
                        try PixelLimit.checkFrameCount(file.frames.count + 1, orMore: true, options: options, format: "GIF", byteCount: count)
                    }
                    var colors = palette ?? Self.defaultPalette
                    if let index = transparentIndex { colors[index] = 0 }
                    file.frames.append(Frame(
                        x: x, y: y, width: width, height: height, interlaced: packed & 0x40 != 0, palette: colors,
                        transparentIndex: transparentIndex, disposal: disposal, delay: delay, minimumCodeSize: codeSize,
                        data: ranges, partial: partial
                    ))
                }
                transparentIndex = nil
                disposal = 0
                delay = 0
                if partial { break blocks }
            default:
                // Garbage where a block should start: stop here, keeping what came before.
                file.truncated = false
                break blocks
            }
        }
        if let iccProfile, convertPalettes(&file.frames, from: iccProfile) { file.colorConverted = true }
        guard let first = file.frames.first else {
            throw WebImageError(.badImageData, "GIF data of \(count) bytes has no image\(file.truncated ? " (truncated)" : "")")
        }
        if file.width == 0 || file.height == 0 {
            // A zero logical screen: use the first image's extent, as browsers do.
            file.width = first.x + first.width
            file.height = first.y + first.height
            try PixelLimit.check(PixelSize(width: file.width, height: file.height), options: options, format: "GIF", byteCount: count)
        }
        return file
    }

    /// Converts every frame's palette (packed RGBA) from `profile` to sRGB: 256 colours a frame
    /// instead of every pixel; whether it did (an sRGB or unusable profile changes nothing).
    static func convertPalettes(_ frames: inout [Frame], from profile: Data) -> Bool {
        var converted = false
        for index in frames.indices {
            var bytes = frames[index].palette.flatMap { entry in
                [UInt8(truncatingIfNeeded: entry), UInt8(truncatingIfNeeded: entry >> 8), UInt8(truncatingIfNeeded: entry >> 16), UInt8(truncatingIfNeeded: entry >> 24)]
            }
            guard ColorConversion.convert(&bytes, width: frames[index].palette.count, height: 1, bytesPerRow: bytes.count, profile: profile, layout: .rgba) == .converted else {
                return converted
            }
            converted = true
            frames[index].palette = (0..<frames[index].palette.count).map { entry in
                UInt32(bytes[entry * 4]) | UInt32(bytes[entry * 4 + 1]) << 8 | UInt32(bytes[entry * 4 + 2]) << 16 | UInt32(bytes[entry * 4 + 3]) << 24
            }
        }
        return converted
    }

    /// Used when neither a global nor a local table exists: a grayscale ramp.
    static let defaultPalette: [UInt32] = (0..<256).map { UInt32($0) * 0x0001_0101 | 0xFF00_0000 }
}
