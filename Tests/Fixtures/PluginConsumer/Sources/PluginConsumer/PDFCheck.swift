import Foundation
import PDFCoder
import SwiftWebImage

/// PDFCoder: registered with one line, then the shared coders draw the second page of a
/// hand-written two-page PDF picked through the context key.
enum PDFCheck {
    @Sendable static func run() async throws -> String {
        CodersManager.shared.add(PDFCoder())
        var objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>"]
        objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 50] >>")
        objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 30 60] >>")
        var bytes = [UInt8]("%PDF-1.4\n".utf8)
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(bytes.count)
            bytes += Array("\(index + 1) 0 obj\n\(object)\nendobj\n".utf8)
        }
        let xref = bytes.count
        var tail = "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { tail += String(format: "%010d 00000 n \n", offset) }
        tail += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        let pdf = Data(bytes + Array(tail.utf8))
        var context = WebImageContext()
        context.pdfPageIndex = 1
        let image = try CodersManager.shared.decode(pdf, options: ImageDecodeOptions(options: [], context: context))
        guard image.format == .pdf, image.pixelSize == PixelSize(width: 30, height: 60) else {
            throw CheckFailure("page 2 decoded to \(image.format) \(image.pixelSize), not pdf 30x60")
        }
        return "registered; page 2 of \(try PDFCoder().pageCount(of: pdf)) drawn at \(image.pixelSize) through CodersManager.shared"
    }
}
