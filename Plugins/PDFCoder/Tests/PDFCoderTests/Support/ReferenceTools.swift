import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// poppler's command-line renderer (`pdftocairo`, Debian package poppler-utils: the same cairo
/// back end as poppler-glib) and `rsvg-convert -f pdf` (librsvg2-bin: PDFs written by cairo),
/// run as subprocesses in a temporary folder. Tests that need them are skipped, saying so,
/// when they are not on the PATH.
enum ReferenceTools {
    /// The full path of `name` on the PATH, or `nil`.
    static func path(of name: String) -> String? {
        ChildProcess.path(of: name)
    }

    /// Whether `pdftocairo` is installed.
    static let hasPDFToCairo = path(of: "pdftocairo") != nil
    /// Whether `rsvg-convert` is installed.
    static let hasRSVGConvert = path(of: "rsvg-convert") != nil
    /// The message of the tests skipped without `pdftocairo`.
    static let missingPDFToCairo: Comment = "pdftocairo is not installed (Debian: apt-get install poppler-utils): skipped"
    /// The message of the tests skipped without `rsvg-convert` or `pdftocairo`.
    static let missingTools: Comment = "rsvg-convert or pdftocairo is not installed (Debian: apt-get install librsvg2-bin poppler-utils): skipped"

    /// Page `page` (from 1) of `pdf` rendered by `pdftocairo` to PNG at `width` x `height`, decoded.
    static func render(_ pdf: Data, page: Int = 1, width: Int, height: Int) async throws -> Bitmap {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try pdf.writeWithoutSync(to: folder.appendingPathComponent("in.pdf"))
        _ = try await ChildProcess.output(of: "pdftocairo", ["-png", "-singlefile", "-f", "\(page)", "-l", "\(page)", "-scale-to-x", "\(width)", "-scale-to-y", "\(height)", "in.pdf", "out"], in: folder)
        return try PNGCoder().decode(Data(contentsOf: folder.appendingPathComponent("out.png"))).bitmap
    }

    /// `svg` made into a PDF by `rsvg-convert -f pdf` (cairo's PDF writer).
    static func pdf(fromSVG svg: String) async throws -> Data {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(svg.utf8).writeWithoutSync(to: folder.appendingPathComponent("in.svg"))
        _ = try await ChildProcess.output(of: "rsvg-convert", ["-f", "pdf", "-o", "out.pdf", "in.svg"], in: folder)
        return try Data(contentsOf: folder.appendingPathComponent("out.pdf"))
    }

    /// A new empty temporary folder; the caller removes it.
    static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pdfcoder-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
