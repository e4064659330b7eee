public import Foundation

/// A coder made of coders (SDWebImage's `SDImageCodersManager`): it asks its members in
/// reverse registration order, so the coder added LAST is asked FIRST.
///
/// - Decoding uses the first member that `canDecode` the data; if that member throws, the next
///   capable member is tried (SDWebImage stops at the first: we fall through). If every capable
///   member fails, the first member's error is thrown, since it came from the preferred coder.
/// - Encoding uses the first member that `canEncode(to:)` the format, with the same fall-through.
/// - Progressive and animated decoding pick the first member of that kind that accepts the data.
/// - Header reading (``readProperties(of:)``) asks the member that would decode the data, when
///   it is an ``ImageHeaderReader``.
///
/// Members can be added and removed at any time from any thread; each call works on a snapshot
/// and calls no member while holding a lock.
///
/// The shared instance with the built-in coders, `CodersManager.shared`, comes with the
/// `SwiftWebImage` module; `WebImageCore` knows no concrete coder.
public final class CodersManager: ProgressiveImageCoder, AnimatedImageCoder, ImageHeaderReader {
    private let list: RegistrationList<any ImageCoder>

    /// A manager with `coders`, in registration order (the last one is asked first).
    public init(_ coders: [any ImageCoder] = []) {
        list = RegistrationList(coders)
    }

    /// The members in registration order (the last one is asked first). Setting replaces all.
    public var coders: [any ImageCoder] {
        get { list.members }
        set { list.replaceAll(with: newValue) }
    }

    /// Adds `coder`; it is asked before every member added earlier.
    public func add(_ coder: any ImageCoder) {
        list.add(coder)
    }

    /// Removes the members `shouldRemove` picks (the predicate runs with no lock held).
    public func removeAll(where shouldRemove: (any ImageCoder) throws -> Bool) rethrows {
        try list.removeAll(where: shouldRemove)
    }

    /// Removes `coder` (compared by identity).
    public func remove(_ coder: some ImageCoder & AnyObject) {
        list.removeAll { ($0 as AnyObject) === coder }
    }

    // MARK: ImageCoder

    public func canDecode(_ data: Data) -> Bool {
        list.byPriority.contains { $0.canDecode(data) }
    }

    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        guard !data.isEmpty else {
            throw WebImageError(.badImageData, "Image data is empty")
        }
        return try firstSuccess(
            among: list.byPriority.filter { $0.canDecode(data) },
            none: WebImageError(.unsupportedFormat, "No coder can decode \(data.count) bytes of \(ImageFormat.detect(data)) data")
        ) { try $0.decode(data, options: options) }
    }

    public func canEncode(to format: ImageFormat) -> Bool {
        list.byPriority.contains { $0.canEncode(to: format) }
    }

    public func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        try firstSuccess(
            among: list.byPriority.filter { $0.canEncode(to: format) },
            none: WebImageError(.unsupportedFormat, "No coder can encode to \(format)")
        ) { try $0.encode(image, as: format, options: options) }
    }

    // MARK: ProgressiveImageCoder

    public func canIncrementallyDecode(_ data: Data) -> Bool {
        progressiveCoder(for: data) != nil
    }

    /// An incremental decoder that picks its coder when the first data arrives: the first member
    /// that can incrementally decode it.
    public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoder {
        DeferredIncrementalDecoder(options: options) { [self] data in progressiveCoder(for: data) }
    }

    /// The member that would decode `data` progressively, if any.
    public func progressiveCoder(for data: Data) -> (any ProgressiveImageCoder)? {
        for coder in list.byPriority {
            if let progressive = coder as? any ProgressiveImageCoder, progressive.canIncrementallyDecode(data) {
                return progressive
            }
        }
        return nil
    }

    // MARK: AnimatedImageCoder

    public func makeAnimatedImageProvider(for data: Data, options: ImageDecodeOptions) throws -> any AnimatedImageProvider {
        let candidates = list.byPriority.compactMap { coder -> (any AnimatedImageCoder)? in
            guard let animated = coder as? any AnimatedImageCoder, animated.canDecode(data) else { return nil }
            return animated
        }
        return try firstSuccess(
            among: candidates,
            none: WebImageError(.unsupportedFormat, "No animated coder can decode \(data.count) bytes of \(ImageFormat.detect(data)) data")
        ) { try $0.makeAnimatedImageProvider(for: data, options: options) }
    }

    // MARK: ImageHeaderReader

    /// The member that would decode `data` (the first that `canDecode` it), when it can read
    /// headers; `nil` when that member is no ``ImageHeaderReader`` (callers then decode) or no
    /// member takes the data.
    public func headerReader(for data: Data) -> (any ImageHeaderReader)? {
        list.byPriority.first { $0.canDecode(data) } as? any ImageHeaderReader
    }

    /// The properties of `data`, from ``headerReader(for:)``.
    /// - Throws: ``WebImageError/Code/unsupportedFormat`` when the member that would decode the
    ///   data cannot read headers (or there is none); the member's error otherwise.
    public func readProperties(of data: Data) throws -> ImageProperties {
        guard let reader = headerReader(for: data) else {
            throw WebImageError(.unsupportedFormat, "No coder can read the headers of \(data.count) bytes of \(ImageFormat.detect(data)) data")
        }
        return try reader.readProperties(of: data)
    }

    /// Tries `work` on each candidate in turn; the first success wins, else the first error.
    private func firstSuccess<Candidate, Output>(
        among candidates: [Candidate],
        none: WebImageError,
        _ work: (Candidate) throws -> Output
    ) throws -> Output {
        var firstError: (any Error)?
        for candidate in candidates {
            do {
                return try work(candidate)
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        throw firstError ?? none
    }
}
