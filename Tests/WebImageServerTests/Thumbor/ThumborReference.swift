import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageServer

/// What thumbor 7.8 itself answered for the URLs of `Tests/Fixtures/thumbor/cases/*.txt`,
/// recorded by `scripts/thumbor-fixtures` (issue 34: each filter and URL form is checked against
/// thumbor's own output), and the same URLs served by an ``ImageServer`` over the same sources.
enum ThumborReference {
    /// One recorded URL and thumbor's answer.
    struct Case: Sendable, CustomTestStringConvertible {
        /// The case's name (`sharpen-1`): the expected body is `expected/<name>.<ext>`.
        var name: String
        /// The path after `/unsafe/`.
        var path: String
        /// thumbor's status.
        var status: Int
        /// thumbor's `Content-Type` (without parameters).
        var type: String
        /// The size of thumbor's image, for image answers.
        var size: PixelSize?
        /// The length of thumbor's body.
        var bytes: Int

        var testDescription: String { "\(name) \(path)" }
    }

    /// What the server answered for a case.
    struct Outcome: Sendable {
        /// The status.
        var status: Int
        /// The `Content-Type` (without parameters).
        var type: String
        /// The body.
        var body: Data
        /// The decoded image, for a `200` image answer.
        var image: WebImage?
    }

    /// `Tests/Fixtures/thumbor`.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/thumbor")

    /// The sources thumbor loaded (its file loader's root).
    static var sources: URL { folder.appendingPathComponent("sources") }

    /// Every recorded case, by name.
    static let all: [String: Case] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("expected/manifest.json")),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]] else { return [:] }
        var cases: [String: Case] = [:]
        for (name, entry) in object {
            guard let path = entry["path"] as? String, let status = entry["status"] as? Int else { continue }
            var size: PixelSize?
            if let width = entry["width"] as? Int, let height = entry["height"] as? Int {
                size = PixelSize(width: width, height: height)
            }
            cases[name] = Case(name: name, path: path, status: status, type: entry["type"] as? String ?? "", size: size, bytes: entry["bytes"] as? Int ?? 0)
        }
        return cases
    }()

    /// The recorded cases whose name starts with `prefix`, in name order.
    static func cases(_ prefix: String) -> [Case] {
        all.values.filter { $0.name.hasPrefix(prefix) }.sorted { $0.name < $1.name }
    }

    /// thumbor's body of `reference` decoded.
    static func expectedImage(_ reference: Case) throws -> WebImage {
        let extensions = ["image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/gif": "gif", "image/avif": "avif"]
        let file = folder.appendingPathComponent("expected/\(reference.name).\(extensions[reference.type] ?? "bin")")
        return try ServingFixture.coders.decode(Data(contentsOf: file), options: ImageDecodeOptions())
    }

    /// A serving fixture whose file root is thumbor's sources folder.
    static func makeFixture(_ configure: (inout ImageServerConfiguration) -> Void = { _ in }) throws -> ServingFixture {
        try ServingFixture { configuration in
            configuration.fileRoot = sources
            configure(&configuration)
        }
    }

    /// `reference`'s URL served by `fixture`.
    static func serve(_ reference: Case, with fixture: ServingFixture) async -> Outcome {
        let response = await fixture.get(path: "/unsafe/" + reference.path)
        let type = (response.headers.first { $0.name.lowercased() == "content-type" }?.value ?? "")
            .split(separator: ";").first.map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
        let image = response.status == 200 && type.hasPrefix("image/") ? try? ServingFixture.decode(response) : nil
        return Outcome(status: response.status, type: type, body: response.body, image: image)
    }

    /// Checks `reference` against the server: the same status, type and size, and pixels at
    /// least `minimumPSNR` dB from thumbor's (colour channels; alpha too when both have it).
    /// Returns the PSNR (`nil` for answers that are not images).
    @discardableResult
    static func expectAgreement(_ reference: Case, with fixture: ServingFixture, minimumPSNR: Double, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Double? {
        let outcome = await serve(reference, with: fixture)
        #expect(outcome.status == reference.status, "status of \(reference.path)", sourceLocation: sourceLocation)
        guard reference.status == 200, outcome.status == 200 else { return nil }
        #expect(outcome.type == reference.type, "type of \(reference.path)", sourceLocation: sourceLocation)
        guard reference.type.hasPrefix("image/") else { return nil }
        let expected = try expectedImage(reference)
        let image = try #require(outcome.image, "a decodable image for \(reference.path)", sourceLocation: sourceLocation)
        #expect(image.pixelSize == expected.pixelSize, "size of \(reference.path)", sourceLocation: sourceLocation)
        guard image.pixelSize == expected.pixelSize else { return nil }
        let alpha = image.bitmap.hasAlpha && expected.bitmap.hasAlpha
        let psnr = Pixels.psnr(image.bitmap, expected.bitmap, includeAlpha: alpha)
        #expect(psnr >= minimumPSNR, "PSNR of \(reference.path) against thumbor: \(psnr) dB", sourceLocation: sourceLocation)
        return psnr
    }
}
