import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageCLIKit

/// The vector plug-in coders (SVGCoder, PDFCoder) in `webimage`: `info` and `convert` read SVG
/// and PDF; `serve` refuses SVG sources unless `--allow-svg` (then it serves a raster image,
/// never SVG); the hostile documents cost a bounded peak RSS in a process of their own.
@Suite(.onOwnThreads) struct VectorCoderCommandTests {
    let workspace = Workspace()

    static let svg = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100"><rect width="200" height="100" fill="#336699"/><circle cx="100" cy="50" r="40" fill="#fc0"/></svg>"##

    init() throws {
        try workspace.write(Data(Self.svg.utf8), to: "wide.svg")
        try workspace.write(DemoSamples.badgePDF, to: "badge.pdf")
    }

    func run(_ arguments: [String]) async throws -> CLIResult {
        try await CLIRunner.run(arguments, home: workspace.home, in: workspace.url)
    }

    @Test func infoReadsSVGAndPDF() async throws {
        let result = try await run(["info", "--json", "wide.svg", "badge.pdf"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines == [
            #"{"source":"wide.svg","format":"svg","width":512,"height":256,"frames":1,"pages":null,"loopCount":null,"durations":[0],"hasAlpha":true,"colorSpace":null,"refused":null}"#,
            #"{"source":"badge.pdf","format":"pdf","width":192,"height":192,"frames":1,"pages":1,"loopCount":null,"durations":[0],"hasAlpha":false,"colorSpace":null,"refused":null}"#,
        ])
    }

    /// `--thumbnail` draws the vector at the size asked for, larger than its own too.
    @Test func convertRasterises() async throws {
        let svg = try await run(["convert", "--thumbnail", "1024x1024", "wide.svg", "wide.png"])
        #expect(svg.status == 0, "\(svg.stderr)")
        let image = try PNGCoder().decode(try Data(contentsOf: URL(fileURLWithPath: workspace.path("wide.png"))))
        #expect(image.pixelSize == PixelSize(width: 1024, height: 512))
        let pdf = try await run(["convert", "--thumbnail", "64x64", "badge.pdf", "badge.png"])
        #expect(pdf.status == 0, "\(pdf.stderr)")
        let page = try PNGCoder().decode(try Data(contentsOf: URL(fileURLWithPath: workspace.path("badge.png"))))
        #expect(page.pixelSize == PixelSize(width: 64, height: 64))
        #expect(svg.stderr.isEmpty && pdf.stderr.isEmpty)
    }

    /// poppler's syntax errors and librsvg's warnings go into the error, never to standard
    /// error on their own: the only line there is the command's.
    @Test func libraryMessagesStayOffStandardError() async throws {
        let pdf = DemoSamples.badgePDF
        try workspace.write(pdf.prefix(pdf.count - 60), to: "cut.pdf")
        try workspace.write(Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="url(#none)" filter="url(#none)"/><image href="file:///etc/passwd" width="5" height="5"/></svg>"#.utf8), to: "odd.svg")
        let cut = try await run(["convert", "cut.pdf", "cut.png"])
        let lines = cut.stderr.split(separator: "\n")
        #expect(lines.count <= 1, "\(cut.stderr)")
        #expect(!cut.stderr.hasPrefix("Syntax") && !cut.stderr.contains("\nSyntax"), "\(cut.stderr)")
        let odd = try await run(["convert", "odd.svg", "odd.png"])
        #expect(odd.status == 0 && odd.stderr.isEmpty, "\(odd.stderr)")
    }

    /// SVG sources answer 422 without `--allow-svg` (never rendered: the server's coders leave
    /// SVGCoder out), and a PNG of the size asked for with it; PDF stays refused.
    @Test func serveRefusesSVGUnlessAllowed() async throws {
        let root = workspace.url.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data(Self.svg.utf8).writeWithoutSync(to: root.appendingPathComponent("wide.svg"))
        try DemoSamples.badgePDF.writeWithoutSync(to: root.appendingPathComponent("badge.pdf"))
        let refusing = try await ServeProcess.start(["--allow-unsigned", "--no-cache", "--root", root.path], home: workspace.home)
        let refused = try await ServeClient.get(refusing.url("/unsafe/100x50/wide.svg"))
        #expect(refused.status == 422, "\(refusing.errorText)")
        #expect(!refused.body.starts(with: Data("<svg".utf8)))
        refusing.send(SIGTERM)
        #expect(await refusing.waitForExit() == 0)

        let allowing = try await ServeProcess.start(["--allow-unsigned", "--no-cache", "--allow-svg", "--root", root.path], home: workspace.home)
        #expect(await allowing.waitForErrorLine(containing: "--allow-svg") != nil, "the start-up line lists the relaxed default: \(allowing.errorText)")
        let served = try await ServeClient.get(allowing.url("/unsafe/100x50/filters:format(png)/wide.svg"))
        #expect(served.status == 200, "\(allowing.errorText)")
        #expect(served.header("Content-Type") == "image/png")
        let image = try PNGCoder().decode(served.body)
        #expect(image.pixelSize == PixelSize(width: 100, height: 50))
        let auto = try await ServeClient.get(allowing.url("/unsafe/40x20/wide.svg"))
        #expect(auto.status == 200)
        #expect(auto.header("Content-Type")?.contains("svg") == false, "\(auto.header("Content-Type") ?? "")")
        let pdf = try await ServeClient.get(allowing.url("/unsafe/40x40/badge.pdf"))
        #expect(pdf.status == 422)
        allowing.send(SIGTERM)
        #expect(await allowing.waitForExit() == 0)
    }

    /// The `<use>` bomb and the 14400x14400-inch page in a `webimage convert` process of their
    /// own: refused or drawn within the limit, quickly, at a bounded peak RSS.
    @Test(.enabled(if: PeakMemoryRunner.isAvailable, "python3 is not installed: skipped"))
    func hostileDocumentsHaveABoundedPeak() async throws {
        var body = "<path id=\"l0\" d=\"M0 0 L1 1 L0 1 Z\"/>"
        for level in 1...9 {
            body += "<g id=\"l\(level)\">" + String(repeating: "<use href=\"#l\(level - 1)\"/>", count: 10) + "</g>"
        }
        try workspace.write(Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\"><defs>\(body)</defs><use href=\"#l9\"/></svg>".utf8), to: "bomb.svg")
        let side = 14400 * 72
        let content = "1 0 0 rg 0 0 \(side / 2) \(side) re f"
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(side) \(side)] /Contents 4 0 R >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
        ]
        var pdf = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(pdf.utf8.count)
            pdf += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = pdf.utf8.count
        pdf += "xref\n0 5\n0000000000 65535 f \n" + offsets.map { String(format: "%010d 00000 n \n", $0) }.joined()
        pdf += "trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        try workspace.write(Data(pdf.utf8), to: "giant.pdf")

        let clock = ContinuousClock()
        let baseline = try await PeakMemoryRunner.run(["info", workspace.path("wide.svg")], home: workspace.home)
        var start = clock.now
        let bomb = try await PeakMemoryRunner.run(["convert", workspace.path("bomb.svg"), workspace.path("bomb.png")], home: workspace.home)
        let bombTime = clock.now - start
        start = clock.now
        let giant = try await PeakMemoryRunner.run(["convert", workspace.path("giant.pdf"), workspace.path("giant.png")], home: workspace.home)
        let giantTime = clock.now - start
        print("vector hostile inputs: baseline \(baseline.peakBytes >> 20) MB; <use> bomb status \(bomb.status) in \(bombTime), peak \(bomb.peakBytes >> 20) MB; 14400-inch page status \(giant.status) in \(giantTime), peak \(giant.peakBytes >> 20) MB")
        #expect(bomb.status == 1, "refused")
        // Not hung (the process's start-up dominates on a loaded machine: 0.5 s alone, 16 s in a
        // full parallel run); the coder's own test holds the refusal to 2 s.
        #expect(bombTime < .seconds(60))
        #expect(bomb.peakBytes < baseline.peakBytes + 64 << 20, "bomb: \(bomb.peakBytes >> 20) MB, baseline \(baseline.peakBytes >> 20) MB")
        // Drawn at the default 50-megapixel limit (200 MB of RGBA8), plus the PNG encode.
        #expect(giant.status == 0)
        #expect(giant.peakBytes < baseline.peakBytes + 700 << 20, "giant page: \(giant.peakBytes >> 20) MB")
        let info = try await run(["info", "giant.png"])
        #expect(info.lines.first?.contains("7071x7071") == true, "\(info.lines)")
    }
}
