public import WebImageCore

extension WebImageContext {
    /// libavif's encoding speed for this request, 0 (slowest, smallest) ... 10 (fastest); `nil`
    /// (the default) leaves it to the ``AVIFCoder``'s ``AVIFCoder/speed`` setting.
    public var avifEncodingSpeed: Int? {
        get { self[AVIFEncodingSpeedKey.self] }
        set { self[AVIFEncodingSpeedKey.self] = newValue }
    }
}
