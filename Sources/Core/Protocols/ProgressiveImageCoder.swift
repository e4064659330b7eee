public import Foundation

/// A coder that can show partial data as it arrives (SDWebImage's `SDProgressiveImageCoder`).
public protocol ProgressiveImageCoder: ImageCoder {
    /// Whether this coder can decode `data` incrementally (`data` may be only the first bytes).
    func canIncrementallyDecode(_ data: Data) -> Bool
    /// A new incremental decoder for one download.
    func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoder
}

/// The state of one incremental decode: fed all the data received so far, it returns the
/// best image it can make of it (SDWebImage's progressive coder instance).
///
/// One instance serves one download; implementations lock their state because the download
/// may feed it from different threads in turn.
public protocol IncrementalImageDecoder: AnyObject, Sendable {
    /// Gives the decoder every byte received so far (not only the new ones).
    /// - Parameters:
    ///   - data: Every byte received so far.
    ///   - finished: `true` with the last chunk.
    func update(data: Data, finished: Bool)
    /// The image decoded from the data so far, marked ``ImageMetadata/incremental`` unless
    /// finished; `nil` if there is not enough data yet.
    func currentImage() -> WebImage?
}
