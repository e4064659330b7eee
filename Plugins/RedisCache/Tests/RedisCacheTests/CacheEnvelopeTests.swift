import Foundation
import Testing
import WebImageCore
@testable import RedisCache

/// The stored value format: what goes in comes out, and damaged or foreign bytes are refused
/// without reading past the end.
@Suite struct CacheEnvelopeTests {
    static let envelopes = [
        CacheEnvelope(format: .png, pixelSize: PixelSize(width: 640, height: 480), extendedData: Data("meta".utf8), data: Data((0..<300).map { UInt8($0 % 256) })),
        CacheEnvelope(format: .undefined, pixelSize: .zero, extendedData: nil, data: Data()),
        CacheEnvelope(format: ImageFormat(rawValue: "plug-in-format"), pixelSize: PixelSize(width: 1, height: 1), extendedData: Data(), data: Data([1])),
    ]

    @Test(arguments: envelopes.indices)
    func roundTrips(_ index: Int) throws {
        let envelope = Self.envelopes[index]
        let bytes = try #require(envelope.encoded())
        #expect(try CacheEnvelope.decode(bytes) == envelope)
        // A slice that does not start at index 0 reads the same.
        let shifted = (Data([9, 9, 9]) + bytes).dropFirst(3)
        #expect(try CacheEnvelope.decode(shifted) == envelope)
    }

    @Test func everyTruncationIsCorrupt() throws {
        let bytes = try #require(Self.envelopes[0].encoded())
        for length in 0..<bytes.count {
            #expect(throws: CacheEnvelope.ReadError.self, "truncated to \(length) bytes") {
                try CacheEnvelope.decode(bytes.prefix(length))
            }
        }
    }

    @Test func trailingBytesAreCorrupt() throws {
        let bytes = try #require(Self.envelopes[0].encoded())
        #expect(throws: CacheEnvelope.ReadError.corrupt("1 bytes follow the image data")) {
            try CacheEnvelope.decode(bytes + Data([0]))
        }
    }

    @Test func foreignBytesAreCorrupt() {
        #expect(throws: CacheEnvelope.ReadError.self) { try CacheEnvelope.decode(Data("hello world".utf8)) }
        #expect(throws: CacheEnvelope.ReadError.self) { try CacheEnvelope.decode(Data([0x89, 0x50, 0x4E, 0x47])) }
    }

    @Test func aNewerVersionIsNotCorrupt() throws {
        var bytes = try #require(Self.envelopes[0].encoded())
        bytes[5] = 2
        #expect(throws: CacheEnvelope.ReadError.newerVersion(2)) { try CacheEnvelope.decode(bytes) }
    }

    @Test func hugeDeclaredLengthsAreRefusedNotRead() throws {
        var bytes = try #require(Self.envelopes[1].encoded())
        // The data length field is the last 4 bytes (the data is empty): claim 4 GiB - 2.
        bytes.replaceSubrange((bytes.count - 4)..<bytes.count, with: [0xFE, 0xFF, 0xFF, 0xFF])
        #expect(throws: CacheEnvelope.ReadError.self) { try CacheEnvelope.decode(bytes) }
    }
}
