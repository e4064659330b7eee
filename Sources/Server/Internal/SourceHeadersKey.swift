import WebImageCore

/// The headers of the data being decoded, read once by the outermost of the server's coder
/// wrappers and handed to those inside it through the decode options' context
/// (``SourceCoderWrapper/sourceProperties(of:options:)``): a shrink-on-load decode
/// (``ShrinkOnLoadCoder``) reads them to choose its size, and the memory budget
/// (``MemoryBudgetedCoder``) inside it reserves from the same headers instead of reading
/// them again. Set only on the options a wrapper passes to its base, for the same data.
enum SourceHeadersKey: WebImageContextKey {
    typealias Value = ImageProperties
    /// A copy of what the data says: it changes nothing about the image.
    static let effect = WebImageContextKeyEffect.none
}
