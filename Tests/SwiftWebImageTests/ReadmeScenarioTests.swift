import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

// The three scenarios of the README, compiled and run. The code between `// README <name>
// begin` and `// README <name> end` markers is exactly the README's snippet for <name> (the
// regions of one name are joined in order; indentation and blank lines are ignored), which
// `readmeSnippetsAreTheCodeTestedHere` checks: the README cannot drift from code that compiles
// and works.

// README custom-coder begin
/// A coder for TINY, a made-up format: "TINY", width and height (a byte each), RGBA pixels.
struct TinyCoder: ImageCoder {
    func canDecode(_ data: Data) -> Bool { data.starts(with: Array("TINY".utf8)) }

    func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        let bytes = [UInt8](data)
        guard bytes.count >= 6, canDecode(data) else { throw WebImageError(.badImageData, "\(bytes.count) bytes are not TINY data") }
        let (width, height) = (Int(bytes[4]), Int(bytes[5]))
        let bitmap = try Bitmap(width: width, height: height, bytes: Array(bytes.dropFirst(6)))
        return WebImage(bitmap: bitmap, scale: options.scaleFactor, format: .tiny)
    }

    func canEncode(to format: ImageFormat) -> Bool { false }

    func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw WebImageError(.unsupportedFormat, "TinyCoder only decodes")
    }
}

extension ImageFormat {
    static let tiny = ImageFormat(rawValue: "tiny")
}
// README custom-coder end

// README third-party-cache begin
/// A third-party cache: anything that conforms to `ImageCache` (Redis, SQLite, a CDN...).
/// Here an actor over a dictionary stands in for the remote store.
actor KeyValueImageCache: ImageCache {
    private var images: [String: WebImage] = [:]

    func queryImage(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) -> ImageCacheResult? {
        images[key].map { ImageCacheResult(image: $0, cacheType: .disk) }
    }

    func store(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) {
        images[key] = image
    }

    func removeImage(forKey key: String, cacheType: ImageCacheType) { images[key] = nil }

    func containsImage(forKey key: String, cacheType: ImageCacheType) -> ImageCacheType { images[key] == nil ? .none : .disk }

    func clear(cacheType: ImageCacheType) { images.removeAll() }
}
// README third-party-cache end

/// The README scenarios run against the shared managers. Each test undoes its registration;
/// the loads read `file:` URLs of images the test writes, never the internet.
@Suite(.serialized) struct ReadmeScenarioTests {
    let directory: URL
    let url: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swiftwebimage-readme-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        url = directory.appendingPathComponent("photo.png")
        try PNGCoder().encode(WebImage(bitmap: TestImages.gradient(width: 80, height: 60)), as: .png).writeWithoutSync(to: url)
    }

    @Test func registeringACustomCoderAtLaunch() async throws {
        defer { CodersManager.shared.removeAll { $0 is TinyCoder } }
        // README custom-coder begin
        // At app launch:
        ImageFormat.register(ImageFormatDescriptor(format: .tiny, fileExtensions: ["tiny"], mimeTypes: ["image/x-tiny"]) { data in
            data.starts(with: Array("TINY".utf8)) ? ImageFormatDetection(format: .tiny) : nil
        })
        CodersManager.shared.add(TinyCoder())   // asked before every built-in coder

        // From now on the shared loaders and caches decode TINY data (here one red pixel).
        let image = try CodersManager.shared.decode(Data(base64Encoded: "VElOWQEB/wAA/w==")!)
        // image.format == .tiny, image.pixelSize == 1x1
        // README custom-coder end
        #expect(image.format == .tiny)
        #expect(image.pixelSize == PixelSize(width: 1, height: 1))
        #expect(image.bitmap[0, 0] == RGBAColor(red: 255, green: 0, blue: 0))
        #expect(ImageFormat(fileExtension: "tiny") == .tiny)
        // The shared loaders decode with the shared coders: a data URL of TINY bytes loads.
        let manager = ImageManager(cache: CachesManager(), loader: LoadersManager.shared)
        let loaded = try await manager.loadImage(with: URL(string: "data:image/x-tiny;base64,VElOWQEB/wAA/w==")!)
        #expect(loaded.image?.format == .tiny)
    }

    @Test func swappingInAThirdPartyCache() async throws {
        defer { CachesManager.shared.removeAll { $0 is KeyValueImageCache } }
        // README third-party-cache begin
        let redis = KeyValueImageCache()
        CachesManager.shared.add(redis)   // queried first; stores go to it (store policy: highest only)

        // A store in a remote cache finishes after the load's answer; `.waitStoreCache` answers once
        // it is stored, so that the next load finds it (SDWebImage's SDWebImageWaitStoreCache).
        let first = try await ImageManager.shared.loadImage(with: url, options: .waitStoreCache)   // loaded, stored in `redis`
        let second = try await ImageManager.shared.loadImage(with: url)   // from `redis`
        // first.cacheType == .none, second.cacheType == .disk (what `redis` reports)
        // README third-party-cache end
        #expect(first.cacheType == ImageCacheType.none)
        #expect(second.cacheType == .disk)
        #expect(second.image?.bitmap == first.image?.bitmap)
        #expect(await redis.containsImage(forKey: url.absoluteString, cacheType: .all) == .disk)
    }

    @Test func perRequestContextOverrides() async throws {
        let cachesDirectory = directory
        // README context-overrides begin
        let avatars = WebImageCache(namespace: "avatars", directory: cachesDirectory, coder: CodersManager.shared)
        let avatar = try await ImageManager.shared.loadImage(with: url, options: .waitStoreCache, context: WebImageContext {
            $0.imageCache = avatars                                                 // this request's own cache
            $0.imageThumbnailPixelSize = PixelSize(width: 64, height: 64)           // decode at most 64x64
            $0.imageTransformer = .pipeline([.roundCorner(radius: 32), .grayscale])  // then transform
        })
        // avatar.image!.pixelSize == 64x48 for an 80x60 photo; stored in `avatars` (only) under
        // avatar.cacheKey: ".../photo|Thumbnail(64x64,1)|RoundCornerTransformer(...)-ColorMatrixTransformer(...)|.png"
        // README context-overrides end
        let image = try #require(avatar.image)
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
        #expect(image.metadata.contains(.transformed))
        #expect(image.bitmap[0, 0].alpha == 0, "the corner is rounded")
        let pixel = image.bitmap[32, 24]
        #expect(pixel.red == pixel.green && pixel.green == pixel.blue, "grayscale: \(pixel)")
        #expect(avatar.cacheKey.hasSuffix("/photo|Thumbnail(64x64,1)|RoundCornerTransformer(32.000000,15,0.000000,#000000FF)-" + ColorMatrixTransformer(matrix: .grayscale).transformerKey + "|.png"))
        #expect(avatars.diskImageDataExists(forKey: avatar.cacheKey))
        #expect(avatars.imageFromMemoryCache(forKey: avatar.cacheKey) != nil)
    }

    /// The README's snippets are the code above, line for line.
    @Test func readmeSnippetsAreTheCodeTestedHere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        for name in ["custom-coder", "third-party-cache", "context-overrides"] {
            let snippet = try #require(Self.readmeSnippet(named: name, in: readme), "README.md has no snippet after <!-- scenario: \(name) -->")
            let tested = Self.regions(named: name, in: source)
            #expect(!tested.isEmpty)
            #expect(Self.normalized(snippet) == Self.normalized(tested), "README snippet \(name) differs from the tested code")
        }
    }

    /// The lines of the ```swift block that follows `<!-- scenario: name -->`.
    static func readmeSnippet(named name: String, in readme: String) -> [String]? {
        let lines = readme.components(separatedBy: "\n")
        guard let marker = lines.firstIndex(of: "<!-- scenario: \(name) -->"),
              let start = lines[marker...].firstIndex(of: "```swift"),
              let end = lines[(start + 1)...].firstIndex(of: "```") else { return nil }
        return Array(lines[(start + 1)..<end])
    }

    /// The lines between every `// README name begin` and `// README name end`, in order.
    static func regions(named name: String, in source: String) -> [String] {
        var result: [String] = []
        var inside = false
        for line in source.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "// README \(name) begin" {
                inside = true
            } else if trimmed == "// README \(name) end" {
                inside = false
            } else if inside {
                result.append(line)
            }
        }
        return result
    }

    static func normalized(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
