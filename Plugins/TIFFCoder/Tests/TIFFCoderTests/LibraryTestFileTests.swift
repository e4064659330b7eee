import Foundation
import Testing
import TIFFCoder
import WebImageCore
import WebImageTestSupport

/// TIFFs this project did not write: every TIFF of Pillow's test suite and of libtiff's
/// (`scripts/conformance-fixtures` fetches them), decoded by TIFFCoder and by Pillow
/// (``PillowReferenceScript``), page by page, at a PSNR of at least ``minimumPSNR`` (colour
/// premultiplied by alpha, ``Pixels/psnr(_:_:)``). Files Pillow cannot read, or gives no 8-bit
/// view of, must still be read or refused with a ``WebImageError`` (never a crash); files
/// TIFFCoder refuses on purpose are listed in ``refusedByDesign`` with the reason. Each run
/// prints its counts. Skips, saying why, without the fixtures or without Pillow.
@Suite(.onOwnThreads) struct LibraryTestFileTests {
    /// 40 dB: an RMS difference of 2.6 of 255, far below what a wrong channel order, a lost
    /// predictor, a wrong orientation or a misread palette give (10 to 25 dB), and above the
    /// rounding differences of two decoders (16-bit to 8-bit, YCbCr to RGB, premultiplied
    /// alpha: 45 dB and up).
    static let minimumPSNR = 40.0

    /// Files Pillow reads and TIFFCoder refuses on purpose, with the reason (none at present).
    static let refusedByDesign: [String: String] = [:]

    /// Files whose alpha TIFFCoder reads otherwise than Pillow on purpose, with the reason: their
    /// colour is compared alone.
    static let alphaReadOtherwise: [String: String] = [
        "tiff_wrong_bits_per_sample_3.tiff": "4 samples and no ExtraSamples tag: by the TIFF spec the 4th is unspecified data, not alpha (libtiff says so, TIFFCoder shows the image opaque); Pillow takes it for alpha",
    ]

    /// Pages over this many pixels are compared on every n-th row only (n: their pixels over
    /// this, rounded up), so the largest files (a 4960x7016 fax, 24 MP of LZW RGB) take a second
    /// in a debug build: a misread page is wrong on most rows.
    static let comparedPixels = 1 << 21

    /// One line of the reference script's manifest.
    struct Reference: Decodable {
        struct Frame: Decodable {
            let width: Int
            let height: Int
            let reduced: Bool
            let file: String
        }
        let name: String
        let ok: Bool
        let mode: String?
        let count: Int?
        let frames: [Frame]?
        let reason: String?
    }

    /// What one file came to.
    enum Verdict {
        case matched(psnr: Double)
        case refusedByDesign(String)
        case noReference(pillow: String, ours: String)
        case failed(String)
    }

    @Test(arguments: ["pillow", "libtiff"])
    func decodesLikePillow(_ suite: String) async throws {
        guard let folder = ConformanceFixtures.folder("tiff/\(suite)") else {
            print("LibraryTestFileTests: \(ConformanceFixtures.skipMessage("tiff/\(suite)"))")
            return
        }
        guard let python = await Pillow.python.value else {
            print("LibraryTestFileTests: \(Pillow.skipMessage("the TIFFs of \(suite)'s test suite"))")
            return
        }
        let references = try TemporaryFolder(prefix: "tiff-references")
        try await ChildProcess.output(of: python, ["-c", PillowReferenceScript.source, folder.path, references.url.path])
        let lines = String(decoding: try references.data("manifest.jsonl"), as: UTF8.self).split(separator: "\n")
        let entries = try lines.map { try JSONDecoder().decode(Reference.self, from: Data($0.utf8)) }
        try #require(!entries.isEmpty, "no TIFF in \(folder.path)")
        let verdicts = try await OwnThread.run {
            try entries.map { entry in (entry.name, try Self.verdict(entry, folder: folder, references: references)) }
        }

        var matched: [Double] = [], refused: [String] = [], unreferenced: [String] = [], failures: [String] = []
        for (name, verdict) in verdicts {
            switch verdict {
            case .matched(let psnr): matched.append(psnr)
            case .refusedByDesign(let reason): refused.append("  refused by design: \(name): \(reason)")
            case .noReference(let pillow, let ours): unreferenced.append("  no reference: \(name): Pillow: \(pillow); TIFFCoder: \(ours)")
            case .failed(let message): failures.append("\(name): \(message)")
            }
        }
        let colourOnly = Self.alphaReadOtherwise.filter { name, _ in verdicts.contains { $0.0 == name } }
            .sorted { $0.key < $1.key }.map { "  alpha read otherwise (colour compared): \($0.key): \($0.value)" }
        let worst = matched.min().map { $0.isInfinite ? "identical" : String(format: "%.1f dB", $0) } ?? "-"
        print(([
            "LibraryTestFileTests \(suite): \(entries.count) TIFFs: \(matched.count) match Pillow (PSNR >= \(Self.minimumPSNR) dB, worst \(worst)), "
                + "\(refused.count) refused by design, \(unreferenced.count) without a Pillow reference, \(failures.count) failed",
        ] + colourOnly + refused + unreferenced).joined(separator: "\n"))
        #expect(failures.isEmpty, "\(failures.count) of \(suite)'s TIFFs differ from Pillow:\n\(failures.joined(separator: "\n"))")
    }

    /// Decodes `entry`'s file and judges it against Pillow's pixels.
    static func verdict(_ entry: Reference, folder: URL, references: TemporaryFolder) throws -> Verdict {
        let data = try Data(contentsOf: folder.appendingPathComponent(entry.name))
        let decoded: WebImage
        do {
            decoded = try TIFFCoder().decode(data)
        } catch let error as WebImageError {
            guard entry.ok else { return .noReference(pillow: entry.reason ?? "-", ours: "refused (\(error.code): \(error.message))") }
            if let reason = refusedByDesign[entry.name] { return .refusedByDesign(reason) }
            return .failed("Pillow reads it (\(entry.mode ?? "?")), TIFFCoder refuses it: \(error.message)")
        } catch {
            return .failed("TIFFCoder threw \(type(of: error)), not a WebImageError: \(error)")
        }
        guard entry.ok, let frames = entry.frames, let count = entry.count else {
            return .noReference(pillow: entry.reason ?? "-", ours: "decoded \(decoded.pixelSize), \(decoded.frameCount) frame(s)")
        }
        if refusedByDesign[entry.name] != nil {
            return .failed("listed as refused by design, but TIFFCoder decodes it: take it off the list")
        }
        let pages = frames.filter { !$0.reduced }
        guard let first = pages.first else { return .failed("Pillow shows only reduced-resolution pages") }
        guard decoded.pixelSize == PixelSize(width: first.width, height: first.height) else {
            return .failed("TIFFCoder gives \(decoded.pixelSize), Pillow \(first.width)x\(first.height)")
        }
        if count == frames.count, decoded.frameCount != pages.count {
            return .failed("TIFFCoder gives \(decoded.frameCount) page(s), Pillow \(pages.count) full-resolution page(s)")
        }
        var worst = Double.infinity
        for (index, page) in pages.prefix(decoded.frameCount).enumerated() where page.width == first.width && page.height == first.height {
            let reference = try Bitmap(width: page.width, height: page.height, bytes: [UInt8](try references.data(page.file)), hasAlpha: true)
            let bitmap = index == 0 ? decoded.bitmap : try decoded.frame(at: index).bitmap
            let rowStep = (page.width * page.height + Self.comparedPixels - 1) / Self.comparedPixels
            worst = min(worst, Pixels.psnr(bitmap, reference, includeAlpha: alphaReadOtherwise[entry.name] == nil, rowStep: rowStep))
        }
        guard worst >= minimumPSNR else {
            return .failed(String(format: "PSNR %.1f dB against Pillow (mode %@), under %.0f dB", worst, entry.mode ?? "?", minimumPSNR))
        }
        return .matched(psnr: worst)
    }
}
