import Foundation

/// Small PDF documents written by hand for the tests: pages of flat rectangles (whole points,
/// so that no edge is anti-aliased at 72 dpi), with a correct cross-reference table.
enum PDFMaker {
    /// A rectangle in points from the page's bottom left, and its colour (0...1).
    struct Rect {
        var x: Double, y: Double, width: Double, height: Double
        var red: Double, green: Double, blue: Double
    }

    /// A page of `width` x `height` points with `rects` painted in order.
    struct Page {
        var width: Double
        var height: Double
        var rects: [Rect]
    }

    /// A document of `pages`; `encrypt` adds a standard security handler (RC4, revision 2) whose
    /// user password is not empty, so that a reader without the password cannot open it.
    static func document(_ pages: [Page], encrypt: Bool = false) -> Data {
        var objects: [String] = []
        let pageCount = pages.count
        // 1: catalog, 2: pages, then per page: page, content.
        objects.append("<< /Type /Catalog /Pages 2 0 R >>")
        let kids = (0..<pageCount).map { "\(3 + 2 * $0) 0 R" }.joined(separator: " ")
        objects.append("<< /Type /Pages /Kids [\(kids)] /Count \(pageCount) >>")
        for (index, page) in pages.enumerated() {
            let content = page.rects.map { r in
                "\(r.red) \(r.green) \(r.blue) rg \(r.x) \(r.y) \(r.width) \(r.height) re f"
            }.joined(separator: "\n")
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(page.width) \(page.height)] /Contents \(4 + 2 * index) 0 R /Resources << >> >>")
            objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
        }
        var encryptReference = ""
        if encrypt {
            let hex32a = String(repeating: "8f", count: 32), hex32b = String(repeating: "3c", count: 32)
            objects.append("<< /Filter /Standard /V 1 /R 2 /O <\(hex32a)> /U <\(hex32b)> /P -44 >>")
            encryptReference = " /Encrypt \(objects.count) 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>]"
        }
        var output = "%PDF-1.4\n%\u{e2}\u{e3}\u{cf}\u{d3}\n"
        var bytes = [UInt8](output.utf8)
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(bytes.count)
            bytes += Array("\(index + 1) 0 obj\n\(object)\nendobj\n".utf8)
        }
        let xref = bytes.count
        output = "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { output += String(format: "%010d 00000 n \n", offset) }
        output += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R\(encryptReference) >>\nstartxref\n\(xref)\n%%EOF\n"
        bytes += Array(output.utf8)
        return Data(bytes)
    }

    /// 37x23 points: red on the left 20, green top right, blue bottom right (PDF's y goes up).
    static var grid: Data {
        document([Page(width: 37, height: 23, rects: [
            Rect(x: 0, y: 0, width: 20, height: 23, red: 1, green: 0, blue: 0),
            Rect(x: 20, y: 13, width: 17, height: 10, red: 0, green: 1, blue: 0),
            Rect(x: 20, y: 0, width: 17, height: 13, red: 0, green: 0, blue: 1),
        ])])
    }


    /// `count` pages, page `i` (from 0) of `100 + 10 i` x `50` points, filled with a grey of
    /// level `i / count`.
    static func pages(_ count: Int) -> Data {
        document((0..<count).map { index in
            let level = Double(index) / Double(count)
            return Page(width: Double(100 + 10 * index), height: 50, rects: [Rect(x: 0, y: 0, width: Double(100 + 10 * index), height: 50, red: level, green: level, blue: level)])
        })
    }
}
