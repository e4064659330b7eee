import CAVIF
import WebImageCore

/// Turns libavif's `avifResult` and diagnostics into words and into ``WebImageError``s.
enum AVIFStatus {
    /// libavif's name for `result` (`"Truncated data"`, `"BMFF parsing failed"`).
    static func describe(_ result: avifResult) -> String {
        guard let name = avifResultToString(result) else { return "result \(result.rawValue)" }
        return String(cString: name)
    }

    /// The detail libavif left in `diag` (empty when it gave none).
    static func detail(_ diag: avifDiagnostics) -> String {
        var diag = diag
        return withUnsafeBytes(of: &diag.error) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// libavif's name for `result` with the diagnostic detail, if any.
    static func describe(_ result: avifResult, _ diag: avifDiagnostics) -> String {
        let detail = detail(diag)
        return detail.isEmpty ? describe(result) : "\(describe(result)): \(detail)"
    }

    /// The error for a decoding failure: "truncated" for missing data, "corrupt" for the rest.
    /// - Parameter what: What was being decoded (`"AVIF data of 120 bytes"`, `"frame 3 of 8 of ..."`).
    static func decodingError(_ result: avifResult, _ diag: avifDiagnostics, _ what: String) -> WebImageError {
        let reason = result == AVIF_RESULT_TRUNCATED_DATA ? "is truncated" : "is corrupt or unsupported"
        return WebImageError(.badImageData, "\(what) \(reason) (libavif: \(describe(result, diag)))")
    }
}
