public import Foundation

/// The cache key scheme (SDWebImage's, with whole-pixel thumbnail sizes).
///
/// 1. The base key is the cache key filter's answer (the request's, else the manager's), or
///    `url.absoluteString`.
/// 2. With a thumbnail size, `Thumbnail(<W>x<H>,<preserveAspectRatio 1|0>)` is inserted.
/// 3. With a transformer, its `transformerKey` is inserted.
///
/// Each insertion is `"-" + part` placed BEFORE the path extension, keeping the query and
/// fragment: `https://a.com/image.png?v=2` with a flip transformer becomes
/// `https://a.com/image-FlippingTransformer(1,0).png?v=2`. Without a path extension the part is
/// appended at the end. An extension is 1-10 letters or digits after the last dot of the last
/// path component, so a dot inside an earlier part (`Rotation(0.785,1)`) is never taken for one.
///
/// The key without the transformer part is the *original* key: where the untransformed image
/// is stored, so that a second transformer on the same URL needs no download.
extension ImageManager {
    /// `key` with a thumbnail part inserted.
    public static func thumbnailedKey(_ key: String, size: PixelSize, preserveAspectRatio: Bool) -> String {
        insertingKeyPart("Thumbnail(\(size.width)x\(size.height),\(preserveAspectRatio ? 1 : 0))", into: key)
    }

    /// `key` with a transformer key inserted.
    public static func transformedKey(_ key: String, transformerKey: String) -> String {
        insertingKeyPart(transformerKey, into: key)
    }

    /// The full cache key of a request for `url`: base key, thumbnail part, transformer part.
    /// - Returns: `nil` for a `nil` URL.
    public func cacheKey(for url: URL?, context: WebImageContext = WebImageContext()) -> String? {
        guard let original = originalCacheKey(for: url, context: context) else { return nil }
        guard let transformer = context.imageTransformer ?? transformer else { return original }
        return Self.transformedKey(original, transformerKey: transformer.transformerKey)
    }

    /// The key of the untransformed image of a request for `url`: base key and thumbnail part.
    public func originalCacheKey(for url: URL?, context: WebImageContext = WebImageContext()) -> String? {
        guard let url else { return nil }
        let filter = context.cacheKeyFilter ?? cacheKeyFilter
        var key = filter?.cacheKey(for: url) ?? url.absoluteString
        if let size = context.imageThumbnailPixelSize, !size.isEmpty {
            key = Self.thumbnailedKey(key, size: size, preserveAspectRatio: context.imagePreserveAspectRatio ?? true)
        }
        return key
    }

    static func insertingKeyPart(_ part: String, into key: String) -> String {
        // A URL with a scheme other than file: only its path may hold the extension.
        if let components = URLComponents(string: key), let scheme = components.scheme,
           scheme.lowercased() != "file", let pathRange = components.rangeOfPath {
            if let dot = extensionDot(in: key[pathRange]) {
                var result = key
                result.insert(contentsOf: "-" + part, at: dot)
                return result
            }
            return key + "-" + part
        }
        if let dot = extensionDot(in: key[...]) {
            var result = key
            result.insert(contentsOf: "-" + part, at: dot)
            return result
        }
        return key + "-" + part
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
