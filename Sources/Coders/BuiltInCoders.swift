public import WebImageCore

/// The built-in coders of WebImageCoders, in registration order for a ``CodersManager`` (the
/// last is asked first).
///
/// Thread-safety: every coder is a stateless value; the list is made fresh on each access.
public enum BuiltInCoders {
    /// BMP, GIF, PNG (with APNG) and JPEG: the order of SDWebImage's defaults, with JPEG, the
    /// most common format on the web, asked first. The formats do not overlap, so the order only
    /// affects how soon the right coder is found.
    public static var all: [any ImageCoder] {
        [GIFCoder(), PNGCoder(), JPEGCoder()]
    }
}
