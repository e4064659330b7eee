import Foundation
public import SwiftWebImage
import Testing
import WebImageTestSupport

// The code listings of the DocC catalogs in Sources/ (the umbrella's and the transformers'),
// compiled and run. A ```swift block of an article follows `<!-- snippet: NAME -->` (or
// `<!-- not compiled: REASON -->`, for a package manifest); the code between `// DOCS NAME begin`
// and `// DOCS NAME end` in this file is that block (the regions of one name joined in order;
// indentation, blank lines and `import` lines are ignored). The plug-ins' listings live the same
// way in their own test targets (Plugins/<Name>/Tests/<Name>Tests/ArticleSnippetTests.swift);
// `articleSnippetsAreTheCodeTestedHere` checks every catalog of the repository.

// DOCS getting-started-coder begin
/// "SOLID" and four bytes (red, green, blue, alpha): a 1x1 image of that colour.
struct SolidColorCoder: ImageCoder {
    func canDecode(_ data: Data) -> Bool { data.starts(with: Array("SOLID".utf8)) }

    func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        let bytes = [UInt8](data)
        guard bytes.count == 9, canDecode(data) else { throw WebImageError(.badImageData, "\(bytes.count) bytes are not SOLID data") }
        return WebImage(bitmap: try Bitmap(width: 1, height: 1, bytes: Array(bytes[5...])))
    }

    func canEncode(to format: ImageFormat) -> Bool { false }

    func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw WebImageError(.unsupportedFormat, "SolidColorCoder only decodes")
    }
}
// DOCS getting-started-coder end

// DOCS context-own-key begin
public enum SharpenAmountKey: WebImageContextKey {
    public typealias Value = Double
    public static let effect = WebImageContextKeyEffect.decode   // changes the pixels
}

extension WebImageContext {
    public var sharpenAmount: Double? {
        get { self[SharpenAmountKey.self] }
        set { self[SharpenAmountKey.self] = newValue }
    }
}
// DOCS context-own-key end

// DOCS plugin-coder-register begin
extension ImageFormat { static let qoi = ImageFormat(rawValue: "qoi") }
// DOCS plugin-coder-register end

/// The article's stand-in for a QOI coder: "qoif" followed by PNG bytes (so that it round-trips
/// exactly and passes the coder contract like a real one).
struct QOICoder: ImageCoder {
    static let magic = Array("qoif".utf8)
    func canDecode(_ data: Data) -> Bool { data.starts(with: Self.magic) }
    func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        guard canDecode(data) else { throw WebImageError(.badImageData, "\(data.count) bytes are not QOI stand-in data") }
        var image = try PNGCoder().decode(Data(data.dropFirst(4)), options: options)
        image.format = .qoi
        return image
    }
    func canEncode(to format: ImageFormat) -> Bool { format == .qoi }
    func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard format == .qoi else { throw WebImageError(.unsupportedFormat, "QOICoder writes only qoi") }
        return Data(Self.magic) + (try PNGCoder().encode(image, as: .png, options: options))
    }
}

/// The article's cache: any correct `ImageCache` (here it forwards to a `MemoryCache`).
final class MyCache: ImageCache {
    let inner = MemoryCache()
    func queryImage(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async -> ImageCacheResult? {
        await inner.queryImage(forKey: key, options: options, context: context, cacheType: cacheType)
    }
    func store(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async throws {
        try await inner.store(image, data: data, forKey: key, options: options, context: context, cacheType: cacheType)
    }
    func removeImage(forKey key: String, cacheType: ImageCacheType) async { await inner.removeImage(forKey: key, cacheType: cacheType) }
    func containsImage(forKey key: String, cacheType: ImageCacheType) async -> ImageCacheType { await inner.containsImage(forKey: key, cacheType: cacheType) }
    func clear(cacheType: ImageCacheType) async { await inner.clear(cacheType: cacheType) }
}

/// The article's loader: claims `myscheme:` URLs (and loads nothing).
final class MyLoader: ImageLoader {
    func canRequestImage(for url: URL) -> Bool { url.scheme == "myscheme" }
    func requestImage(with url: URL, options: WebImageOptions, context: WebImageContext, progress: ImageLoaderProgressHandler?) async throws -> ImageLoaderResult {
        throw WebImageError(.badImageData, "\(url) has no image")
    }
}

/// The articles' snippets run against the shared managers; each test undoes its registration,
/// and the loads read `file:` URLs of images the test writes, never the internet.
@Suite(.onOwnThreads, .serialized) struct ArticleSnippetTests {
    let directory: URL
    let url: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swiftwebimage-articles-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        url = directory.appendingPathComponent("photo.png")
        try PNGCoder().encode(WebImage(bitmap: TestImages.gradient(width: 80, height: 60)), as: .png).writeWithoutSync(to: url)
        Self.registerQOI()
    }

    /// Registers the QOI stand-in's format once per process (the contract sniffs its format).
    static func registerQOI() { _ = qoiRegistration }
    private static let qoiRegistration: Void = {
        // DOCS plugin-coder-register begin
        ImageFormat.register(ImageFormatDescriptor(format: .qoi, fileExtensions: ["qoi"], mimeTypes: ["image/qoi"]) { data in
            data.starts(with: Array("qoif".utf8)) ? ImageFormatDetection(format: .qoi) : nil
        })
        // DOCS plugin-coder-register end
    }()

    @Test func landingAndGettingStartedLoads() async throws {
        // DOCS landing-load begin
        let result = try await ImageManager.shared.loadImage(with: url)
        print(result.image!.pixelSize, result.cacheType)   // e.g. 4000x3000 none (fresh load)
        // DOCS landing-load end
        #expect(result.image?.pixelSize == PixelSize(width: 80, height: 60))
        try await gettingStartedLoad()
    }

    func gettingStartedLoad() async throws {
        // DOCS getting-started-load begin
        let result = try await ImageManager.shared.loadImage(with: url)
        let image = result.image!           // a WebImage: pixels, frames, format, scale
        print(image.pixelSize, image.frameCount, result.cacheType)
        // DOCS getting-started-load end
        #expect(image.frameCount == 1)
    }

    @Test func gettingStartedCompletionHandler() async throws {
        let shown = AsyncGate()
        @Sendable func show(_ image: WebImage?) { #expect(image?.pixelSize == PixelSize(width: 80, height: 60)); shown.open() }
        // DOCS getting-started-completion begin
        let operation = ImageManager.shared.loadImage(with: url, progress: nil) { result in
            switch result {
            case .success(let loaded): show(loaded.image)
            case .failure(let error): print(error)   // a WebImageError: its code says what went wrong
            }
        }
        // DOCS getting-started-completion end
        await shown.wait()
        // DOCS getting-started-completion begin
        operation.cancel()
        // DOCS getting-started-completion end
    }

    @Test func gettingStartedContext() async throws {
        // DOCS getting-started-context begin
        let avatar = try await ImageManager.shared.loadImage(with: url, context: WebImageContext {
            $0.imageThumbnailPixelSize = PixelSize(width: 200, height: 200)
            $0.imageTransformer = .roundCorner(radius: 16)
        })
        // DOCS getting-started-context end
        #expect(avatar.image?.metadata.contains(.transformed) == true)
    }

    /// WebImageColor's landing page: a coder of one's own converts its decoded pixels.
    @Test func colorConversionInACoder() throws {
        let decodedBitmap = ColorFixtures.intoSpace(ColorFixtures.photo, ColorFixtures.adobeRGB)
        let embeddedProfile: Data? = ColorFixtures.adobeRGB
        // DOCS color-convert begin
        var bitmap = decodedBitmap
        var metadata: ImageMetadata = .decoded
        if let profile = embeddedProfile, ColorConversion.convert(&bitmap, profile: profile) == .converted {
            metadata.insert(.colorConverted)
        }
        // DOCS color-convert end
        #expect(metadata.contains(.colorConverted))
        #expect(ColorFixtures.meanDeltaE(bitmap, ColorFixtures.photo) < 1)
    }

    @Test(arguments: [ColorProfileHandling.convertToSRGB, .keep])
    func colorPlanInACoder(handling: ColorProfileHandling) throws {
        let decodedBitmap = ColorFixtures.intoSpace(ColorFixtures.photo, ColorFixtures.adobeRGB)
        let embeddedProfile: Data? = ColorFixtures.adobeRGB
        var options = ImageDecodeOptions()
        options.colorProfileHandling = handling
        // DOCS color-plan begin
        var bitmap = decodedBitmap
        let plan = ColorConversion.plan(for: embeddedProfile, options: options)
        plan.apply(to: &bitmap)   // converts, unless the profile is kept (or sRGB, or unusable)
        let image = plan.marking(WebImage(bitmap: bitmap, format: .png))
        // image.colorProfile is the kept profile; image.metadata has .colorConverted when converted
        // DOCS color-plan end
        if handling == .keep {
            #expect(image.colorProfile?.data == ColorFixtures.adobeRGB && image.bitmap == decodedBitmap)
        } else {
            #expect(image.metadata.contains(.colorConverted) && ColorFixtures.meanDeltaE(image.bitmap, ColorFixtures.photo) < 1)
        }
    }

    @Test func gettingStartedCoder() throws {
        defer { CodersManager.shared.removeAll { $0 is SolidColorCoder } }
        // DOCS getting-started-coder begin
        CodersManager.shared.add(SolidColorCoder())   // asked before every built-in coder
        // DOCS getting-started-coder end
        let image = try CodersManager.shared.decode(Data(Array("SOLID".utf8) + [255, 0, 0, 255]))
        #expect(image.bitmap[0, 0] == RGBAColor(red: 255, green: 0, blue: 0))
    }

    @Test func raisingLimits() {
        // DOCS limits-raise begin
        let context = WebImageContext {
            $0.imageMaxTotalPixelCount = 400_000_000
            $0.imageMaxPixelCount = 100_000_000     // per frame; also raises the JPEG memory budget
        }
        // DOCS limits-raise end
        #expect(context.imageMaxPixelCount == 100_000_000)
        #expect(context.imageMaxTotalPixelCount == 400_000_000)
    }

    @Test func contextOverridesAndOwnKey() async throws {
        let avatars = WebImageCache(namespace: "avatars", directory: directory, coder: CodersManager.shared)
        // DOCS context-overrides begin
        let result = try await ImageManager.shared.loadImage(with: url, options: .waitStoreCache, context: WebImageContext {
            $0.imageCache = avatars                                        // this request's own cache
            $0.imageThumbnailPixelSize = PixelSize(width: 64, height: 64)  // decode at most 64x64
            $0.imageTransformer = .pipeline([.roundCorner(radius: 32), .grayscale])
        })
        // DOCS context-overrides end
        #expect(result.image?.pixelSize == PixelSize(width: 64, height: 48))
        var context = WebImageContext()
        context.sharpenAmount = 0.5
        #expect(context.sharpenAmount == 0.5)
        #expect(SharpenAmountKey.effect == .decode)
    }

    @Test func transformersPipeline() throws {
        var context = WebImageContext()
        // DOCS transformers-pipeline begin
        context.imageTransformer = .pipeline([.resize(to: PixelSize(width: 400, height: 300), mode: .aspectFill), .roundCorner(radius: 16)])
        // DOCS transformers-pipeline end
        let transformed = try context.imageTransformer!.transform(WebImage(bitmap: TestImages.gradient(width: 80, height: 60)), forKey: "k")
        #expect(transformed.pixelSize == PixelSize(width: 400, height: 300))
    }

    @Test func pluginCoderRegistration() throws {
        defer { CodersManager.shared.removeAll { $0 is QOICoder } }
        // DOCS plugin-coder-register begin
        CodersManager.shared.add(QOICoder())
        // DOCS plugin-coder-register end
        let data = try QOICoder().encode(WebImage(bitmap: TestImages.gradient(width: 8, height: 8)), as: .qoi, options: ImageEncodeOptions())
        #expect(try CodersManager.shared.decode(data).format == .qoi)
    }

    // DOCS plugin-coder-contract begin
    @Test(arguments: ImageCoderContract.Check.allCases)
    func contract(_ check: ImageCoderContract.Check) throws {
        try ImageCoderContract.verify(check, subject: .init(coder: QOICoder(), format: .qoi))
    }
    // DOCS plugin-coder-contract end

    // DOCS plugin-cache-contract begin
    @Test(arguments: ImageCacheContract.Check.allCases)
    func contract(_ check: ImageCacheContract.Check) async throws {
        try await ImageCacheContract.verify(check, on: MyCache())
    }
    // DOCS plugin-cache-contract end

    @Test func pluginCacheAndLoaderRegistration() {
        let myCache = MyCache()
        defer {
            CachesManager.shared.removeAll { $0 is MyCache }
            LoadersManager.shared.removeAll { $0 is MyLoader }
        }
        // DOCS plugin-cache-register begin
        CachesManager.shared.add(myCache)       // queried first; the default store policy stores to it
        // DOCS plugin-cache-register end
        // DOCS plugin-loader-register begin
        LoadersManager.shared.add(MyLoader())   // asked first for the URLs it claims
        // DOCS plugin-loader-register end
        #expect(LoadersManager.shared.canRequestImage(for: URL(string: "myscheme://a")!))
    }

    /// Every ```swift block of every DocC catalog of the repository (the products' in Sources/,
    /// the plug-ins' in Plugins/*/Sources/) is marked, and each marked one is the code of the
    /// `// DOCS NAME` regions in the tests of its own package folder: the root's Tests/ for a
    /// catalog in Sources/ (this file), Plugins/<Name>/Tests/ for a plug-in's. Every region there
    /// is shown by an article of that folder, so no tested code outlives its listing.
    @Test func articleSnippetsAreTheCodeTestedHere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let articles = Self.files(under: root).filter { $0.pathExtension == "md" && $0.path.contains(".docc/") }
        #expect(Set(articles.map { Self.packageFolder(of: $0) }).count >= 8, "the root and the plug-ins with catalogs")
        var shown: [URL: Set<String>] = [:]   // package folder -> the snippet names its articles show
        var testRegions: [URL: [String: [String]]] = [:]   // package folder -> its tests' regions
        for article in articles {
            let folder = Self.packageFolder(of: article)
            if testRegions[folder] == nil {
                testRegions[folder] = Self.regions(in: try Self.files(under: folder.appendingPathComponent("Tests")).filter { $0.pathExtension == "swift" }
                    .sorted { $0.path < $1.path }.map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n"))
            }
            let lines = try String(contentsOf: article, encoding: .utf8).components(separatedBy: "\n")
            let place = article.path.dropFirst(root.path.count + 1)
            for (index, line) in lines.enumerated() where line == "```swift" {
                let marker = index > 0 ? lines[index - 1] : ""
                if marker.hasPrefix("<!-- not compiled:") { continue }
                let name = try #require(marker.firstMatch(of: /^<!-- snippet: ([a-z0-9-]+) -->$/)?.1, "\(place) line \(index + 1): a ```swift block without a `<!-- snippet: NAME -->` marker")
                let end = try #require(lines[(index + 1)...].firstIndex(of: "```"))
                let tested = testRegions[folder]?[String(name)] ?? []
                #expect(!tested.isEmpty, "\(place): no `// DOCS \(name) begin` region in \(folder.lastPathComponent)/Tests")
                #expect(Self.normalized(Array(lines[(index + 1)..<end])) == Self.normalized(tested), "\(place): snippet \(name) differs from the tested code")
                shown[folder, default: []].insert(String(name))
            }
        }
        for (folder, regionsByName) in testRegions {
            let regions = Set(regionsByName.keys)
            #expect(regions.subtracting(shown[folder] ?? []).isEmpty, "\(folder.lastPathComponent)/Tests: regions no article shows: \(regions.subtracting(shown[folder] ?? []).sorted())")
        }
        #expect(shown.values.reduce(0) { $0 + $1.count } >= 21)
        #expect(shown.count >= 7, "the root and the plug-ins whose catalogs have listings")
    }

    /// The files under `folder`, hidden ones (`.build`, `.git`) left out.
    static func files(under folder: URL) -> [URL] {
        (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])?.compactMap { $0 as? URL } ?? [])
    }

    /// The folder whose `Sources` holds `article`'s catalog: the root, or `Plugins/<Name>`.
    static func packageFolder(of article: URL) -> URL {
        var folder = article.deletingLastPathComponent()
        while folder.lastPathComponent != "Sources", folder.path != "/" { folder.deleteLastPathComponent() }
        return folder.deletingLastPathComponent()
    }

    /// The lines between each `// DOCS NAME begin` and `// DOCS NAME end` of `source`, by name
    /// (the regions of one name joined in order).
    static func regions(in source: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        var inside: String?
        for line in source.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("// DOCS "), trimmed.hasSuffix(" begin") {
                inside = String(trimmed.dropFirst(8).dropLast(6))
                result[inside!, default: []] += []
            } else if let name = inside, trimmed == "// DOCS \(name) end" {
                inside = nil
            } else if let name = inside {
                result[name, default: []].append(line)
            }
        }
        return result
    }

    static func normalized(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("import ") }
    }
}
