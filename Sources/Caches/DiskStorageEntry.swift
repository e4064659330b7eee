public import Foundation

/// One entry of a ``DiskStorage``, as ``DiskStorage/entry(forKey:)`` reads it: the encoded
/// image and the extended data stored with it, read together.
///
/// A storage returns both parts of one write (see ``DiskStorage/setData(_:forKey:extendedData:)``),
/// never the data of one write with the extended data of another.
public struct DiskStorageEntry: Sendable, Hashable {
    /// The stored bytes: the encoded image.
    public var data: Data
    /// The extended data stored with them (the image's ``/WebImageCore/WebImage/extendedData``),
    /// or `nil` when the write stored none.
    public var extendedData: Data?

    /// An entry of `data` and `extendedData`.
    /// - Parameters:
    ///   - data: The stored bytes.
    ///   - extendedData: The extended data stored with them; default none.
    public init(data: Data, extendedData: Data? = nil) {
        self.data = data
        self.extendedData = extendedData
    }
}
