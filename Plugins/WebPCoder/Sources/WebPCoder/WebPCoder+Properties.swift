public import Foundation
public import WebImageCore

extension WebPCoder: ImageHeaderReader {
    /// Reads a WebP's format, size and alpha from its headers (`WebPGetFeatures`), and for an
    /// animation its canvas, frames, durations and loop count from the container
    /// (libwebpdemux): no pixel is decoded and no pixel limit applies.
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for data that is not WebP, or
    ///   whose headers are corrupt or cut short.
    public func readProperties(of data: Data) throws -> ImageProperties {
        guard let header = try WebPHeader.read(data), header.isComplete, !header.size.isEmpty else {
            throw WebImageError(.badImageData, "WebP data of \(data.count) bytes is truncated (it ends inside the headers)")
        }
        guard header.isAnimated else {
            return ImageProperties(format: .webp, pixelSize: header.size, hasAlpha: header.hasAlpha)
        }
        let container = try WebPContainer.parse(data)
        return ImageProperties(
            format: .webp, pixelSize: container.canvasSize, frameCount: container.frames.count, loopCount: container.loopCount,
            frameDurations: container.frames.map(\.statedDuration), hasAlpha: true
        )
    }
}
