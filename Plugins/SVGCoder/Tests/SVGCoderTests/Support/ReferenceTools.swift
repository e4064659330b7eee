import Foundation
import SwiftWebImage
import WebImageCore
import WebImageTestSupport
import Testing

/// librsvg's command-line renderer (`rsvg-convert`, Debian package librsvg2-bin), run as a
/// subprocess in a temporary folder. Tests that need it are skipped, saying so, when it is not
/// on the PATH.
enum ReferenceTools {
    /// The full path of `name` on the PATH, or `nil`.
    static func path(of name: String) -> String? {
        ChildProcess.path(of: name)
    }

    /// Whether `rsvg-convert` is installed.
    static let available = path(of: "rsvg-convert") != nil

    /// The message of the tests skipped without it.
    static let missing: Comment = "rsvg-convert is not installed (Debian: apt-get install librsvg2-bin): skipped"

    /// `svg` rendered by `rsvg-convert` to PNG at `width` x `height`, decoded.
    static func render(_ svg: String, width: Int, height: Int) async throws -> Bitmap {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(svg.utf8).writeWithoutSync(to: folder.appendingPathComponent("in.svg"))
        _ = try await ChildProcess.output(of: "rsvg-convert", ["-w", "\(width)", "-h", "\(height)", "-f", "png", "-o", "out.png", "in.svg"], in: folder)
        let png = try Data(contentsOf: folder.appendingPathComponent("out.png"))
        return try PNGCoder().decode(png).bitmap
    }

    /// A new empty temporary folder; the caller removes it.
    static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("svgcoder-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
