import Foundation

/// Parses the head of an HTTP/1.1 request (request line and header fields) for
/// ``LoopbackHTTPServer``. Only what the server needs: method, target, version, fields.
struct HTTPRequestHead {
    var method: String
    var target: String
    var version: String
    var headers: [(name: String, value: String)]

    /// The largest head the server accepts (request line plus fields).
    static let maximumSize = 64 * 1024

    /// The index just past the blank line ending a head in `buffer`, or `nil` if incomplete.
    static func endOfHead(in buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 3..<buffer.count
        where buffer[index] == 10 && buffer[index - 1] == 13 && buffer[index - 2] == 10 && buffer[index - 3] == 13 {
            return index + 1
        }
        return nil
    }

    /// Parses `bytes` (a complete head, blank line included); `nil` if malformed.
    init?(_ bytes: ArraySlice<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first else { return nil }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/") else { return nil }
        method = String(parts[0])
        target = String(parts[1])
        version = String(parts[2])
        headers = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((name, value))
        }
    }

    /// The value of the first field named `name` (case-insensitive).
    func value(for name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
