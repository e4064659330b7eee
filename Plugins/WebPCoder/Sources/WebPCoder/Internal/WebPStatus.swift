import CWebP
import WebImageCore

/// Turns libwebp's `VP8StatusCode` into words and into ``WebImageError``s.
enum WebPStatus {
    /// A short description of `status` for error messages.
    static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OK: "ok"
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "unsupported feature"
        case VP8_STATUS_SUSPENDED: "suspended"
        case VP8_STATUS_USER_ABORT: "aborted"
        case VP8_STATUS_NOT_ENOUGH_DATA: "not enough data"
        default: "status \(status.rawValue)"
        }
    }

    /// The error for a decoding failure: "truncated" for missing data, "corrupt" for the rest.
    /// - Parameters:
    ///   - what: What was being decoded (`"WebP data of 120 bytes"`, `"frame 3 of 8"`).
    static func decodingError(_ status: VP8StatusCode, _ what: String) -> WebImageError {
        let reason = status == VP8_STATUS_NOT_ENOUGH_DATA ? "is truncated" : "is corrupt or unsupported"
        return WebImageError(.badImageData, "\(what) \(reason) (libwebp: \(describe(status)))")
    }

    /// A description of a `WebPEncodingError` from `WebPPicture.error_code`.
    static func describe(_ error: WebPEncodingError) -> String {
        switch error {
        case VP8_ENC_OK: "ok"
        case VP8_ENC_ERROR_OUT_OF_MEMORY: "out of memory"
        case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: "out of memory for the bitstream"
        case VP8_ENC_ERROR_NULL_PARAMETER: "null parameter"
        case VP8_ENC_ERROR_INVALID_CONFIGURATION: "invalid configuration"
        case VP8_ENC_ERROR_BAD_DIMENSION: "bad dimension"
        case VP8_ENC_ERROR_PARTITION0_OVERFLOW: "partition 0 overflow (try a lower quality)"
        case VP8_ENC_ERROR_PARTITION_OVERFLOW: "partition overflow"
        case VP8_ENC_ERROR_BAD_WRITE: "bad write"
        case VP8_ENC_ERROR_FILE_TOO_BIG: "file too big (over 4 GiB)"
        case VP8_ENC_ERROR_USER_ABORT: "aborted"
        default: "error \(error.rawValue)"
        }
    }
}
