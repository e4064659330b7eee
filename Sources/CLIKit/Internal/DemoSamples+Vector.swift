import Foundation

extension DemoSamples {
    /// The badge as an SVG document (192x192): a disc with a radial gradient, a ring and a
    /// highlight, for the SVGCoder plug-in.
    static let badgeSVG = """
        <svg xmlns="http://www.w3.org/2000/svg" width="192" height="192" viewBox="0 0 192 192">
          <defs>
            <radialGradient id="fill" cx="0.5" cy="0.5" r="0.5">
              <stop offset="0" stop-color="#28c8b4"/><stop offset="1" stop-color="#1e50c8"/>
            </radialGradient>
          </defs>
          <circle cx="96" cy="96" r="90" fill="url(#fill)"/>
          <circle cx="96" cy="96" r="70" fill="none" stroke="#fafafa" stroke-width="8"/>
          <circle cx="77" cy="67" r="27" fill="#ffffff" fill-opacity="0.35"/>
        </svg>
        """

    /// A one-page PDF (192x192 points), written by hand: the badge's disc, ring and highlight
    /// as Bézier curves, for the PDFCoder plug-in.
    static var badgePDF: Data {
        // A circle of radius r around (x, y): four cubic Béziers (k = 0.5523 r).
        func circle(_ x: Double, _ y: Double, _ r: Double) -> String {
            let k = 0.5523 * r
            return "\(x + r) \(y) m \(x + r) \(y + k) \(x + k) \(y + r) \(x) \(y + r) c \(x - k) \(y + r) \(x - r) \(y + k) \(x - r) \(y) c \(x - r) \(y - k) \(x - k) \(y - r) \(x) \(y - r) c \(x + k) \(y - r) \(x + r) \(y - k) \(x + r) \(y) c h"
        }
        let content = """
            0.118 0.314 0.784 rg \(circle(96, 96, 90)) f
            0.157 0.784 0.706 rg \(circle(96, 96, 60)) f
            0.98 0.98 0.98 RG 8 w \(circle(96, 96, 70)) S
            0.7 0.9 1 rg \(circle(77, 125, 27)) f
            """
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 192 192] /Contents 4 0 R /Resources << >> >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
        ]
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
        return Data(bytes + Array(tail.utf8))
    }
}
