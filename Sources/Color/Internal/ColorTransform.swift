import CLCMS2

/// One lcms2 transform from a profile to sRGB for one pixel layout, or the identity (`handle`
/// `nil`) for a profile that describes sRGB. Shared by every thread: built with
/// `cmsFLAGS_NOCACHE`, so `cmsDoTransform` keeps no state in it.
///
/// `@unchecked Sendable`: the handle is immutable after creation and lcms2 allows concurrent
/// `cmsDoTransform*` calls on a transform without its one-pixel cache.
final class ColorTransform: @unchecked Sendable {
    let handle: cmsHTRANSFORM?

    init(handle: cmsHTRANSFORM?) {
        self.handle = handle
    }

    deinit {
        if let handle { cmsDeleteTransform(handle) }
    }
}

/// Why a profile cannot be used.
struct ColorProfileRefusal: Error {
    let message: String
}
