import WebImageTestSupport

extension Pillow {
    /// The message of a test skipped for want of Pillow.
    static let missing = skipMessage("ICO conformance fixtures")
}
