import Foundation

/// Reads RESP2 replies from a byte buffer that may hold less than a whole reply (the rest is
/// still on the wire) or more (pipelined replies).
///
/// Memory stays bounded whatever the server sends: a bulk string or a whole buffered reply
/// larger than `maxReplySize`, an array of more than a million elements, nesting deeper than 8,
/// or a status line longer than 64 KiB is a protocol violation, found before anything that
/// large is allocated.
struct RESPParser {
    /// The largest bulk string (and about the largest whole reply) accepted.
    let maxReplySize: Int

    static let maxLineLength = 64 * 1024
    static let maxDepth = 8
    static let maxArrayCount = 1 << 20

    /// A reply whose bytes are all in `bytes` from `start`, and where the next one begins;
    /// `nil` if more bytes are needed.
    /// - Throws: ``RedisClientError/Kind/protocolViolation``.
    func parse(_ bytes: [UInt8], from start: Int) throws(RedisClientError) -> (value: RedisValue, end: Int)? {
        try parseValue(bytes, at: start, depth: 0)
    }

    private func parseValue(_ bytes: [UInt8], at index: Int, depth: Int) throws(RedisClientError) -> (value: RedisValue, end: Int)? {
        guard index < bytes.count else { return nil }
        let type = bytes[index]
        guard let (line, next) = try Self.line(bytes, from: index + 1) else { return nil }
        switch type {
        case UInt8(ascii: "+"):
            return (.simpleString(String(decoding: bytes[line], as: UTF8.self)), next)
        case UInt8(ascii: "-"):
            return (.error(String(decoding: bytes[line], as: UTF8.self)), next)
        case UInt8(ascii: ":"):
            return (.integer(try Self.integer(bytes[line])), next)
        case UInt8(ascii: "$"):
            let length = try Self.integer(bytes[line])
            if length == -1 { return (.null, next) }
            guard length >= 0 else { throw Self.violation("a bulk string of length \(length)") }
            guard length <= maxReplySize else {
                throw Self.violation("a bulk string of \(length) bytes, over the reply limit of \(maxReplySize) bytes")
            }
            guard bytes.count - next >= length + 2 else { return nil }
            guard bytes[next + length] == 13, bytes[next + length + 1] == 10 else {
                throw Self.violation("a bulk string of \(length) bytes not followed by CRLF")
            }
            return (.bulkString(Data(bytes[next..<(next + length)])), next + length + 2)
        case UInt8(ascii: "*"):
            let count = try Self.integer(bytes[line])
            if count == -1 { return (.null, next) }
            guard count >= 0, count <= Self.maxArrayCount else { throw Self.violation("an array of \(count) elements") }
            guard depth < Self.maxDepth else { throw Self.violation("arrays nested deeper than \(Self.maxDepth)") }
            var elements = [RedisValue]()
            elements.reserveCapacity(min(count, 1024))
            var position = next
            for _ in 0..<count {
                guard let (element, end) = try parseValue(bytes, at: position, depth: depth + 1) else { return nil }
                elements.append(element)
                position = end
            }
            return (.array(elements), position)
        default:
            throw Self.violation("a reply starting with byte 0x\(String(type, radix: 16))")
        }
    }

    /// The range of the line starting at `index` (without its CRLF) and the index after the
    /// CRLF, or `nil` if the CRLF has not arrived.
    private static func line(_ bytes: [UInt8], from index: Int) throws(RedisClientError) -> (Range<Int>, Int)? {
        var position = index
        let limit = min(bytes.count, index + maxLineLength + 1)
        while position < limit {
            if bytes[position] == 13 {
                guard position + 1 < bytes.count else { return nil }
                guard bytes[position + 1] == 10 else { throw violation("a CR not followed by LF") }
                return (index..<position, position + 2)
            }
            position += 1
        }
        if bytes.count - index > maxLineLength { throw violation("a line longer than \(maxLineLength) bytes") }
        return nil
    }

    /// A decimal integer with an optional minus sign.
    private static func integer(_ digits: ArraySlice<UInt8>) throws(RedisClientError) -> Int {
        var value = 0
        var negative = false
        var sawDigit = false
        for (offset, byte) in digits.enumerated() {
            if offset == 0, byte == UInt8(ascii: "-") {
                negative = true
                continue
            }
            guard byte >= 48, byte <= 57 else {
                throw violation("the integer \(String(reflecting: String(decoding: digits.prefix(32), as: UTF8.self)))")
            }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int(byte - 48))
            guard !overflow1, !overflow2 else { throw violation("an integer that overflows 64 bits") }
            value = sum
            sawDigit = true
        }
        guard sawDigit else { throw violation("an empty integer") }
        return negative ? -value : value
    }

    private static func violation(_ what: String) -> RedisClientError {
        RedisClientError(.protocolViolation, "the server sent \(what)")
    }
}
