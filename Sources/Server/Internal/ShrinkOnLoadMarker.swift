import WebImageCore

/// The transformer part of a shrink-on-load request's key in the originals' cache
/// (``ShrinkOnLoad/variantKey(for:)``): it changes no pixel; its key keeps a reduced decode
/// apart from the full original and from reductions that cover other plans.
struct ShrinkOnLoadMarker: ImageTransformer {
    let transformerKey: String

    func transform(_ image: WebImage, forKey key: String) throws -> WebImage { image }
}
