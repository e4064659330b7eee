import Foundation
import WebImageCore

extension ThumborRenderer {
    /// thumbor's `/meta/` JSON for `source` (``ThumborMetadata``): the request's operations as
    /// the plan's geometry did them, and the size of the image once rendered (every operation
    /// and filter run, as thumbor reports its engine's size).
    func metadata(of source: WebImage, reduced: ReducedOriginals? = nil, key: String = "") throws -> Data {
        let image = try render(source, reduced: reduced, key: key)
        var geometry = ThumborGeometry(request: request, sourceSize: source.pixelSize)
        geometry.run(trimmedRegion: trimmedRegion)
        let metadata = ThumborMetadata(source: request.source, width: image.pixelSize.width, height: image.pixelSize.height,
                                       frameCount: source.frameCount, operations: geometry.operations, focalPoints: geometry.focalPoints)
        return Data(metadata.json().utf8)
    }
}
