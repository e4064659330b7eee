public import Foundation

/// The decode stage: where bytes become an image for one request, for every loader, cache and
/// plug-in (SDWebImage's `SDImageLoaderDecodeImageData` and `SDImageCacheDecodeImageData`).
///
/// Built once per request from its key, URL, options, context and the component's default
/// coder, it owns every decision between "bytes in hand" and "image to deliver":
/// - **the coder:** the context's ``WebImageContext/imageCoder``, else the default coder;
/// - **the decode options** (``decodeOptions``): scale factor (the context's, else `@2x`/`@3x`
///   in the key), thumbnail size, aspect ratio, scale-down budget, first frame only, preloading,
///   and the file extension hint from the URL;
/// - **the checks:** empty data, data no coder takes, images of zero pixels, each a
///   ``WebImageError`` that names the input;
/// - **cached bytes that fail:** ``decodeCachedData(_:extendedData:)`` says whether they are
///   bad (remove them) or only unusable now (an image too large for these options, a format
///   whose coder is not registered yet, a cancelled decode: keep them);
/// - **shaping:** `decodeFirstFrameOnly` makes an animation still, `matchAnimatedImageClass`
///   turns an image held the wrong way (lazy or preloaded frames) into a miss (``shaped(_:)``);
/// - **progressive loading:** ``makeIncrementalDecoder(for:)``;
/// - **where the work runs:** the `on executor:` variants run on a ``BlockingWorkExecutor``
///   (``BlockingWorkExecutor/processing`` by default), never on the Swift concurrency pool;
/// - **sharing:** ``sharingKey`` is equal for two requests whose decodes of the same bytes give
///   the same image, derived from the context keys that declare a decode effect;
/// - **reporting:** a successful decode is reported to the request's
///   ``WebImageContext/imageEventSink`` as ``ImageEvent/Kind/decoded(milliseconds:pixelSize:frameCount:)``.
///
/// ```swift
/// let stage = ImageDecodeRequest(url: url, options: options, context: context, defaultCoder: coder)
/// let image = try await stage.decodeLoadedData(body, on: .processing)
/// ```
public struct ImageDecodeRequest: Sendable {
    /// The cache key: where the scale factor comes from (`@2x.`), and the key cached bytes are under.
    public let key: String
    /// The image's URL, named in errors (`nil` when there is none, a cache read by key).
    public let url: URL?
    /// The request's flags.
    public let options: WebImageOptions
    /// The request's context.
    public let context: WebImageContext
    /// The coder that decodes: the context's ``WebImageContext/imageCoder``, else the default.
    public let coder: any ImageCoder
    /// The options handed to the coder.
    public let decodeOptions: ImageDecodeOptions

    /// The stage of one request.
    /// - Parameters:
    ///   - key: The cache key; default: the context's ``WebImageContext/imageCacheKey``, else
    ///     its cache key filter's key for `url`, else `url`'s absolute string.
    ///   - url: The image's URL, if any.
    ///   - options: The request's flags.
    ///   - context: The request's context.
    ///   - defaultCoder: The component's coder, used when the context names none.
    ///   - fileExtensionHint: A hint for coders that cannot sniff (`"png"`); default: the
    ///     context's decode options' hint, else `url`'s path extension.
    public init(key: String? = nil, url: URL? = nil, options: WebImageOptions = [], context: WebImageContext = WebImageContext(), defaultCoder: any ImageCoder, fileExtensionHint: String? = nil) {
        let key = key ?? context.imageCacheKey ?? url.map { context.cacheKeyFilter?.cacheKey(for: $0) ?? $0.absoluteString } ?? ""
        var decodeOptions = ImageDecodeOptions(options: options, context: context, cacheKey: key)
        if let fileExtensionHint {
            decodeOptions.fileExtensionHint = fileExtensionHint
        } else if decodeOptions.fileExtensionHint == nil, let url, !url.pathExtension.isEmpty {
            decodeOptions.fileExtensionHint = url.pathExtension.lowercased()
        }
        self.key = key
        self.url = url
        self.options = options
        self.context = context
        self.coder = context.imageCoder ?? defaultCoder
        self.decodeOptions = decodeOptions
    }

    /// Whether the request wants an image at all: `false` with `avoidDecodeImage`, where the
    /// data is the result.
    public var decodesImage: Bool { !options.contains(.avoidDecodeImage) }

    /// What the input is called in errors: the URL, else the key.
    var inputName: String { url?.absoluteString ?? "key \(key)" }

    // MARK: Loaded bytes

    /// Decodes the bytes a loader delivered, on the calling thread.
    /// - Returns: The image, or `nil` with `avoidDecodeImage`.
    /// - Throws: ``WebImageError/Code/badImageData`` for empty data or an image of zero pixels;
    ///   the coder's error otherwise, with the URL filled in.
    public func decodeLoadedData(_ data: Data) throws -> WebImage? {
        guard !data.isEmpty else {
            throw WebImageError(.badImageData, "Image data is empty: \(inputName) delivered 0 bytes", url: url)
        }
        guard decodesImage else { return nil }
        let start = ContinuousClock.now
        let image: WebImage
        do {
            image = try coder.decode(data, options: decodeOptions)
        } catch var error as WebImageError {
            if error.url == nil { error.url = url }
            throw error
        } catch {
            throw WebImageError(.badImageData, "Cannot decode \(data.count) bytes from \(inputName): \(error)", underlyingError: error, url: url)
        }
        guard !image.pixelSize.isEmpty else {
            throw WebImageError(.badImageData, "Image from \(inputName) decoded to \(image.pixelSize) pixels", url: url)
        }
        report(image, since: start)
        if options.contains(.decodeFirstFrameOnly), image.isAnimated { return image.firstFrameOnly }
        return image
    }

    /// ``decodeLoadedData(_:)`` on `executor`, off the Swift concurrency pool.
    /// - Throws: As the synchronous variant; ``WebImageError/Code/cancelled`` when the calling
    ///   task is cancelled before the decode starts.
    public func decodeLoadedData(_ data: Data, on executor: BlockingWorkExecutor) async throws -> WebImage? {
        guard decodesImage, !data.isEmpty else { return try decodeLoadedData(data) }
        do {
            return try await executor.run { try decodeLoadedData(data) }
        } catch is CancellationError {
            throw WebImageError.cancelled("Operation cancelled by user before decoding", url: url)
        }
    }

    // MARK: Cached bytes

    /// Decodes bytes read from a cache, on the calling thread, and says what to do with them
    /// when they do not give an image.
    /// - Parameters:
    ///   - data: The cached bytes.
    ///   - extendedData: The extended data stored with them, set on the image.
    public func decodeCachedData(_ data: Data, extendedData: Data? = nil) -> CachedDataDecodeResult {
        guard !data.isEmpty else {
            return .remove(WebImageError(.badImageData, "The cached data of \(inputName) is empty", url: url))
        }
        guard coder.canDecode(data) else {
            let format = ImageFormat.detect(data)
            let error = WebImageError(.unsupportedFormat, "No coder can decode the \(data.count) cached bytes of \(format) data of \(inputName)", url: url)
            // Data no registered format recognises is not an image; data of a known format
            // may wait for its coder to be registered.
            return format == .undefined ? .remove(error) : .keep(error)
        }
        let start = ContinuousClock.now
        var image: WebImage
        do {
            image = try coder.decode(data, options: decodeOptions)
        } catch {
            let wrapped: WebImageError
            if let error = error as? WebImageError {
                wrapped = error
            } else if WebImageError.isCancellation(error) {
                wrapped = WebImageError(.cancelled, "Decoding the cached data of \(inputName) was cancelled", underlyingError: error, url: url)
            } else {
                wrapped = WebImageError(.badImageData, "Cannot decode the \(data.count) cached bytes of \(inputName): \(error)", underlyingError: error, url: url)
            }
            // Too large for these options, or cancelled: the bytes are fine. Anything else: bad data.
            let keep = wrapped.code == .imageTooLarge || WebImageError.isCancellation(error)
            return keep ? .keep(wrapped) : .remove(wrapped)
        }
        guard !image.pixelSize.isEmpty else {
            return .remove(WebImageError(.badImageData, "The cached data of \(inputName) decoded to \(image.pixelSize) pixels", url: url))
        }
        if let extendedData { image.extendedData = extendedData }
        report(image, since: start)
        guard let shaped = shaped(image) else {
            return .keep(WebImageError(.cacheMiss, "The cached image of \(inputName) is not of the animated kind the request asks for (matchAnimatedImageClass)", url: url))
        }
        return .image(shaped)
    }

    /// Whether a cache may keep `decoded`, an image this stage decoded from the bytes stored
    /// under a key, in memory under that same key (a disk or remote hit's promotion).
    ///
    /// Not when the decode made it smaller than the stored bytes: a thumbnail size or a
    /// scale-down budget in the request, and the coder said so with
    /// ``ImageMetadata/thumbnail``. The memory tier would then answer a later query of that key
    /// without a thumbnail with the small image. Such a hit is returned, never promoted; the
    /// manager stores a thumbnail under its own key (``ImageManager/cacheKey(for:options:context:)``).
    /// Coders must flag images decoded smaller than their source (the built-in ones do).
    /// Nor when the request decoded only the first frame (`decodeFirstFrameOnly`): the still
    /// would answer a later query that wants the animation.
    public func mayPromote(_ decoded: WebImage) -> Bool {
        !decoded.metadata.contains(.thumbnail) && !decodeOptions.firstFrameOnly
    }

    /// The key under which a cache may keep `decoded` in memory when ``mayPromote(_:)`` refuses
    /// the queried key `key` because the decode made a thumbnail: the key of the thumbnail
    /// request for it (``ImageManager/thumbnailedKey(_:size:preserveAspectRatio:)``), which would
    /// decode the same bytes to the same image (SDWebImage's query with a thumbnail size writes
    /// memory under the thumbnail's key). `nil` when that does not hold: no thumbnail size (a
    /// scale-down budget), only the first frame, a kept colour profile, or a key that already
    /// has variant parts.
    /// - Parameters:
    ///   - decoded: The image this stage decoded from the bytes stored under `key`.
    ///   - key: The key that was queried.
    public func thumbnailMemoryKey(for decoded: WebImage, queriedKey key: String) -> String? {
        guard decoded.metadata.contains(.thumbnail), let size = decodeOptions.thumbnailPixelSize, !size.isEmpty,
              decodeOptions.scaleDownLimitBytes == nil, !decodeOptions.firstFrameOnly,
              decodeOptions.colorProfileHandling == .convertToSRGB,
              !key.utf8.contains(UInt8(ascii: "|")), !key.utf8.contains(UInt8(ascii: "\\")) else { return nil }
        return ImageManager.thumbnailedKey(key, size: size, preserveAspectRatio: decodeOptions.preserveAspectRatio)
    }

    /// ``decodeCachedData(_:extendedData:)`` on `executor`, off the Swift concurrency pool. A
    /// task cancelled before the decode starts gets ``CachedDataDecodeResult/keep(_:)``.
    public func decodeCachedData(_ data: Data, extendedData: Data? = nil, on executor: BlockingWorkExecutor) async -> CachedDataDecodeResult {
        do {
            return try await executor.run { decodeCachedData(data, extendedData: extendedData) }
        } catch {
            return .keep(WebImageError.cancelled("Operation cancelled by user before decoding", url: url))
        }
    }

    // MARK: Shaping

    /// `image` as the request's options want it: still with `decodeFirstFrameOnly`; `nil` when
    /// `matchAnimatedImageClass` rejects it. For memory hits and decoded cache data alike.
    public func shaped(_ image: WebImage) -> WebImage? {
        Self.shaped(image, options: options)
    }

    /// `image` as `options` want it: `decodeFirstFrameOnly` makes an animated image still;
    /// `matchAnimatedImageClass` returns `nil` for an animation whose frames are held the other
    /// way than the request asks (lazily by default, all decoded with `preloadAllFrames`).
    ///
    /// Decision: SDWebImage matches the image's class to the context's animated image class;
    /// here the "class" of an animated image is how its frames are held. A still image always
    /// matches.
    public static func shaped(_ image: WebImage, options: WebImageOptions) -> WebImage? {
        var image = image
        if options.contains(.decodeFirstFrameOnly), image.isAnimated {
            image = image.firstFrameOnly
        }
        if options.contains(.matchAnimatedImageClass), image.isAnimated,
           image.isLazilyAnimated == options.contains(.preloadAllFrames) {
            return nil
        }
        return image
    }

    // MARK: Progressive loading

    /// An incremental decoder for a progressive load, once `data` (the bytes so far) says the
    /// format can be decoded incrementally.
    /// - Returns: `nil` when the coder is not a ``ProgressiveImageCoder``, when it cannot decode
    ///   `data` incrementally, or with `avoidDecodeImage`.
    public func makeIncrementalDecoder(for data: Data) -> (any IncrementalImageDecoder)? {
        guard decodesImage, let progressive = coder as? any ProgressiveImageCoder, progressive.canIncrementallyDecode(data) else {
            return nil
        }
        return progressive.makeIncrementalDecoder(options: decodeOptions)
    }

    /// Whether the coder can decode incrementally at all (a ``ProgressiveImageCoder``).
    public var supportsIncrementalDecoding: Bool {
        decodesImage && coder is any ProgressiveImageCoder
    }

    // MARK: Sharing

    /// Equal for two requests whose decodes of the same bytes give the same image: the same
    /// coder, the same decode-affecting flags and scale, and equal values under every context
    /// key that declares ``WebImageContextKeyEffect/decode``. `nil` when the request cannot be
    /// compared (a key of unknown effect, or a decode value that is neither `Hashable` nor a
    /// class instance): it decodes on its own.
    public var sharingKey: ImageDecodeSharingKey? {
        guard let identity = context.identity(for: [.decode]) else { return nil }
        return ImageDecodeSharingKey(
            flags: options.subtracting(.decodeIndependent).rawValue,
            scaleFactor: decodeOptions.scaleFactor,
            fileExtensionHint: decodeOptions.fileExtensionHint,
            context: identity
        )
    }

    // MARK: Reporting

    private func report(_ image: WebImage, since start: ContinuousClock.Instant) {
        guard let sink = context.imageEventSink else { return }
        sink.emit(.decoded(milliseconds: (ContinuousClock.now - start).milliseconds, pixelSize: image.pixelSize, frameCount: image.frameCount))
    }
}
