import Dispatch
import Foundation
import Testing
import WebImageTestSupport
import WebImageCore

/// What context keys declare they affect (``WebImageContextKeyEffect``), and the
/// ``WebImageContext/identity(for:)`` that the manager and the loaders compare to decide which
/// requests share work.
@Suite struct ContextKeyEffectTests {
    static let allEffects: Set<WebImageContextKeyEffect> = [.none, .load, .decode]

    // MARK: - Declarations

    @Test func aKeyThatDeclaresNothingIsUnknown() {
        #expect(UndeclaredEffectTestKey.effect == .unknown)
        #expect(LoadEffectTestKey.effect == .load)
    }

    /// Every built-in key and the effect it must declare. Changing a declaration, or adding a
    /// key without a row here, fails a test: the coalescing of every request depends on them.
    static let builtInEffects: [(name: String, declared: WebImageContextKeyEffect, expected: WebImageContextKeyEffect)] = [
        ("ImageCache", WebImageContextKeys.ImageCache.effect, .load),
        ("ImageLoader", WebImageContextKeys.ImageLoader.effect, .load),
        ("ImageCoder", WebImageContextKeys.ImageCoder.effect, .decode),
        ("ImageTransformer", WebImageContextKeys.ImageTransformer.effect, .load),
        ("CacheKeyFilter", WebImageContextKeys.CacheKeyFilter.effect, .load),
        ("CacheSerializer", WebImageContextKeys.CacheSerializer.effect, .load),
        ("QueryCacheType", WebImageContextKeys.QueryCacheType.effect, .load),
        ("StoreCacheType", WebImageContextKeys.StoreCacheType.effect, .load),
        ("OriginalQueryCacheType", WebImageContextKeys.OriginalQueryCacheType.effect, .load),
        ("OriginalStoreCacheType", WebImageContextKeys.OriginalStoreCacheType.effect, .load),
        ("OriginalImageCache", WebImageContextKeys.OriginalImageCache.effect, .load),
        ("ImageScaleFactor", WebImageContextKeys.ImageScaleFactor.effect, .decode),
        ("ImageThumbnailPixelSize", WebImageContextKeys.ImageThumbnailPixelSize.effect, .decode),
        ("ImagePreserveAspectRatio", WebImageContextKeys.ImagePreserveAspectRatio.effect, .decode),
        ("ImageScaleDownLimitBytes", WebImageContextKeys.ImageScaleDownLimitBytes.effect, .decode),
        ("ImageMaxPixelCount", WebImageContextKeys.ImageMaxPixelCount.effect, .decode),
        ("ImageMaxTotalPixelCount", WebImageContextKeys.ImageMaxTotalPixelCount.effect, .decode),
        ("ImageMaxFrameCount", WebImageContextKeys.ImageMaxFrameCount.effect, .decode),
        ("ImageColorProfileHandling", WebImageContextKeys.ImageColorProfileHandling.effect, .decode),
        ("ImageDecodeOptions", WebImageContextKeys.ImageDecodeOptions.effect, .decode),
        ("ImageEncodeOptions", WebImageContextKeys.ImageEncodeOptions.effect, .load),
        ("OptionsProcessor", WebImageContextKeys.OptionsProcessor.effect, .none),
        ("CallbackQueue", WebImageContextKeys.CallbackQueue.effect, .none),
        ("SetImageOperationKey", WebImageContextKeys.SetImageOperationKey.effect, .none),
        ("LoaderCachedImage", WebImageContextKeys.LoaderCachedImage.effect, .load),
        ("ImageCacheKey", WebImageContextKeys.ImageCacheKey.effect, .load),
        ("ImageEventSink", WebImageContextKeys.ImageEventSink.effect, .none),
    ]

    @Test("every built-in key declares its effect", arguments: builtInEffects.map { ($0.name, $0.declared, $0.expected) })
    func builtInKeyEffect(name: String, declared: WebImageContextKeyEffect, expected: WebImageContextKeyEffect) {
        #expect(declared == expected, "WebImageContextKeys.\(name)")
    }

    @Test func theTableCoversEveryBuiltInKey() throws {
        let source = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Core/Context/WebImageContext+Keys.swift")
        let text = try String(contentsOf: source, encoding: .utf8)
        let declared = Set(text.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(whereSeparator: { $0 == " " || $0 == ":" })
            guard words.count >= 4, words[0] == "public", words[1] == "enum", words[3] == "WebImageContextKey" else { return nil }
            return String(words[2])
        })
        #expect(declared.count > 20, "the key declarations were found in \(source.path)")
        #expect(declared == Set(Self.builtInEffects.map(\.name)))
        #expect(!Self.builtInEffects.contains { $0.declared == .unknown }, "no built-in key leaves its effect undeclared")
    }

    // MARK: - Identity: values

    @Test func hashableValuesCompareByEquality() throws {
        let a = WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 10, height: 10) }
        let b = WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 10, height: 10) }
        let c = WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 20, height: 10) }
        let identityA = try #require(a.identity(for: [.decode]))
        #expect(identityA == b.identity(for: [.decode]))
        #expect(identityA.hashValue == b.identity(for: [.decode])?.hashValue)
        #expect(identityA != c.identity(for: [.decode]))
        #expect(identityA != WebImageContext().identity(for: [.decode]), "a set key differs from an unset one")
    }

    @Test func classValuesCompareByInstance() throws {
        let cache = MockImageCache(name: "same")
        let a = WebImageContext { $0.imageCache = cache }
        let b = WebImageContext { $0.imageCache = cache }
        let c = WebImageContext { $0.imageCache = MockImageCache(name: "same") }
        let sameCache = try #require(a.identity(for: [.load]))
        #expect(sameCache == b.identity(for: [.load]))
        #expect(a.identity(for: [.load]) != c.identity(for: [.load]), "an equal-looking cache is another instance")
    }

    @Test func aHashableClassStillComparesByInstance() throws {
        let a = WebImageContext { $0[ClassValueTestKey.self] = HashableBox(1) }
        let b = WebImageContext { $0[ClassValueTestKey.self] = HashableBox(1) }
        let box = HashableBox(2)
        let firstBox = try #require(a.identity(for: [.load]))
        #expect(firstBox != b.identity(for: [.load]))
        #expect(WebImageContext { $0[ClassValueTestKey.self] = box }.identity(for: [.load]) == WebImageContext { $0[ClassValueTestKey.self] = box }.identity(for: [.load]))
    }

    @Test func aValueThatIsNeitherHashableNorAClassCannotBeCompared() {
        #expect(WebImageContext { $0.imageDecodeOptions = ImageDecodeOptions() }.identity(for: [.decode]) == nil)
        #expect(WebImageContext { $0.cacheKeyFilter = .closure { $0.absoluteString } }.identity(for: [.load]) == nil)
        #expect(WebImageContext { $0.imageCoder = RawBitmapCoder() }.identity(for: [.decode]) == nil, "a struct coder")
    }

    @Test func equalValuesUnderDifferentKeysDiffer() throws {
        let query = WebImageContext { $0.queryCacheType = .memory }
        let store = WebImageContext { $0.storeCacheType = .memory }
        let queryIdentity = try #require(query.identity(for: [.load]))
        #expect(queryIdentity != store.identity(for: [.load]))
    }

    // MARK: - Identity: effects

    @Test func anUnknownKeyMakesTheContextIncomparable() {
        let context = WebImageContext {
            $0[UndeclaredEffectTestKey.self] = 1
            $0.imageThumbnailPixelSize = PixelSize(width: 10, height: 10)
        }
        #expect(context.identity(for: [.load, .decode]) == nil)
        #expect(context.identity(for: [.decode]) == nil)
        #expect(context.identity(for: []) == nil, "whatever is asked for")
        #expect(context.identity(for: [.none]) == nil)
    }

    @Test func keysOfEffectsNotAskedForAreIgnored() throws {
        let a = WebImageContext {
            $0.imageThumbnailPixelSize = PixelSize(width: 10, height: 10)
            $0.imageDecodeOptions = ImageDecodeOptions()
            $0.imageCache = MockImageCache(name: "a")
        }
        let b = WebImageContext {
            $0.imageScaleFactor = 3
            $0.imageCache = MockImageCache(name: "b")
        }
        // Under [.load] the decode keys (an incomparable one included) are not looked at.
        let loadIdentity = try #require(a.identity(for: [.load]))
        #expect(loadIdentity != b.identity(for: [.load]), "different cache instances")
        let withoutDecodeKeys = try #require(WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 1, height: 1) }.identity(for: [.load]))
        #expect(withoutDecodeKeys == WebImageContext().identity(for: [.load]))
        // Under [.decode] the load keys (an incomparable one included) are not looked at.
        let decodeOnly = WebImageContext {
            $0.imageThumbnailPixelSize = PixelSize(width: 10, height: 10)
            $0.imageCache = MockImageCache(name: "c")
            $0.cacheKeyFilter = .closure { $0.absoluteString }
        }
        let other = WebImageContext {
            $0.imageThumbnailPixelSize = PixelSize(width: 10, height: 10)
            $0.imageCache = MockImageCache(name: "d")
        }
        let decodeIdentity = try #require(decodeOnly.identity(for: [.decode]))
        #expect(decodeIdentity == other.identity(for: [.decode]))
        #expect(a.identity(for: []) == WebImageContext().identity(for: []), "nothing asked for: every declared key is ignored")
    }

    @Test func noneKeysAreAlwaysIgnored() throws {
        let a = WebImageContext {
            $0.callbackQueue = .queue(DispatchQueue(label: "a"))
            $0.setImageOperationKey = "view-a"
            $0.optionsProcessor = .closure { _, _, _ in nil }
            $0[NoneEffectTestKey.self] = { $0 }
        }
        let b = WebImageContext {
            $0.callbackQueue = .immediate
            $0.setImageOperationKey = "view-b"
        }
        for effects in [[], [.load], [.decode], [.load, .decode], Self.allEffects] as [Set<WebImageContextKeyEffect>] {
            let identity = try #require(a.identity(for: effects), "\(effects)")
            #expect(identity == b.identity(for: effects), "\(effects)")
            #expect(identity == WebImageContext().identity(for: effects), "\(effects)")
        }
    }

    @Test func theOrderKeysWereSetInDoesNotMatter() throws {
        let cache = MockImageCache(name: "c")
        let coder = MockImageCoder(name: "m", magic: [1], format: .png)
        let setters: [(inout WebImageContext) -> Void] = [
            { $0.imageCache = cache },
            { $0.imageCoder = coder },
            { $0.imageScaleFactor = 2 },
            { $0.imageThumbnailPixelSize = PixelSize(width: 3, height: 4) },
            { $0.imagePreserveAspectRatio = false },
            { $0.imageScaleDownLimitBytes = 1000 },
            { $0.queryCacheType = .disk },
            { $0.storeCacheType = .memory },
            { $0.originalQueryCacheType = .all },
            { $0.originalStoreCacheType = .disk },
            { $0.imageCacheKey = "key" },
            { $0[LoadEffectTestKey.self] = "plug-in" },
        ]
        var forward = WebImageContext()
        for set in setters { set(&forward) }
        var backward = WebImageContext()
        for set in setters.reversed() { set(&backward) }
        var random = SplitMix64(seed: 16)
        var shuffled = WebImageContext()
        for set in setters.shuffled(using: &random) { set(&shuffled) }
        let identity = try #require(forward.identity(for: [.load, .decode]))
        #expect(identity == backward.identity(for: [.load, .decode]))
        #expect(identity == shuffled.identity(for: [.load, .decode]))
        #expect(identity.hashValue == shuffled.identity(for: [.load, .decode])?.hashValue)
        let merged = WebImageContext { setters[0](&$0); setters[1](&$0) }.merging(backward)
        #expect(identity == merged.identity(for: [.load, .decode]))
    }

    @Test func aReplacedValueCountsAsTheNewValue() throws {
        var context = WebImageContext { $0.imageScaleFactor = 2 }
        context.imageScaleFactor = 3
        let replaced = try #require(context.identity(for: [.decode]))
        #expect(replaced == WebImageContext { $0.imageScaleFactor = 3 }.identity(for: [.decode]))
        context.removeValue(for: WebImageContextKeys.ImageScaleFactor.self)
        #expect(context.identity(for: [.decode]) == WebImageContext().identity(for: [.decode]))
    }
}

/// A plug-in key that declares nothing.
private enum UndeclaredEffectTestKey: WebImageContextKey { typealias Value = Int }
/// A plug-in key that changes the load.
private enum LoadEffectTestKey: WebImageContextKey {
    typealias Value = String
    static let effect = WebImageContextKeyEffect.load
}
/// A plug-in key that changes nothing, with a value that cannot be compared.
private enum NoneEffectTestKey: WebImageContextKey {
    typealias Value = @Sendable (Int) -> Int
    static let effect = WebImageContextKeyEffect.none
}
/// A class whose instances compare equal by value.
private final class HashableBox: Hashable, Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
    static func == (lhs: HashableBox, rhs: HashableBox) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
/// A plug-in key with a class value.
private enum ClassValueTestKey: WebImageContextKey {
    typealias Value = HashableBox
    static let effect = WebImageContextKeyEffect.load
}
