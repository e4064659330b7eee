import Foundation
import SwiftWebImage

/// A new empty directory under the system's temporary directory, for one check.
enum Scratch {
    /// Makes the directory `plugin-consumer-<name>-<uuid>`.
    static func directory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("plugin-consumer-\(name)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A 32x24 opaque gradient.
    static func bitmap() throws -> Bitmap {
        var bitmap = try Bitmap(width: 32, height: 24, fill: .white, hasAlpha: false)
        for y in 0..<24 {
            for x in 0..<32 {
                bitmap[x, y] = RGBAColor(red: UInt8(x * 8), green: UInt8(y * 10), blue: 128)
            }
        }
        return bitmap
    }
}
