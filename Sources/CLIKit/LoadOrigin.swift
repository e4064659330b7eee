import SwiftWebImage

/// Where a result came from, for reports: `memory`, `disk`, or for a fresh load the loader's
/// kind (`network`, `file`, `data`).
enum LoadOrigin {
    /// The origin of `result`, loaded from `source`.
    static func name(of result: ImageLoadResult, source: ImageSource) -> String {
        switch result.cacheType {
        case .memory, .all: "memory"
        case .disk: "disk"
        case .none: source.loaderOrigin
        }
    }
}
