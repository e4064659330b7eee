public import Foundation

/// The cache key scheme: SDWebImage's parts (base key, thumbnail, transformer), written so that
/// no URL and no cache key filter can spell the key of another request.
///
/// 1. The *base key* is the cache key filter's answer (the request's, else the manager's), or
///    `url.absoluteString`, with every `\` written `\\` and every `|` written `\|`. A URL's
///    absolute string holds neither (URL percent-encodes them), so a URL's base key is the URL.
/// 2. The *variant parts*, in this order, each when the request has it (from its decode options:
///    the context's keys, else its ``WebImageContext/imageDecodeOptions``):
///    - `ColorProfile(keep)`: the request keeps the file's colour profile
///      (``ColorProfileHandling/keep``) instead of converting to sRGB; this part is in the
///      request's original key too, since its full-size image differs from the default one;
///    - `Thumbnail(<W>x<H>,<preserveAspectRatio 1|0>)`: a thumbnail size;
///    - `ScaleDown(<bytes>)`: a scale-down budget (`scaleDownLargeImages`); SDWebImage has no such
///      part, and stores a scaled-down image under the plain key, where it answers plain requests;
///    - the transformer's `transformerKey`, escaped as the base key, with one more `\` in front
///      when it starts as one of the parts above (`ColorProfile(`, `Thumbnail(`, `ScaleDown(`).
/// 3. A key with variant parts is the base key with `|` + the parts joined by `|` + `|` inserted
///    BEFORE the path extension, keeping the query and fragment (so the disk file keeps its
///    extension): `https://a.com/image.png?v=2` with a 200x200 thumbnail and a flip becomes
///    `https://a.com/image|Thumbnail(200x200,1)|FlippingTransformer(1,0)|.png?v=2`. Without a path
///    extension the block goes at the end. An extension is 1-10 letters or digits after the last
///    dot of the last path component, the path ending at the first `?` or `#`.
///
/// Why two requests never share a key: an unescaped `|` occurs only around and between variant
/// parts, so the first and last unescaped `|` of a key delimit its block, whose parts and type
/// are read back unambiguously; the rest, unescaped, is the base key. A key without an unescaped
/// `|` is a plain key. (Escaping changes only base keys that hold `\` or `|`.)
///
/// What is stored under which key (SDWebImage's rules):
/// - The base key alone (with the `ColorProfile(keep)` part for a request that keeps profiles)
///   is the *original* key, the full-size image's: a plain request's key, and
///   where a variant request (thumbnail, scale-down or transformer) stores the loaded original
///   (`originalStoreCacheType`, default `.disk`) and looks for it after a miss of its own key.
/// - A variant request's own key holds its result: the thumbnail, scaled-down or transformed
///   image, never the full-size one (unless the variant left it unchanged).
///
/// Keys written before this scheme (parts spliced in with `-`) are never looked up again; their
/// entries age out of the disk cache like any unused entry.
extension ImageManager {
    /// The key of a request for `baseKey` with the given variant parts (see the scheme above).
    /// - Parameters:
    ///   - baseKey: The cache key filter's answer or the URL's absolute string, as is (this
    ///     function escapes it).
    ///   - keepsColorProfile: Whether the request keeps the file's colour profile
    ///     (``ColorProfileHandling/keep``): adds the `ColorProfile(keep)` part.
    ///   - thumbnailPixelSize: The thumbnail size; `nil` or empty: no thumbnail part.
    ///   - preserveAspectRatio: Whether the thumbnail keeps the aspect ratio.
    ///   - scaleDownLimitBytes: The scale-down budget; `nil` or not positive: no scale-down part.
    ///   - transformerKey: The transformer's key; `nil`: no transformer part.
    public static func cacheKey(
        forBaseKey baseKey: String,
        keepsColorProfile: Bool = false,
        thumbnailPixelSize: PixelSize? = nil,
        preserveAspectRatio: Bool = true,
        scaleDownLimitBytes: Int? = nil,
        transformerKey: String? = nil
    ) -> String {
        cacheKey(
            forEscapedBaseKey: escapedKeyText(baseKey), keepsColorProfile: keepsColorProfile, thumbnailPixelSize: thumbnailPixelSize,
            preserveAspectRatio: preserveAspectRatio, scaleDownLimitBytes: scaleDownLimitBytes, transformerKey: transformerKey
        )
    }

    /// ``cacheKey(forBaseKey:keepsColorProfile:thumbnailPixelSize:preserveAspectRatio:scaleDownLimitBytes:transformerKey:)``
    /// of a base key already escaped (``escapedKeyText(_:)``).
    static func cacheKey(
        forEscapedBaseKey base: String,
        keepsColorProfile: Bool = false,
        thumbnailPixelSize: PixelSize? = nil,
        preserveAspectRatio: Bool = true,
        scaleDownLimitBytes: Int? = nil,
        transformerKey: String? = nil
    ) -> String {
        var parts: [String] = []
        if keepsColorProfile { parts.append(keepColorProfilePart) }
        if let size = thumbnailPixelSize, !size.isEmpty {
            parts.append(thumbnailPart(size, preserveAspectRatio: preserveAspectRatio))
        }
        if let limit = scaleDownLimitBytes, limit > 0 {
            parts.append("\(scaleDownPartPrefix)\(limit))")
        }
        if let transformerKey {
            var part = escapedKeyText(transformerKey)
            let scalars = part.unicodeScalars
            if [colorProfilePartPrefix, thumbnailPartPrefix, scaleDownPartPrefix].contains(where: { scalars.starts(with: $0.unicodeScalars) }) {
                part = String(keyEscape) + part
            }
            parts.append(part)
        }
        guard !parts.isEmpty else { return base }
        let separator = String(variantSeparator)
        return insertingVariantBlock(separator + parts.joined(separator: separator) + separator, into: base)
    }

    /// The key of a request for `key` with a thumbnail part.
    /// - Parameters:
    ///   - key: A base key (the cache key filter's answer or a URL's string), not a key
    ///     with parts: for several parts use ``cacheKey(forBaseKey:keepsColorProfile:thumbnailPixelSize:preserveAspectRatio:scaleDownLimitBytes:transformerKey:)``.
    ///   - size: The thumbnail's largest size in pixels.
    ///   - preserveAspectRatio: Whether the thumbnail keeps the aspect ratio.
    public static func thumbnailedKey(_ key: String, size: PixelSize, preserveAspectRatio: Bool) -> String {
        cacheKey(forBaseKey: key, thumbnailPixelSize: size, preserveAspectRatio: preserveAspectRatio)
    }

    /// The key of a request for `key` with a transformer part.
    /// - Parameters:
    ///   - key: A base key (the cache key filter's answer or a URL's string), not a key
    ///     with parts: for several parts use ``cacheKey(forBaseKey:keepsColorProfile:thumbnailPixelSize:preserveAspectRatio:scaleDownLimitBytes:transformerKey:)``.
    ///   - transformerKey: The transformer's ``ImageTransformer/transformerKey``.
    public static func transformedKey(_ key: String, transformerKey: String) -> String {
        cacheKey(forBaseKey: key, transformerKey: transformerKey)
    }

    /// The full cache key of a request for `url`: base key, then the thumbnail, scale-down and
    /// transformer parts the request has (the context's transformer, else ``transformer``).
    /// - Parameters:
    ///   - url: The image's URL.
    ///   - options: The request's flags (`scaleDownLargeImages` adds the scale-down part).
    ///   - context: The request's context.
    /// - Returns: `nil` for a `nil` URL.
    public func cacheKey(for url: URL?, options: WebImageOptions = [], context: WebImageContext = WebImageContext()) -> String? {
        guard let url else { return nil }
        return Self.keys(for: url, options: options, context: context, cacheKeyFilter: cacheKeyFilter, transformer: transformer).key
    }

    /// The key of the full-size original of a request for `url`: the base key (the cache
    /// key filter's answer, else the URL; escaped), with no thumbnail, scale-down or transformer
    /// part (SDWebImage's `originalCacheKeyForURL:context:`); with the `ColorProfile(keep)` part
    /// when the context keeps colour profiles.
    /// - Returns: `nil` for a `nil` URL.
    public func originalCacheKey(for url: URL?, context: WebImageContext = WebImageContext()) -> String? {
        guard let url else { return nil }
        return Self.keys(for: url, options: [], context: context, cacheKeyFilter: cacheKeyFilter, transformer: nil).originalKey
    }

    /// The request's key and its original key, with the given defaults.
    static func keys(for url: URL, options: WebImageOptions, context: WebImageContext, cacheKeyFilter: (any CacheKeyFilter)?, transformer: (any ImageTransformer)?) -> (key: String, originalKey: String) {
        let baseKey = (context.cacheKeyFilter ?? cacheKeyFilter)?.cacheKey(for: url) ?? url.absoluteString
        let decode = ImageDecodeOptions(options: options, context: context)
        let base = escapedKeyText(baseKey)
        let keepsProfile = decode.colorProfileHandling == .keep
        let key = cacheKey(
            forEscapedBaseKey: base,
            keepsColorProfile: keepsProfile,
            thumbnailPixelSize: decode.thumbnailPixelSize,
            preserveAspectRatio: decode.preserveAspectRatio,
            scaleDownLimitBytes: decode.scaleDownLimitBytes,
            transformerKey: (context.imageTransformer ?? transformer)?.transformerKey
        )
        return (key, keepsProfile ? cacheKey(forEscapedBaseKey: base, keepsColorProfile: true) : base)
    }

    // MARK: Internals

    /// Opens, separates and closes the variant parts of a key.
    static let variantSeparator: Character = "|"
    /// Escapes the next character of a key's text.
    static let keyEscape: Character = "\\"
    static let colorProfilePartPrefix = "ColorProfile("
    static let keepColorProfilePart = "ColorProfile(keep)"
    static let thumbnailPartPrefix = "Thumbnail("
    static let scaleDownPartPrefix = "ScaleDown("

    static func thumbnailPart(_ size: PixelSize, preserveAspectRatio: Bool) -> String {
        "\(thumbnailPartPrefix)\(size.width)x\(size.height),\(preserveAspectRatio ? 1 : 0))"
    }

    /// `text` with every `\` and `|` escaped by a `\`: it holds no unescaped `|`, and the
    /// escaping is undone by dropping each escaping `\`. Text without either is returned as is.
    /// Works on Unicode scalars (a combining mark after a `|` never hides it).
    static func escapedKeyText(_ text: String) -> String {
        let escape = UInt8(ascii: "\\"), separator = UInt8(ascii: "|")
        // Scanned as contiguous bytes when the string has them (a native string always does).
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains { $0 == escape || $0 == separator }
        } ?? !text.utf8.contains { $0 == escape || $0 == separator }
        guard !plain else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\\" || scalar == "|" { escaped.append("\\") }
            escaped.append(scalar)
        }
        return String(escaped)
    }

    /// `key` with `block` inserted before its path extension, or appended when it has none.
    /// The path is what precedes the first `?` or `#` (a URL's query and fragment), as for the
    /// disk cache's file names, which keep the extension.
    static func insertingVariantBlock(_ block: String, into key: String) -> String {
        let pathEnd = key.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? key.endIndex
        guard let dot = extensionDot(in: key[..<pathEnd]) else { return key + block }
        var result = key
        result.insert(contentsOf: block, at: dot)
        return result
    }

    /// The index of the dot that starts the path extension of the last component, if any.
    private static func extensionDot(in path: Substring) -> String.Index? {
        let componentStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let component = path[componentStart...]
        guard let dot = component.lastIndex(of: "."), dot > component.startIndex else { return nil }
        let ext = component[component.index(after: dot)...]
        guard (1...10).contains(ext.count), ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        return dot
    }
}
