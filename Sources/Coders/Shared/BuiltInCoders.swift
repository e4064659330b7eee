public import WebImageCore

/// The built-in coders of WebImageCoders, in registration order for a ``/WebImageCore/CodersManager`` (the
/// last is asked first).
///
/// Thread-safety: every coder is a stateless value; the list is made fresh on each access.
public enum BuiltInCoders {
    /// ``BMPCoder``, ``GIFCoder``, ``PNGCoder`` (with APNG) and ``JPEGCoder``, in that order, so
    /// that JPEG, the most common format on the web, is asked first. The formats do not
    /// overlap, so the order only affects how soon the right coder is found.
    public static var all: [any ImageCoder] {
        [BMPCoder(), GIFCoder(), PNGCoder(), JPEGCoder()]
    }
}
