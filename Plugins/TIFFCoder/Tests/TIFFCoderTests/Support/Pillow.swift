import WebImageTestSupport

extension Pillow {
    /// The message of a test skipped for want of Pillow.
    static let missing = skipMessage("TIFF conformance fixtures")
}
