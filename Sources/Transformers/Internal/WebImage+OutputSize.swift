import WebImageCore

extension WebImage {
    /// Throws unless a `size` output (a canvas a transformer is about to allocate) is within
    /// ``/WebImageCore/Bitmap/maximumResampledPixelCount``, the limit shared with the resampler.
    static func checkOutputSize(_ size: PixelSize, transformerKey: String) throws {
        guard let pixels = size.pixelCount, pixels <= Bitmap.maximumResampledPixelCount else {
            throw WebImageError(.invalidArgument, "\(transformerKey): an output of \(size) is over the limit of \(Bitmap.maximumResampledPixelCount) pixels")
        }
    }
}
