import Foundation

/// Writes commands in RESP2: each command an array of bulk strings
/// (`*<n>\r\n` then `$<length>\r\n<bytes>\r\n` per part). Several commands in one buffer are a
/// pipeline.
enum RESPEncoder {
    /// The bytes of `commands`, one after another.
    static func encode(_ commands: [RedisCommand]) -> [UInt8] {
        var capacity = 0
        for command in commands {
            capacity += 16
            for part in command.parts { capacity += part.count + 16 }
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(capacity)
        for command in commands {
            append(header: UInt8(ascii: "*"), count: command.parts.count, to: &bytes)
            for part in command.parts {
                append(header: UInt8(ascii: "$"), count: part.count, to: &bytes)
                bytes.append(contentsOf: part)
                bytes.append(contentsOf: crlf)
            }
        }
        return bytes
    }

    private static let crlf: [UInt8] = [13, 10]

    private static func append(header: UInt8, count: Int, to bytes: inout [UInt8]) {
        bytes.append(header)
        bytes.append(contentsOf: String(count).utf8)
        bytes.append(contentsOf: crlf)
    }
}
