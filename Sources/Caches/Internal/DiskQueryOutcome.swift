import WebImageCore

/// Where the background disk part of a `WebImageCache` query ended: with its answer (a miss,
/// or a hit that needed no decode), or with a decode of the entry for the querying task to
/// finish (promotion, removal of bad data).
enum DiskQueryOutcome: Sendable {
    case result(ImageCacheResult?)
    case decoded(CachedDataDecodeResult, stage: ImageDecodeRequest, entry: DiskStorageEntry)
}
