public import WebImageCore

extension ImageFormat {
    /// Windows cursor (`.cur`): an ICO whose directory says type 2 and whose entries carry a
    /// hotspot. Registered by ``ICOCoder`` (detection, file extension, MIME type) when the first
    /// coder is made.
    public static let cur = ImageFormat(rawValue: "cur")
}
