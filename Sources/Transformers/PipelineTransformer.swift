public import WebImageCore

/// Applies a list of transformers in order (SDWebImage's `SDImagePipelineTransformer`):
/// `.pipeline([.resize(to: size, mode: .aspectFill), .roundCorner(radius: 8)])`.
///
/// Each transformer receives the previous one's output and the same cache key; the first error
/// stops the pipeline and is thrown as is. Pipelines nest (a nested pipeline's key joins into
/// the outer one's, so `[a, [b, c]]` and `[a, b, c]` have the same key and do the same work).
/// An empty pipeline returns the image marked ``/WebImageCore/ImageMetadata/transformed`` and otherwise unchanged.
/// An animated image goes through each transformer whole (every frame, see the built-in
/// transformers' notes on memory); the first one turns a lazily decoded animation into frames
/// held in memory.
///
/// Key: the children's keys joined with `-`, as SDWebImage does:
/// `ResizingTransformer(400x300,aspectFill,lanczos3)-RoundCornerTransformer(8.000000,15,0.000000,#000000FF)`;
/// `PipelineTransformer()` for an empty pipeline.
///
/// Thread-safety: an immutable value over `Sendable` transformers; use it from any thread.
public struct PipelineTransformer: ImageTransformer {
    /// The transformers, applied first to last.
    public let transformers: [any ImageTransformer]

    /// A pipeline applying `transformers` first to last.
    /// - Parameter transformers: The transformers, applied first to last.
    public init(_ transformers: [any ImageTransformer]) {
        self.transformers = transformers
    }

    /// The children's keys joined with `-` (`PipelineTransformer()` when empty).
    public var transformerKey: String {
        transformers.isEmpty ? "PipelineTransformer()" : transformers.map(\.transformerKey).joined(separator: "-")
    }

    /// Applies every transformer in order.
    /// - Throws: The first error a transformer throws.
    public func transform(_ image: WebImage, forKey key: String) throws -> WebImage {
        var current = image
        for transformer in transformers {
            current = try transformer.transform(current, forKey: key)
        }
        if transformers.isEmpty {
            current.metadata.insert(.transformed)
        }
        return current
    }
}

extension ImageTransformer where Self == PipelineTransformer {
    /// A ``PipelineTransformer``: `.pipeline([.resize(to: size), .blur(radius: 2)])`.
    /// - Parameter transformers: The transformers, applied first to last.
    public static func pipeline(_ transformers: [any ImageTransformer]) -> PipelineTransformer {
        PipelineTransformer(transformers)
    }
}
