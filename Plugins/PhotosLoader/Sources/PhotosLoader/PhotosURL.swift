public import Foundation
import WebImageCore

/// The address of an image in a ``PhotoLibrary``, as a `photos://` URL.
///
/// - `photos://asset/<identifier>`: an asset by its stable identifier (32 hex digits).
/// - `photos://album/<name>/<index>`: the asset at position `index` (from 0) of the album
///   `name`, in ``PhotoLibrary/assets(inAlbum:includingSubalbums:)`` order. The name is the
///   folder's path from the root, each component percent-encoded: `photos://album/2023/Summer/0`,
///   `photos://album/My%20Trip/3`. The root album (`""`) is `photos://album/<index>`.
///
/// Asset URLs are stable; album URLs are positional (they shift when the folder changes), like
/// an index into a photo grid.
public enum PhotosURL: Hashable, Sendable {
    /// An asset by identifier.
    case asset(identifier: String)
    /// The asset at `index` of the album `name`.
    case album(name: String, index: Int)

    /// The URL scheme, `photos`.
    public static let scheme = "photos"

    /// Whether `url` has the `photos` scheme (any letter case).
    public static func isPhotosURL(_ url: URL) -> Bool {
        url.scheme?.lowercased() == scheme
    }

    /// Parses a `photos://` URL.
    /// - Throws: ``/WebImageCore/WebImageError/Code/invalidURL`` naming the URL and what is wrong: another
    ///   scheme, a host other than `asset` or `album`, an identifier that is not 32 hex digits,
    ///   an index that is not a non-negative number, a query or fragment.
    public init(_ url: URL) throws {
        func invalid(_ why: String) -> WebImageError {
            WebImageError(.invalidURL, "\(url.absoluteString) is not a photo library URL: \(why)", url: url)
        }
        guard Self.isPhotosURL(url) else { throw invalid("the scheme is not \(Self.scheme)") }
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { throw invalid("it does not parse") }
        guard components.query == nil, components.fragment == nil else { throw invalid("it has a query or fragment") }
        var parts = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.first == "" { parts.removeFirst() }
        switch components.host?.lowercased() {
        case "asset":
            guard parts.count == 1 else { throw invalid("expected photos://asset/<identifier>") }
            let identifier = parts[0].lowercased()
            guard identifier.utf8.count == 32, identifier.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
                throw invalid("\"\(parts[0])\" is not an asset identifier (32 hex digits)")
            }
            self = .asset(identifier: identifier)
        case "album":
            guard let last = parts.last, let index = Int(last), index >= 0, last.allSatisfy(\.isASCII) else {
                throw invalid("expected photos://album/<name>/<index> with an index of 0 or more")
            }
            var names: [String] = []
            for part in parts.dropLast() {
                guard !part.isEmpty, let name = part.removingPercentEncoding, !name.contains("/"), name != ".", name != ".." else {
                    throw invalid("\"\(part)\" is not a folder name")
                }
                names.append(name)
            }
            self = .album(name: names.joined(separator: "/"), index: index)
        default:
            throw invalid("the host must be \"asset\" or \"album\", not \"\(components.host ?? "")\"")
        }
    }

    /// The URL.
    public var url: URL {
        switch self {
        case .asset(let identifier):
            return URL(string: "\(Self.scheme)://asset/\(identifier)")!
        case .album(let name, let index):
            let encoded = name.split(separator: "/").map { component in
                String(component).addingPercentEncoding(withAllowedCharacters: Self.componentCharacters) ?? String(component)
            }
            return URL(string: "\(Self.scheme)://album/" + (encoded + ["\(index)"]).joined(separator: "/"))!
        }
    }

    /// Characters left as they are in an album name component: RFC 3986 unreserved ones.
    private static let componentCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}
