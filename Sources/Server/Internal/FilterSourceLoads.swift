import WebImageCore

/// The images a request's `watermark(...)` and `frame(...)` filters draw
/// (``ThumborRequest/filterSources``), treated as sources in every way: resolved with the
/// server's source rules (``init(for:resolver:)``, before the result cache is asked, as the
/// request's own source), then loaded with the request's source, each through the same load
/// (the server's manager: its caches, its coalescing, the decode limits and the memory budget),
/// as children of the request's task, so they stop with it (its deadline, its client gone).
///
/// Failures, as thumbor 7.8's `watermark` answers them (checked by running it): the source
/// rules refuse an image as they refuse a source (`403` off the allow-list or outside the file
/// root, `400` for a scheme not served); an image the guard refuses is `403`; one that cannot be
/// fetched (not found, origin error) is `400` (thumbor: "bad watermark result"); one that is no
/// image the server can decode is `500` (thumbor's answer to any other watermark failure); the
/// limits keep their own statuses (`413`, `422`, `503`). A failure of the request's source wins
/// over these (thumbor loads the watermark after the source).
struct FilterSourceLoads: Sendable {
    /// One image: its URL as written in the filter, and where it loads from.
    struct Entry: Sendable {
        /// The URL as written (percent-decoded once).
        var text: String
        /// The resolved URL and loader.
        var resolved: SourceResolver.Resolved
    }

    /// How one image is loaded: the server's load of an original.
    typealias Load = @Sendable (SourceResolver.Resolved) async throws -> ImageLoadResult

    /// The images, in the URL's order, each once.
    let entries: [Entry]
    /// Whether SVG images may be drawn (rasterised), as SVG sources may.
    let allowsSVG: Bool

    /// The filter images of `request`, resolved with `resolver`.
    /// - Throws: The ``ServingFailure`` the source rules give the first image they refuse (a
    ///   file that does not exist: `400`, as a watermark that cannot be loaded).
    init(for request: ThumborRequest, resolver: SourceResolver, allowsSVG: Bool) throws(ServingFailure) {
        var entries: [Entry] = []
        for text in request.filterSources {
            do {
                entries.append(Entry(text: text, resolved: try resolver.resolve(text)))
            } catch where error.status == 404 {
                throw ServingFailure(400, "the filter image \(text) could not be loaded: \(error.message)")
            }
        }
        self.entries = entries
        self.allowsSVG = allowsSVG
    }

    /// What loading the source and the filter images came to.
    struct Outcome: Sendable {
        /// The source's load.
        var source: Result<ImageLoadResult, any Error>
        /// The filter images by their URL as written (as decoded: an animation's first frame
        /// is the renderer's to take), or the failure of the first (in the URL's order) that
        /// failed. Empty for a request without filter images.
        var images: Result<[String: WebImage], ServingFailure>
    }

    /// Loads `source` with `loadSource` and every filter image with `load`, at once (the
    /// source's load may differ: a shrink-on-load decode, ``ShrinkOnLoad``). When the source fails, the
    /// images' loads are cancelled. Images loaded for a request that then fails are handed to
    /// `release` (their decode's hold on the memory budget); on success the caller releases
    /// them after the render.
    func load(alongside source: SourceResolver.Resolved, source loadSource: @escaping Load, with load: @escaping Load, release: @escaping @Sendable (WebImage) -> Void) async -> Outcome {
        enum Piece: Sendable {
            case source(Result<ImageLoadResult, any Error>)
            case image(Int, Result<WebImage, ServingFailure>)
        }
        guard !entries.isEmpty else {
            // No filter images (most requests): the source's load alone, no task group.
            do { return Outcome(source: .success(try await loadSource(source)), images: .success([:])) } catch { return Outcome(source: .failure(error), images: .success([:])) }
        }
        let allowsSVG = allowsSVG
        return await withTaskGroup(of: Piece.self) { group in
            group.addTask {
                do { return .source(.success(try await loadSource(source))) } catch { return .source(.failure(error)) }
            }
            for (index, entry) in entries.enumerated() {
                group.addTask {
                    do {
                        let loaded = try await load(entry.resolved)
                        guard let image = loaded.image else {
                            return .image(index, .failure(ServingFailure(500, "the filter image \(entry.text) gave no image")))
                        }
                        if let refusal = Self.vectorRefusal(of: image, text: entry.text, allowsSVG: allowsSVG) {
                            release(image)
                            return .image(index, .failure(refusal))
                        }
                        return .image(index, .success(image))
                    } catch {
                        return .image(index, .failure(Self.failure(error, text: entry.text)))
                    }
                }
            }
            var sourceResult: Result<ImageLoadResult, any Error>?
            var images: [Int: Result<WebImage, ServingFailure>] = [:]
            for await piece in group {
                switch piece {
                case .source(let result):
                    sourceResult = result
                    if case .failure = result { group.cancelAll() }
                case .image(let index, let result):
                    images[index] = result
                }
            }
            let loaded = images.values.compactMap { try? $0.get() }
            let source = sourceResult ?? .failure(CancellationError())
            if case .failure = source {
                loaded.forEach(release)
                return Outcome(source: source, images: .success([:]))
            }
            var byText: [String: WebImage] = [:]
            for (index, entry) in entries.enumerated() {
                switch images[index] {
                case .success(let image)?:
                    byText[entry.text] = image
                case .failure(let failure)?:
                    loaded.forEach(release)
                    return Outcome(source: source, images: .failure(failure))
                case nil:
                    loaded.forEach(release)
                    return Outcome(source: source, images: .failure(ServingFailure(503, "request cancelled", retryAfter: 1)))
                }
            }
            return Outcome(source: source, images: .success(byText))
        }
    }

    /// The answer to a filter image's failed load (see the type's summary).
    static func failure(_ error: any Error, text: String) -> ServingFailure {
        let asSource = ServingFailure.forLoad(error, source: text)
        if let error = error as? WebImageError, error.code == .badImageData || error.code == .unsupportedFormat {
            return ServingFailure(500, "the filter image \(text) is not an image the server can decode")
        }
        switch asSource.status {
        case 404, 502:
            return ServingFailure(400, "the filter image \(text) could not be loaded: \(asSource.message)")
        default:
            return asSource
        }
    }

    /// The refusal of a vector image, as the server refuses vector sources: SVG only when
    /// allowed, other vector formats never.
    static func vectorRefusal(of image: WebImage, text: String, allowsSVG: Bool) -> ServingFailure? {
        guard image.format == .svg || image.metadata.contains(.vector) else { return nil }
        guard image.format == .svg, allowsSVG else {
            let kind = image.format == .svg ? "SVG" : "a vector image (\(image.format))"
            return ServingFailure(422, "the filter image \(text) is \(kind): vector sources are refused")
        }
        return nil
    }
}
