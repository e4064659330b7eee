import CHEIF

/// libheif's process-wide state: initialised once (its plug-ins registered), never torn down,
/// and what its build can decode and encode.
enum HEIFLibrary {
    /// `true` once `heif_init` has run; read before any other libheif call.
    static let initialized: Bool = {
        let error = heif_init(nil)
        return error.code == heif_error_Ok
    }()

    /// libheif's version at run time (`"1.15.1"`).
    static var version: String {
        _ = initialized
        return String(cString: heif_get_version())
    }

    /// Whether libheif has a decoder plug-in for HEVC (libde265 on Debian).
    static let decodesHEVC: Bool = {
        _ = initialized
        return heif_have_decoder_for_format(heif_compression_HEVC) != 0
    }()

    /// Whether libheif has a decoder plug-in for AV1 (dav1d or libaom on Debian).
    static let decodesAV1: Bool = {
        _ = initialized
        return heif_have_decoder_for_format(heif_compression_AV1) != 0
    }()

    /// Whether libheif has an encoder plug-in for HEVC (x265 on Debian).
    static let encodesHEVC: Bool = {
        _ = initialized
        return heif_have_encoder_for_format(heif_compression_HEVC) != 0
    }()
}
