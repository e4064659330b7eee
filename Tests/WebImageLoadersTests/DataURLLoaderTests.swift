import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

@Suite struct DataURLLoaderTests {
    let loader = DataURLLoader(coder: RawBitmapCoder())
    let image = Fixtures.wiraw(width: 6, height: 5)

    @Test func loadsABase64DataURL() async throws {
        let url = try #require(URL(string: "data:image/x-wiraw;base64,\(image.base64EncodedString())"))
        let progress = ProgressRecorder()
        let result = try await loader.requestImage(with: url, options: [], context: WebImageContext(), progress: progress.handler)
        #expect(result.image?.pixelSize == PixelSize(width: 6, height: 5))
        #expect(result.data == image)
        #expect(result.contentType == "image/x-wiraw")
        #expect(progress.progress.map(\.received) == [Int64(image.count)])
    }

    /// Base64 variants that must all decode to the same bytes.
    @Test(arguments: ["plain", "percent", "whitespace", "urlsafe", "unpadded"])
    func acceptsBase64Variants(variant: String) async throws {
        let bytes = Data((0..<200).map { UInt8(truncatingIfNeeded: $0 * 7 + 251) })
        var payload = bytes.base64EncodedString()
        switch variant {
        case "percent": payload = payload.replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: "/", with: "%2F").replacingOccurrences(of: "=", with: "%3D")
        case "whitespace": payload = payload.enumerated().map { $0.offset % 20 == 19 ? "\($0.element)%0A%20" : "\($0.element)" }.joined()
        case "urlsafe": payload = payload.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        case "unpadded": payload = payload.replacingOccurrences(of: "=", with: "")
        default: break
        }
        let url = try #require(URL(string: "data:application/octet-stream;base64,\(payload)"))
        let result = try await loader.requestImage(with: url, options: [.avoidDecodeImage], context: WebImageContext(), progress: nil)
        #expect(result.data == bytes)
    }

    @Test func decodesPercentEncodedPayloads() async throws {
        let url = try #require(URL(string: "data:,Hello%2C%20World%21%FF"))
        let result = try await loader.requestImage(with: url, options: [.avoidDecodeImage], context: WebImageContext(), progress: nil)
        #expect(result.data == Data("Hello, World!".utf8) + Data([0xFF]))
        #expect(result.contentType == "text/plain")
    }

    @Test func decodesAPercentEncodedImage() async throws {
        let escaped = image.map { String(format: "%%%02X", $0) }.joined()
        let url = try #require(URL(string: "data:image/x-wiraw,\(escaped)"))
        let result = try await loader.requestImage(with: url)
        #expect(result.image?.pixelSize == PixelSize(width: 6, height: 5))
    }

    @Test(arguments: [
        ("data:image/png;base64", "no comma"),
        ("data:image/png;base64,!!!!", "not valid Base64"),
        ("data:image/png;base64,a", "not valid Base64"),
        ("data:image/png;base64,abc*", "not valid Base64"),
    ])
    func malformedDataURLsAreClearErrors(text: String, reason: String) async throws {
        let url = try #require(URL(string: text))
        let error = try #require(await #expect(throws: WebImageError.self) { try await loader.requestImage(with: url) })
        #expect(error.code == .invalidURL)
        #expect(error.message.contains(reason))
    }

    @Test func emptyPayloadIsBadImageData() async throws {
        let url = try #require(URL(string: "data:image/png;base64,"))
        let error = try #require(await #expect(throws: WebImageError.self) { try await loader.requestImage(with: url) })
        #expect(error.code == .badImageData)
    }

    @Test(arguments: [("data:,x", true), ("DATA:,x", true), ("http://127.0.0.1/a", false), ("file:///a", false)])
    func claimsDataURLsOnly(url: String, claimed: Bool) throws {
        #expect(loader.canRequestImage(for: try #require(URL(string: url))) == claimed)
    }
}
