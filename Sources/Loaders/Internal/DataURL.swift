import Foundation
import WebImageCore

/// A parsed `data:` URL (RFC 2397): its media type and decoded payload.
struct DataURL {
    /// The media type ("image/png"), lower case; "text/plain" when the URL names none.
    let mediaType: String
    /// Whether the payload was Base64.
    let isBase64: Bool
    /// The payload bytes.
    let data: Data

    /// Parses `url`.
    /// - Throws: ``WebImageError/Code/invalidURL`` naming what is malformed.
    init(_ url: URL) throws {
        let text = url.absoluteString
        guard text.count >= 5, text.prefix(5).lowercased() == "data:" else {
            throw WebImageError(.invalidURL, "Not a data URL: \(text.prefix(64))", url: url)
        }
        let rest = text.dropFirst(5)
        guard let comma = rest.firstIndex(of: ",") else {
            throw WebImageError(.invalidURL, "Malformed data URL: no comma after the media type in \(text.prefix(64))", url: url)
        }
        let parameters = rest[..<comma].split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        isBase64 = parameters.count > 1 && parameters.last?.lowercased() == "base64"
        let type = parameters.first?.lowercased() ?? ""
        mediaType = type.contains("/") ? (type.removingPercentEncoding ?? type) : "text/plain"
        let payload = try Self.percentDecoded(rest[rest.index(after: comma)...], url: url)
        if isBase64 {
            data = try Self.base64Decoded(payload, url: url)
        } else {
            data = Data(payload)
        }
    }

    /// The bytes of `text` with `%XX` escapes decoded.
    static func percentDecoded(_ text: Substring, url: URL) throws -> [UInt8] {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                    throw WebImageError(.invalidURL, "Malformed data URL: bad percent escape at payload offset \(index)", url: url)
                }
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Decodes Base64 (standard or URL-safe alphabet, white space ignored, padding optional).
    static func base64Decoded(_ bytes: [UInt8], url: URL) throws -> Data {
        var characters: [UInt8] = []
        characters.reserveCapacity(bytes.count + 3)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
            case UInt8(ascii: "-"): characters.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): characters.append(UInt8(ascii: "/"))
            default: characters.append(byte)
            }
        }
        if characters.count % 4 != 0 {
            characters += [UInt8](repeating: UInt8(ascii: "="), count: 4 - characters.count % 4)
        }
        guard let data = Data(base64Encoded: Data(characters)) else {
            throw WebImageError(.invalidURL, "Malformed data URL: its \(bytes.count)-character payload is not valid Base64", url: url)
        }
        return data
    }
}
