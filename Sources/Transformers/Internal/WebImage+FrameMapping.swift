import WebImageCore

extension WebImage {
    /// Throws unless a `size` output (a canvas a transformer is about to allocate) is within
    /// ``WebImageCore/Bitmap/maximumResampledPixelCount``, the limit shared with the resampler.
    static func checkOutputSize(_ size: PixelSize, transformerKey: String) throws {
        guard let pixels = size.pixelCount, pixels <= Bitmap.maximumResampledPixelCount else {
            throw WebImageError(.invalidArgument, "\(transformerKey): an output of \(size) is over the limit of \(Bitmap.maximumResampledPixelCount) pixels")
        }
    }

    /// A copy of this image with `body` applied to every frame: the same frame count,
    /// durations (stated durations too), loop count, scale, format, metadata (plus ``ImageMetadata/transformed``) and
    /// extended data.
    ///
    /// A lazily animated image is decoded frame by frame (one input frame at a time) and the
    /// result holds every transformed frame in memory: `frameCount x` the output frame's bytes.
    ///
    /// Errors: a ``WebImageError`` thrown by `body` passes through; any other error is wrapped
    /// in ``WebImageError/Code/transformFailed`` naming `transformerKey` and the frame.
    func mappingFrames(transformerKey: String, _ body: (Bitmap) throws -> Bitmap) throws -> WebImage {
        let count = frameCount
        var frames: [ImageFrame] = []
        frames.reserveCapacity(count)
        for index in 0..<count {
            let frame = try self.frame(at: index)
            let output: Bitmap
            do {
                output = try body(frame.bitmap)
            } catch let error as WebImageError {
                throw error
            } catch {
                throw WebImageError(.transformFailed, "\(transformerKey) failed on frame \(index) of \(count) (\(frame.bitmap.size))", underlyingError: error)
            }
            var transformed = frame  // keeps the duration and the stated duration
            transformed.bitmap = output
            frames.append(transformed)
        }
        var result: WebImage
        do {
            result = try WebImage(frames: frames, loopCount: loopCount, scale: scale, format: format, metadata: metadata.union(.transformed))
        } catch {
            throw WebImageError(.transformFailed, "\(transformerKey) produced frames of different sizes from a \(pixelSize) image", underlyingError: error)
        }
        result.extendedData = extendedData
        return result
    }
}
