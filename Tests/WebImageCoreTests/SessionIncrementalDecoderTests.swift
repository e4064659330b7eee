import Foundation
import Testing
import WebImageCore

/// The incremental-decoder shell the WebP and JPEG XL plug-ins share (issue 32).
@Suite struct SessionIncrementalDecoderTests {
    static func image(_ width: Int) -> WebImage {
        WebImage(bitmap: try! Bitmap(width: width, height: 1, fill: RGBAColor(red: 1, green: 2, blue: 3, alpha: 255), hasAlpha: false), metadata: [.decoded, .incremental])
    }

    @Test func partialImagesKeepTheSessionAndTheSameDataGivesTheSameImage() throws {
        let calls = Locked<[Int]>([])
        let decoder = SessionIncrementalDecoder<Int>(options: ImageDecodeOptions(), decodeAll: { data, _ in
            WebImage(bitmap: try Bitmap(width: data.count, height: 1, fill: .white, hasAlpha: false))
        }, partial: { data, session, last in
            session = (session ?? 0) + 1
            calls.withLock { $0.append(session!) }
            if data.count == 3 { return nil }   // nothing new: the last image stays
            return Self.image(data.count + (last == nil ? 0 : 100))
        })
        decoder.update(data: Data(count: 2), finished: false)
        let first = try #require(decoder.currentImage())
        #expect(first.pixelSize.width == 2)
        #expect(decoder.currentImage()?.pixelSize == first.pixelSize, "same data: no new call")
        decoder.update(data: Data(count: 3), finished: false)
        #expect(decoder.currentImage()?.pixelSize.width == 2, "nothing new: the last image")
        decoder.update(data: Data(count: 5), finished: false)
        #expect(decoder.currentImage()?.pixelSize.width == 105, "the last image is passed along")
        #expect(calls.withLock { $0 } == [1, 2, 3], "one session, one call per new data")
        decoder.update(data: Data(count: 9), finished: true)
        let whole = try #require(decoder.currentImage())
        #expect(whole.pixelSize.width == 9 && !whole.metadata.contains(.incremental))
    }

    @Test func aFailureEndsThePartialImagesAndShorterDataStartsOver() throws {
        let sessions = Locked<[Int?]>([])
        let decoder = SessionIncrementalDecoder<Int>(options: ImageDecodeOptions(), decodeAll: { _, _ in
            throw WebImageError(.badImageData, "corrupt")
        }, partial: { data, session, _ in
            sessions.withLock { $0.append(session) }
            session = data.count
            if data.count == 4 { throw WebImageError(.badImageData, "corrupt") }
            return Self.image(data.count)
        })
        decoder.update(data: Data(count: 2), finished: false)
        #expect(decoder.currentImage()?.pixelSize.width == 2)
        decoder.update(data: Data(count: 4), finished: false)
        #expect(decoder.currentImage()?.pixelSize.width == 2, "the last good image")
        decoder.update(data: Data(count: 6), finished: false)
        #expect(decoder.currentImage()?.pixelSize.width == 2, "no partial image after a failure")
        decoder.update(data: Data(count: 8), finished: true)
        #expect(decoder.currentImage()?.pixelSize.width == 2, "a failed whole decode keeps the last image")
        // Another download (shorter data): a fresh start, a fresh session.
        decoder.update(data: Data(count: 1), finished: false)
        #expect(decoder.currentImage()?.pixelSize.width == 1)
        #expect(sessions.withLock { $0 } == [nil, 2, nil])
    }
}
