import WebImageCore

/// The header check every decoder makes before it allocates pixels.
enum PixelLimit {
    /// Throws ``WebImageError/Code/badImageData`` for an empty size and
    /// ``WebImageError/Code/imageTooLarge`` when `size` has more pixels than
    /// `options.maxPixelCount` (or overflows).
    /// - Parameters:
    ///   - size: The size the header claims.
    ///   - format: The format's name, for the message.
    ///   - byteCount: The size of the data, for the message.
    static func check(_ size: PixelSize, options: ImageDecodeOptions, format: String, byteCount: Int) throws {
        guard !size.isEmpty else {
            throw WebImageError(.badImageData, "\(format) data of \(byteCount) bytes claims an empty image (\(size))")
        }
        guard let pixels = size.pixelCount, pixels <= options.maxPixelCount else {
            throw WebImageError(
                .imageTooLarge,
                "\(format) image of \(size) (\(byteCount) bytes of data) is over the limit of \(options.maxPixelCount) pixels"
            )
        }
    }
}
