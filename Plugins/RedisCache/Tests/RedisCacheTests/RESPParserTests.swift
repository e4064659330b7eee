import Foundation
import Testing
@testable import RedisCache

/// The RESP2 reader and writer: every reply type, replies split anywhere, pipelined replies,
/// and the bounds that keep a hostile server from costing unbounded memory.
@Suite struct RESPParserTests {
    let parser = RESPParser(maxReplySize: 1024)

    static let replies: [(bytes: String, value: RedisValue)] = [
        ("+OK\r\n", .simpleString("OK")),
        ("-ERR unknown command 'FOO'\r\n", .error("ERR unknown command 'FOO'")),
        (":0\r\n", .integer(0)),
        (":-42\r\n", .integer(-42)),
        (":9223372036854775807\r\n", .integer(Int.max)),
        ("$5\r\nhello\r\n", .bulkString(Data("hello".utf8))),
        ("$0\r\n\r\n", .bulkString(Data())),
        ("$-1\r\n", .null),
        ("*-1\r\n", .null),
        ("*0\r\n", .array([])),
        ("*2\r\n$1\r\n0\r\n*2\r\n$3\r\nk:1\r\n$3\r\nk:2\r\n", .array([.bulkString(Data("0".utf8)), .array([.bulkString(Data("k:1".utf8)), .bulkString(Data("k:2".utf8))])])),
        ("$4\r\na\r\nb\r\n", .bulkString(Data("a\r\nb".utf8))),
    ]

    @Test(arguments: replies.indices)
    func parsesEveryReplyType(_ index: Int) throws {
        let (text, expected) = Self.replies[index]
        let bytes = Array(text.utf8)
        let parsed = try #require(try parser.parse(bytes, from: 0))
        #expect(parsed.value == expected)
        #expect(parsed.end == bytes.count)
    }

    @Test(arguments: replies.indices)
    func everyProperPrefixIsIncomplete(_ index: Int) throws {
        let bytes = Array(Self.replies[index].bytes.utf8)
        for length in 0..<bytes.count {
            #expect(try parser.parse(Array(bytes.prefix(length)), from: 0) == nil, "prefix of \(length) bytes")
        }
    }

    @Test func pipelinedRepliesAreReadOneAfterAnother() throws {
        let bytes = Array("+OK\r\n$3\r\nabc\r\n:7\r\n".utf8)
        var start = 0
        var values: [RedisValue] = []
        while let (value, end) = try parser.parse(bytes, from: start) {
            values.append(value)
            start = end
        }
        #expect(values == [.simpleString("OK"), .bulkString(Data("abc".utf8)), .integer(7)])
        #expect(start == bytes.count)
    }

    static let violations: [(bytes: [UInt8], reason: String)] = [
        (Array("?what\r\n".utf8), "byte 0x3f"),
        (Array("$2000\r\n".utf8), "over the reply limit"),
        (Array("$-5\r\n".utf8), "length -5"),
        (Array("$3\r\nabcXY".utf8), "not followed by CRLF"),
        (Array(":12a\r\n".utf8), "the integer"),
        (Array(":\r\n".utf8), "empty integer"),
        (Array(":99999999999999999999\r\n".utf8), "overflows"),
        (Array("*2000000\r\n".utf8), "2000000 elements"),
        (Array(String(repeating: "*1\r\n", count: 12).utf8) + Array(":1\r\n".utf8), "nested deeper"),
        (Array("+abc\rX".utf8), "CR not followed by LF"),
        ([UInt8(ascii: "+")] + [UInt8](repeating: UInt8(ascii: "a"), count: RESPParser.maxLineLength + 10), "longer than"),
    ]

    @Test(arguments: violations.indices)
    func malformedRepliesAreProtocolViolations(_ index: Int) {
        let (bytes, reason) = Self.violations[index]
        do {
            _ = try parser.parse(bytes, from: 0)
            Issue.record("no error for \(reason)")
        } catch {
            #expect(error.kind == .protocolViolation)
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }

    @Test func encoderWritesArraysOfBulkStrings() {
        let command = RedisCommand.set(Data("k".utf8), Data([0, 13, 10, 255]), expiresInMilliseconds: 1500)
        let bytes = RESPEncoder.encode([command, .ping])
        let expected = Array("*5\r\n$3\r\nSET\r\n$1\r\nk\r\n$4\r\n".utf8) + [0, 13, 10, 255]
            + Array("\r\n$2\r\nPX\r\n$4\r\n1500\r\n*1\r\n$4\r\nPING\r\n".utf8)
        #expect(bytes == expected)
    }

    @Test func encodedCommandsParseBackAsArrays() throws {
        let command = RedisCommand.scan(cursor: "17", match: Data("swiftwebimage:*".utf8), count: 10)
        let parsed = try #require(try RESPParser(maxReplySize: 1024).parse(RESPEncoder.encode([command]), from: 0))
        #expect(parsed.value == .array(command.parts.map { .bulkString($0) }))
        #expect(command.name == "SCAN")
    }
}
