/// Why a download failed when ``DownloaderConfiguration/refusesNonPublicAddresses`` refused the
/// address it would have connected to: the ``/WebImageCore/WebImageError/underlyingError`` of
/// that failure (code `invalidDownloadResponse`), so that a caller such as an image server can
/// tell the refusal from an origin failure without reading the message.
public struct DownloadAddressRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The refused address and why, as the guard judged it (`127.0.0.1 (loopback)`).
    public let address: String

    /// A refusal of `address`.
    public init(address: String) {
        self.address = address
    }

    /// The refused address and why.
    public var description: String { address }
}
