public import Foundation
public import WebImageCore

extension GIFCoder: ImageHeaderReader {
    /// The screen size, frames, stated delays, first loop count and transparency of a GIF, from
    /// its blocks: the LZW data is skipped, not decoded, and no limit applies (a GIF of 20,000
    /// frames or of 10000 x 10000 frames is described in milliseconds).
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for data that is not GIF, a header cut
    ///   short, an invalid LZW code size, or no image.
    public func readProperties(of data: Data) throws -> ImageProperties {
        try data.withUnsafeBytes { try GIFBlockWalk.properties($0) }
    }
}
