import SwiftWebImage

/// One load of the demo: a row of its table and a cell of its contact sheet.
struct DemoRow: Sendable {
    /// The demo step (`network`, `memory`, `disk`, `context`, `coalesce`).
    let step: String
    /// The sample's file name.
    let name: String
    /// Where the result came from (`network`, `memory`, `disk`).
    let origin: String
    /// How long the load took.
    let elapsed: Duration
    /// What the manager delivered.
    let result: ImageLoadResult
    /// The delivered image.
    let image: WebImage
    /// Whether the image differs from the loaded bytes (transformed or thumbnailed).
    let reencode: Bool
    /// What the row shows.
    let note: String
}
