public import Foundation
public import WebImageCore

extension PNGCoder: ImageHeaderReader {
    /// The size, frames, stated delays (`delay_num / delay_den`, a zero denominator meaning
    /// 100), loop count (acTL's `num_plays`) and transparency of a PNG or APNG, from its chunks
    /// (IHDR, PLTE, tRNS, acTL, fcTL): the image data is not inflated and no limit applies. The
    /// frames are the ones a decode shows: a truncated APNG is its default image, an APNG whose
    /// only frame is not the default image shows that frame.
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for data that is not PNG, an invalid header
    ///   or critical chunk, or no image data.
    public func readProperties(of data: Data) throws -> ImageProperties {
        guard canDecode(data) else {
            throw WebImageError(.badImageData, "\(data.count) bytes are not PNG data (no PNG signature)")
        }
        let file = try data.withUnsafeBytes { try PNGFile.parse($0) }
        let canvas = PixelSize(width: file.header.width, height: file.header.height)
        let frames = file.truncated ? [] : file.frames
        guard !file.imageData.isEmpty || !frames.isEmpty else {
            throw WebImageError(
                .badImageData,
                file.truncated ? "PNG data of \(data.count) bytes is truncated before its image data" : "PNG data of \(data.count) bytes has no IDAT chunk"
            )
        }
        if frames.count > 1 || (frames.count == 1 && !file.defaultImageIsFirstFrame) {
            // As APNGProvider: a first frame short of the canvas, or a frame disposed to the
            // background that does not cover it, leaves transparent pixels.
            let covers = { (control: PNGFile.FrameControl) in
                control.x == 0 && control.y == 0 && control.width == canvas.width && control.height == canvas.height
            }
            let hasAlpha = file.hasTransparency || !covers(frames[0].control)
                || frames.contains { $0.control.dispose == 1 && !covers($0.control) }
            let durations = frames.count == 1 ? [0] : frames.map { frame in
                Double(frame.control.delayNumerator) / Double(frame.control.delayDenominator == 0 ? 100 : frame.control.delayDenominator)
            }
            var properties = ImageProperties(format: .png, pixelSize: canvas, frameCount: frames.count, loopCount: file.numPlays,
                                             frameDurations: durations, hasAlpha: hasAlpha)
            properties.colorSpace = data.withUnsafeBytes { file.color.description(in: $0) }
            return properties
        }
        var properties = ImageProperties(format: .png, pixelSize: canvas, hasAlpha: file.hasTransparency)
        properties.colorSpace = data.withUnsafeBytes { file.color.description(in: $0) }
        return properties
    }
}
