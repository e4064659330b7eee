import Foundation
import WebImageCore

/// The header reader of a wrapped coder for some data: the coder a ``/WebImageCore/CodersManager``
/// would decode it with, or the coder itself when it reads headers and accepts the data. Shared
/// by the server's coder wrappers (``MemoryBudgetedCoder``, ``ShrinkOnLoadCoder``).
enum HeaderReaderLookup {
    /// `base`'s header reader for `data`, if it has one.
    static func reader(in base: any ImageCoder, for data: Data) -> (any ImageHeaderReader)? {
        if let manager = base as? CodersManager { return manager.headerReader(for: data) }
        guard let reader = base as? any ImageHeaderReader, reader.canDecode(data) else { return nil }
        return reader
    }

    /// The properties `base`'s header reader finds in `data`.
    /// - Throws: ``/WebImageCore/WebImageError`` with `unsupportedFormat` when no reader takes
    ///   the data, or the reader's error.
    static func properties(in base: any ImageCoder, of data: Data) throws -> ImageProperties {
        guard let reader = reader(in: base, for: data) else {
            throw WebImageError(.unsupportedFormat, "No coder can read the headers of \(data.count) bytes of \(ImageFormat.detect(data)) data")
        }
        return try reader.readProperties(of: data)
    }
}
