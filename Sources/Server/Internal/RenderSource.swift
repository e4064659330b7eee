/// Where the pixels of an answer came from: the label of `/metrics`'
/// `webimage_serve_render_sources_total`, so that a benchmark (`scripts/serve-bench`) and an
/// operator can see which path requests took.
///
/// A render that resized from a halved copy (``ReducedOriginals``) counts as ``halvedCopy``
/// whatever the image the copy was made from.
enum RenderSource: String, Sendable, CaseIterable {
    /// No render: an encoded result from a result tier (memory, disk or another cache).
    case resultCache = "result-cache"
    /// No render of its own: the answer of an identical request's render in flight (joined).
    case shared
    /// Resized from a halved copy of a decoded original (or of a reduced decode).
    case halvedCopy = "halved-copy"
    /// A shrink-on-load reduced decode the server already held (``ShrunkOriginals``).
    case reducedMemory = "reduced-memory"
    /// A shrink-on-load reduced decode made for this request from the source's bytes.
    case reducedDecode = "reduced-decode"
    /// A whole decoded original from the originals' memory cache.
    case fullMemory = "full-memory"
    /// A whole decode of the source's bytes, read from the disk cache or fetched from the origin.
    case fullDecode = "full-decode"
}
