import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageServer

/// Issue 34's byte sizes against thumbor 7.8's recorded answers
/// (`Tests/Fixtures/thumbor/cases/bytes.txt`): JPEG no more than 2% larger than thumbor's, PNG
/// no larger, and `max_bytes(N)` met whenever thumbor meets it, with thumbor's search.
@Suite struct ThumborBytesTests {
    /// The `N` of a case's `max_bytes(N)`.
    static func limit(of reference: ThumborReference.Case) -> Int? {
        guard let range = reference.path.range(of: #"max_bytes\((\d+)\)"#, options: .regularExpression) else { return nil }
        return Int(reference.path[range].dropFirst("max_bytes(".count).dropLast())
    }

    static let plainCases = ThumborReference.cases("bytes-jpeg-") + ThumborReference.cases("bytes-png-")
    static let limitCases = ThumborReference.cases("bytes-max-")

    @Test func theRecordedReferenceIsPresent() {
        #expect(Self.plainCases.count >= 9 && Self.limitCases.count >= 20, "Tests/Fixtures/thumbor/expected/manifest.json has the bytes cases")
    }

    @Test(arguments: plainCases)
    func noLargerThanThumbors(_ reference: ThumborReference.Case) async throws {
        let fixture = try ThumborReference.makeFixture()
        try await ThumborReference.expectAgreement(reference, with: fixture, minimumPSNR: 30)
        let outcome = await ThumborReference.serve(reference, with: fixture)
        let allowance = reference.type == "image/jpeg" ? 1.02 : 1.0
        #expect(Double(outcome.body.count) <= Double(reference.bytes) * allowance,
                "\(reference.path): \(outcome.body.count) bytes, thumbor's \(reference.bytes)")
    }

    @Test(arguments: limitCases)
    func meetsTheLimitWheneverThumborDoes(_ reference: ThumborReference.Case) async throws {
        let limit = try #require(Self.limit(of: reference))
        let fixture = try ThumborReference.makeFixture()
        try await ThumborReference.expectAgreement(reference, with: fixture, minimumPSNR: 20)
        let outcome = await ThumborReference.serve(reference, with: fixture)
        let unlimited = await fixture.get(path: "/unsafe/" + reference.path.replacingOccurrences(of: "max_bytes(\(limit))", with: "max_bytes(0)"))
        #expect(unlimited.status == 200)
        if reference.type == "image/png" {
            // thumbor applies the limit to JPEG and WebP only.
            #expect(outcome.body == unlimited.body, "\(reference.path): PNG output ignores max_bytes")
        } else if reference.bytes <= limit {
            #expect(outcome.body.count <= limit, "\(reference.path): \(outcome.body.count) bytes; thumbor met the limit with \(reference.bytes)")
        } else {
            // thumbor found no quality of 10 or more that fits and kept its first encoding: ours
            // fits, or keeps its first encoding too.
            #expect(outcome.body.count <= limit || outcome.body == unlimited.body,
                    "\(reference.path): \(outcome.body.count) bytes, neither within the limit nor the first encoding (\(unlimited.body.count))")
        }
    }

    @Test func theQualitiesThumborTries() {
        #expect(ThumborMaxBytes.lowerQualities(after: 80) == [60, 45, 33, 24, 18, 13])
        #expect(ThumborMaxBytes.lowerQualities(after: 95) == [71, 53, 39, 29, 21, 15, 11])
        #expect(ThumborMaxBytes.lowerQualities(after: 13) == [])
        #expect(ThumborMaxBytes.lowerQualities(after: 14) == [10])
    }

    @Test func theSearchKeepsTheFirstEncodingThatFits() throws {
        let tried = Locked<[Int]>([])
        let sizes = [80: 1000, 60: 800, 45: 600, 33: 500]
        let data = try ThumborMaxBytes.fit(700, quality: 80) { quality in
            tried.withLock { $0.append(quality) }
            return Data(count: sizes[quality] ?? 100)
        }
        #expect(data.count == 600)
        #expect(tried.withLock { $0 } == [80, 60, 45])
    }

    @Test func theSearchKeepsTheFirstEncodingWhenNothingFits() throws {
        let tried = Locked<[Int]>([])
        let data = try ThumborMaxBytes.fit(10, quality: 80) { quality in
            tried.withLock { $0.append(quality) }
            return Data(repeating: UInt8(quality), count: 100 + quality)
        }
        #expect(data == Data(repeating: 80, count: 180))
        #expect(tried.withLock { $0 } == [80, 60, 45, 33, 24, 18, 13])
    }

    @Test func anEncodingThatFitsIsNotSearched() throws {
        let tried = Locked<[Int]>([])
        _ = try ThumborMaxBytes.fit(1000, quality: 80) { quality in
            tried.withLock { $0.append(quality) }
            return Data(count: 1000)
        }
        #expect(tried.withLock { $0 } == [80])
    }

    @Test func theLastLimitCounts() {
        #expect(ThumborMaxBytes.limit(in: [.maxBytes(500), .quality(20), .maxBytes(900)]) == 900)
        #expect(ThumborMaxBytes.limit(in: [.quality(20)]) == nil)
    }

    /// The first marker of a JPEG's frame: SOF0 (baseline) or SOF2 (progressive).
    static func frameMarker(_ data: Data) -> UInt8? {
        let bytes = [UInt8](data)
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC { return marker }
            index += 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
        }
        return nil
    }

    @Test(arguments: [
        (ProgressiveJPEGMode.on, "96x64/photo.jpg", UInt8(0xC2)),
        (.off, "400x300/photo.jpg", 0xC0),
        (.automatic, "96x64/photo.jpg", 0xC0),
        (.automatic, "400x300/photo.jpg", 0xC2),
        (.automatic, "96x64/filters:quality(99)/photo.jpg", 0xC2),
        (.automatic, "400x300/filters:quality(40)/photo.jpg", 0xC0),
    ])
    func progressiveJPEGFollowsTheSetting(_ mode: ProgressiveJPEGMode, _ path: String, _ marker: UInt8) async throws {
        let fixture = try ThumborReference.makeFixture { $0.progressiveJPEG = mode }
        let response = await fixture.get(path: "/unsafe/" + path)
        #expect(response.status == 200)
        #expect(Self.frameMarker(response.body) == marker, "\(mode) \(path)")
    }

    @Test func theDefaultIsAutomatic() {
        #expect(ImageServerConfiguration().progressiveJPEG == .automatic)
    }

    @Test func theAutomaticThreshold() {
        #expect(ProgressiveJPEGMode.progressiveThreshold(quality: 80) == 30_000)
        #expect(ProgressiveJPEGMode.progressiveThreshold(quality: 95) < 8_000)
        #expect(ProgressiveJPEGMode.progressiveThreshold(quality: 50) > 500_000)
        #expect(ProgressiveJPEGMode.automatic.isProgressive(pixelCount: 200 * 150, quality: 80))
        #expect(!ProgressiveJPEGMode.automatic.isProgressive(pixelCount: 160 * 120, quality: 80))
        #expect(ProgressiveJPEGMode.on.isProgressive(pixelCount: 1, quality: 10))
        #expect(!ProgressiveJPEGMode.off.isProgressive(pixelCount: 10_000_000, quality: 100))
    }

    /// Progressive or baseline, the pixels are the same (only the JPEG's scans differ).
    @Test func progressiveAndBaselineResultsDecodeAlike() async throws {
        let progressive = try ThumborReference.makeFixture { $0.progressiveJPEG = .on }
        let baseline = try ThumborReference.makeFixture { $0.progressiveJPEG = .off }
        let a = try ServingFixture.decode(await progressive.get(path: "/unsafe/200x150/photo.jpg"))
        let b = try ServingFixture.decode(await baseline.get(path: "/unsafe/200x150/photo.jpg"))
        #expect(a.bitmap == b.bitmap)
    }
}
