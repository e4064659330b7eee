import Foundation
import WebImageCore

/// Progressive decoding of a JPEG XL download (``JXLCoder/makeIncrementalDecoder(options:)``).
///
/// - Until the data is complete, one libjxl decoder (``JXLIncrementalHandle``) is given only
///   the new bytes each time and flushes what it can render of the first frame: for a lossy
///   image, the 1:8 DC image first, then 256x256 groups and refinement passes as they arrive;
///   for a lossless one, groups. Parts not rendered yet are transparent. A thumbnail request
///   resamples each partial image. Images are marked ``ImageMetadata/incremental``.
/// - An animation shows its first frame (partially, then whole) until the end.
/// - With the last chunk (`finished`), the whole data is decoded as ``JXLCoder/decode(_:options:)``
///   does (animations included), and the result is not marked ``ImageMetadata/incremental``.
///
/// Corrupt data, or an image over the limits, ends the partial images: `currentImage()` then
/// returns the last good one (or `nil`).
///
/// The bookkeeping (data, generations, the end after a failure) is the core's
/// ``/WebImageCore/SessionIncrementalDecoder``, with the handle as its session; libjxl runs under
/// its lock (no user code does), so concurrent callers take turns.
enum JXLIncrementalDecoder {
    /// The incremental decoder of `options`; `decodeAll` decodes complete data (the coder's `decode`).
    static func make(options: ImageDecodeOptions, threads: Int, decodeAll: @escaping SessionIncrementalDecoder<JXLIncrementalHandle>.Decode) -> SessionIncrementalDecoder<JXLIncrementalHandle> {
        SessionIncrementalDecoder(options: options, decodeAll: decodeAll) { data, handle, last in
            try partialImage(of: data, handle: &handle, last: last, options: options, threads: threads)
        }
    }

    /// The first frame as far as `data` goes, through `handle` (made on first use); `nil` when
    /// there is nothing new.
    private static func partialImage(of data: Data, handle: inout JXLIncrementalHandle?, last: WebImage?, options: ImageDecodeOptions, threads: Int) throws -> WebImage? {
        if handle == nil {
            guard let made = JXLIncrementalHandle(options: options, threads: threads) else {
                throw WebImageError(.badImageData, "libjxl cannot make an incremental decoder")
            }
            handle = made
        }
        guard let handle else { return nil }
        let before = handle.hasPixels
        try data.withUnsafeBytes { raw in try handle.append(raw) }
        // A complete first frame does not change with more data.
        if handle.isComplete && before && last != nil { return nil }
        guard let bitmap = try handle.snapshot(), let info = handle.info else { return nil }
        let size = options.targetPixelSize(for: info.outputSize)
        var metadata: ImageMetadata = [.decoded, .incremental]
        if size != info.outputSize { metadata.insert(.thumbnail) }
        return WebImage(bitmap: try JXLStillDecoding.fitted(bitmap, to: size), scale: options.scaleFactor, format: .jpegXL, metadata: metadata)
    }
}
