public import Foundation
public import WebImageCore
public import WebImageLoaders

/// Everything ``ImageServer`` can be told: security, sources, limits, caching headers and work.
/// The defaults are safe: signed URLs only, public http(s) sources only, every limit on.
///
/// Statuses the limits give (short `text/plain` bodies):
/// - ``maximumURLLength``: `414 URI Too Long`.
/// - ``maximumSourceBytes``: `413 Content Too Large` (the source, not the request, is too
///   large; the status names the limit that was hit).
/// - ``maximumSourcePixels``, ``maximumTotalSourcePixels``, ``maximumSourceFrames``: `422
///   Unprocessable Content`, answered from the image's header before its pixels are decoded.
/// - ``maximumOutputDimension``, ``maximumFilterCount``, ``maximumFilterWork``: `400 Bad
///   Request` (the URL asks for too much).
/// - ``requestTimeout``: `504 Gateway Timeout`.
/// - ``transformConcurrency`` and ``maximumQueuedTransforms``: `503 Service Unavailable` with
///   `Retry-After: 1` when the queue is full.
public struct ImageServerConfiguration: Sendable {
    /// The key thumbor URLs are signed with; `nil` with ``allowsUnsigned`` `false` refuses every
    /// image URL.
    public var securityKey: String?
    /// Whether `/unsafe/...` URLs are served (thumbor's `ALLOW_UNSAFE_URL`); `false` by default.
    public var allowsUnsigned: Bool = false
    /// Whether sources on loopback, private, link-local and other non-public addresses are fetched;
    /// `false` by default (the downloader's `refusesNonPublicAddresses` is then on).
    public var allowsPrivateSources: Bool = false
    /// Whether SVG sources are rasterised (by the coder that decodes them, such as the SVGCoder
    /// plug-in) and served in a raster format; `false` by default: SVG sources answer `422`.
    /// The output is never SVG. Other vector sources (PDF) are refused either way.
    public var allowsSVGSources: Bool = false
    /// The directory that plain (scheme-less) sources are read from, as thumbor's
    /// `file_loader` reads them from `FILE_LOADER_ROOT_PATH`; `nil` (the default) makes them
    /// HTTP sources, as thumbor's default `http_loader` does: `example.com/a.png` and
    /// `127.0.0.1:8080/a.png` are fetched from `http://...`, under the same host allow-list and
    /// address guard as any `http://` source.
    ///
    /// With a root, a plain source is a path under this directory (leading `/`s dropped, as
    /// thumbor drops them): a `..` component or a symbolic link that leads out of the directory
    /// is refused with `403`; a file that does not exist is `404` (or an HTTP source, with
    /// ``fetchesMissingFilesOverHTTP``).
    public var fileRoot: URL?
    /// Whether a plain source whose file does not exist under ``fileRoot`` is fetched over HTTP
    /// instead (`host[:port]/path` from `http://...`, with the allow-list and the address
    /// guard), as thumbor's `file_loader_http_fallback` loader does; `false` by default (a
    /// missing file is `404`). Without a file root plain sources are HTTP sources anyway.
    public var fetchesMissingFilesOverHTTP: Bool = false
    /// Hosts (exact, or `*.example.com` for its subdomains) that http(s) sources may come from;
    /// empty allows any public host. A host not on a non-empty list is refused with `403`, and
    /// redirects are then not followed (a redirect could leave the list): they answer `502`.
    public var allowedSourceHosts: [String] = []
    /// The largest source body, in bytes (the downloader's `maximumResponseSize`, and the
    /// largest file read under ``fileRoot``); more answers `413`.
    public var maximumSourceBytes: Int = 50 * 1024 * 1024
    /// The largest source frame, in pixels (the context's `imageMaxPixelCount`); more answers `422`.
    public var maximumSourcePixels: Int = 50_000_000
    /// The largest total of pixels over every frame of a source (`imageMaxTotalPixelCount`);
    /// more answers `422`.
    public var maximumTotalSourcePixels: Int = 200_000_000
    /// The most frames a source may have (`imageMaxFrameCount`); more answers `422`.
    public var maximumSourceFrames: Int = 1000
    /// The largest output side, in pixels: a URL asking for more (or whose result would be
    /// larger) answers `400`.
    public var maximumOutputDimension: Int = 8192
    /// The longest request path accepted, in bytes; longer answers `414`.
    public var maximumURLLength: Int = 4096
    /// The most filters one URL may name (thumbor sets no limit; real URLs name a handful);
    /// more answers `400` before the source is loaded.
    public var maximumFilterCount: Int = 32
    /// The most pixel work one URL's filters may ask for: each filter's cost is the output's
    /// pixels, times the kernel's taps for `blur(r)` (`2 * (2r + 1)`: thumbor's kernel across,
    /// then down), `convolution` (its items) and `sharpen` (30 per channel), 51 for
    /// `fill(blur)` (over the canvas), summed over the filters; more answers `400` before any
    /// filter runs. The default (2,000,000,000) lets a `blur(50)` through on a 3000x3000 output
    /// and refuses a few hundred blurs of a thumbnail.
    public var maximumFilterWork: Int = 2_000_000_000
    /// The deadline for one request, from arrival to the response; past it the answer is `504`
    /// and its work stops: its load and its transform are cancelled unless an identical request
    /// still waits for the same result (a transform stops between rows, within milliseconds).
    public var requestTimeout: Duration = .seconds(30)
    /// How many transforms run at once (transform and encode; decoding runs on the framework's
    /// processing executor, whose width is the core count).
    public var transformConcurrency: Int = ProcessInfo.processInfo.activeProcessorCount
    /// How many transforms may wait; beyond that the answer is `503` with `Retry-After`.
    public var maximumQueuedTransforms: Int = 64
    /// `Cache-Control: public, max-age=N` on successful responses, in seconds.
    public var cacheMaxAge: Int = 86_400
    /// The quality when the URL gives none (JPEG, WebP, AVIF).
    public var defaultQuality: Int = 80
    /// What happens to a source's colour profile: converted to sRGB at decode (the default, as
    /// imgproxy and libvips' `thumbnail` do: every output is sRGB and untagged), or kept and
    /// embedded in the output (``/WebImageCore/ColorProfileHandling/keep``, as thumbor does;
    /// `strip_icc()` then drops it from one result). Results of the two never share a cache key.
    public var colorProfileHandling = ColorProfileHandling.convertToSRGB
    /// When JPEG results are progressive (thumbor's `PROGRESSIVE_JPEG`):
    /// ``ProgressiveJPEGMode/automatic`` (the default) from a size that depends on the quality,
    /// where progressive files become the smaller; ``ProgressiveJPEGMode/on`` always, as
    /// thumbor; ``ProgressiveJPEGMode/off`` never.
    public var progressiveJPEG = ProgressiveJPEGMode.automatic
    /// What `smart` in a URL does: ``SmartCropMode/centre`` (the default, thumbor's without a
    /// detector) or ``SmartCropMode/attention`` (the crop goes where edges, skin tones and
    /// colour are). Results of `smart` URLs made with attention never share a cache key with
    /// centred ones.
    public var smartCrop = SmartCropMode.centre

    /// The bytes of encoded results the server keeps in its own memory tier, in front of the
    /// result cache (default 64 MiB; 0 turns the tier off). A repeated URL is answered from it
    /// on the calling thread: no parse, no signature check, no decode, no suspension.
    public var resultMemoryCapacity: Int = 64 * 1024 * 1024
    /// The bytes of halved copies of decoded originals the server keeps (1/2, 1/4, ... of an
    /// opaque still source), so that a resize starts from the smallest copy still at least as
    /// large as its target instead of the full original (default 128 MiB; 0 turns them off:
    /// every resize then starts from the original, several times slower for large reductions).
    ///
    /// With ``shrinksOnLoad``, half of it holds the reduced decodes of shrink-on-load requests.
    public var reducedOriginalsCapacity: Int = 128 * 1024 * 1024
    /// Whether a source whose result is at least 2x smaller on both sides is decoded at a
    /// reduced size that still covers the result (shrink-on-load, as libvips' `thumbnail`: a
    /// JPEG's DCT scaling, libwebp's scaled decode, a HEIF's stored thumbnail, the PNG coder's
    /// streaming reducer), held by the server by the scale it was decoded at (in half of
    /// ``reducedOriginalsCapacity``), so that every later request that scale covers starts from
    /// it; `true` by default. A request that needs more pixels decodes the original again at
    /// its own size (from the disk cache, without a download, when there is one). Not for a
    /// crop, `trim`, `smart` with the attention crop, `/meta/` or animated sources. `false`:
    /// every source is decoded at full size and kept in memory whole, which answers later
    /// sizes of the same source faster at the cost of memory and a slower first request
    /// (`webimage serve --no-shrink-on-load`).
    public var shrinksOnLoad: Bool = true
    /// The memory budget the server's decodes are admitted against (`nil`, the default: none).
    /// Sources decoded by the server's downloader and file loader reserve their bitmaps' bytes
    /// in it before they allocate them and keep them until their result is rendered; a decode
    /// that does not fit waits, and is refused with `503` (`Retry-After: 1`) when the budget
    /// stays spent, or with `422` when it alone is larger than the budget's decode part. The
    /// originals cache decodes with its own coder: pass ``MemoryBudget/budgeting(_:)`` of the
    /// same coder to it (`ImageServe` does). `/metrics` reports the budget and its use.
    public var memoryBudget: MemoryBudget?
    /// More samples for `/metrics`, in the Prometheus text format (each with its `# HELP` and
    /// `# TYPE` lines), appended after the server's own; `nil` (the default) for none. Called
    /// once per `/metrics` request, off the HTTP threads' hot path; keep it quick. `ImageServe`
    /// adds the Redis client's state here.
    public var additionalMetrics: (@Sendable () -> String)?
    /// The downloader settings for http(s) sources (timeouts, headers, CA files, concurrency).
    /// The server sets `refusesNonPublicAddresses` (from ``allowsPrivateSources``),
    /// `maximumResponseSize` (from ``maximumSourceBytes``), `totalTimeout` (at most
    /// ``requestTimeout``: no origin fetch outlives the deadline of the request that started
    /// it) and, with an allow-list, `maximumRedirects` (0) over what is given here; `allowedNonPublicAddresses` is kept, so
    /// one inner origin can be let through while the guard stays on.
    public var downloaderConfiguration = DownloaderConfiguration()
    /// Loaders for other URL schemes of sources, by lower-case scheme: `["photos": PhotosLoader(...)]`
    /// serves `photos://` sources (the `PhotosLoader` plug-in). A scheme with no loader answers `400`.
    public var sourceLoaders: [String: any ImageLoader] = [:]
    /// Where one line per request goes (``ImageServerAccessLogEntry``); `nil` (the default)
    /// logs nothing. Called on the thread that answered the request, after the response is made
    /// (for an immediate answer, ``ImageServer/immediateResponse(to:)``, the HTTP server's own
    /// thread); keep it short (`webimage serve` writes ``ImageServerAccessLogEntry/line`` to
    /// stderr, one `write(2)`). A request whose client hung up is logged with status `499`.
    public var accessLog: (@Sendable (ImageServerAccessLogEntry) -> Void)?

    /// The defaults.
    public init() {}
}
