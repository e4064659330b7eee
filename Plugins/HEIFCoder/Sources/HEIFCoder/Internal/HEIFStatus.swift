import CHEIF
import WebImageCore

/// Turns libheif's `heif_error` into ``WebImageError``s.
enum HEIFStatus {
    /// libheif's message for `error`, or its code when it has none.
    static func describe(_ error: heif_error) -> String {
        if let message = error.message, message.pointee != 0 { return String(cString: message) }
        return "error \(error.code.rawValue).\(error.subcode.rawValue)"
    }

    /// The error for a failed read or decode of `what`: ``WebImageError/Code/imageTooLarge`` for
    /// libheif's security limits, ``WebImageError/Code/badImageData`` for the rest (saying
    /// whether the data is truncated, corrupt or of a kind this libheif cannot decode).
    ///   - truncated: Whether the data ends before its boxes do (``HEIFBoxes/isTruncated(_:)``).
    static func decodingError(_ error: heif_error, _ what: String, truncated: Bool = false) -> WebImageError {
        let reason = describe(error)
        if error.subcode == heif_suberror_Security_limit_exceeded {
            return WebImageError(.imageTooLarge, "\(what) is over libheif's size limits (libheif: \(reason))")
        }
        switch error.code {
        case heif_error_Unsupported_filetype, heif_error_Unsupported_feature:
            return WebImageError(.badImageData, "\(what) is of a kind libheif \(HEIFLibrary.version) cannot decode (libheif: \(reason))")
        case heif_error_Decoder_plugin_error where error.subcode == heif_suberror_Unsupported_codec:
            return WebImageError(.badImageData, "\(what) needs a codec this libheif has no decoder for (libheif: \(reason))")
        default:
            let truncated = truncated || error.subcode == heif_suberror_End_of_data
            return WebImageError(.badImageData, "\(what) \(truncated ? "is truncated" : "is corrupt or unsupported") (libheif: \(reason))")
        }
    }

    /// Throws ``decodingError(_:_:)`` unless `error` is `heif_error_Ok`.
    static func check(_ error: heif_error, _ what: @autoclosure () -> String, truncated: @autoclosure () -> Bool = false) throws {
        guard error.code != heif_error_Ok else { return }
        throw decodingError(error, what(), truncated: truncated())
    }

    /// Throws ``WebImageError/Code/encodingFailed`` unless `error` is `heif_error_Ok`.
    static func checkEncoding(_ error: heif_error, _ step: @autoclosure () -> String) throws {
        guard error.code != heif_error_Ok else { return }
        throw WebImageError(.encodingFailed, "libheif failed to \(step()): \(describe(error))")
    }
}
