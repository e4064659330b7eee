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

    /// Parses `bytes` (a complete head, blank line included); `nil` if malformed. Byte by
    /// byte (Foundation's `components(separatedBy:)` and `trimmingCharacters(in:)` were most of
    /// the server's time in the many-small-downloads benchmark).
    init?(_ bytes: ArraySlice<UInt8>) {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 10 {
                var end = index
                if end > start, bytes[end - 1] == 13 { end -= 1 }
                lines.append(bytes[start..<end])
                start = index + 1
            }
            index += 1
        }
        if start < bytes.endIndex { lines.append(bytes[start...]) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first else { return nil }
        let parts = requestLine.split(separator: 32, omittingEmptySubsequences: true)
        guard parts.count == 3, parts[2].starts(with: Array("HTTP/".utf8)) else { return nil }
        method = String(decoding: parts[0], as: UTF8.self)
        target = String(decoding: parts[1], as: UTF8.self)
        version = String(decoding: parts[2], as: UTF8.self)
        headers = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: 58) else { return nil }
            let name = String(decoding: Self.trimmed(line[..<colon]), as: UTF8.self)
            let value = String(decoding: Self.trimmed(line[(colon + 1)...]), as: UTF8.self)
            headers.append((name, value))
        }
    }

    /// `bytes` without leading and trailing spaces and tabs.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == 32 || first == 9 { slice = slice.dropFirst() }
        while let last = slice.last, last == 32 || last == 9 { slice = slice.dropLast() }
        return slice
    }

    /// The value of the first field named `name` (ASCII case-insensitive).
    func value(for name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.count == wanted.count && $0.name.lowercased() == wanted }?.value
    }
}
