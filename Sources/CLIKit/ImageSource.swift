import Foundation
import SwiftWebImage

/// An input named on the command line: a file path, or an `http`, `https`, `file` or `data` URL.
///
/// Decision: an argument is a URL when it starts with `http:`, `https:`, `file:` or `data:`
/// (any case), or has a `scheme://` prefix (so that `ftp://...` reaches the loaders and is
/// refused there with a clear "no image loader" error); anything else is a path, relative to
/// the current directory. A path may contain colons (`a:b.png`).
struct ImageSource: Sendable {
    /// The argument as the user wrote it: what messages and `info --json` name.
    let argument: String
    /// The URL the loaders get.
    let url: URL

    /// Reads an argument.
    /// - Throws: ``WebImageError/Code/invalidURL`` for an empty argument or a URL that does not parse.
    init(_ argument: String) throws {
        self.argument = argument
        guard !argument.isEmpty else {
            throw WebImageError(.invalidURL, "the input is an empty string")
        }
        if Self.looksLikeURL(argument) {
            guard let url = URL(string: argument), url.scheme != nil else {
                throw WebImageError(.invalidURL, "\(argument.prefix(200)) is not a valid URL")
            }
            self.url = url
        } else {
            self.url = URL(fileURLWithPath: argument)
        }
    }

    private static func looksLikeURL(_ argument: String) -> Bool {
        let lowered = argument.prefix(8).lowercased()
        if ["http:", "https:", "file:", "data:"].contains(where: { lowered.hasPrefix($0) }) { return true }
        guard let separator = argument.range(of: "://") else { return false }
        let scheme = argument[..<separator.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// Whether the loaders fetch this source over the network (`http`, `https`).
    var isRemote: Bool {
        ["http", "https"].contains(url.scheme?.lowercased() ?? "")
    }

    /// Where a fresh load of this source comes from, for reports: `network`, `file` or `data`.
    var loaderOrigin: String {
        switch url.scheme?.lowercased() {
        case "file": "file"
        case "data": "data"
        default: "network"
        }
    }
}
