import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
import WebImageLoopbackServer
@testable import WebImageServer

/// The memory budget on its own: reservations, refusals, waits, cancellation, claims.
@Suite struct MemoryBudgetTests {
    @Test func reservesAndReleases() throws {
        let budget = MemoryBudget(limit: 1000, fixedBytes: 400)
        #expect(budget.decodeCapacity == 600)
        let first = try budget.reserve(250, for: "a")
        let second = try budget.reserve(350, for: "b")
        #expect(budget.usage.reservedBytes == 600)
        #expect(budget.usage.reservations == 2)
        first.release()
        first.release()
        #expect(budget.usage.reservedBytes == 350)
        second.release()
        #expect(budget.usage == MemoryBudget.Usage(reservedBytes: 0, peakReservedBytes: 600, waits: 0, refusals: 0, reservations: 0))
    }

    @Test func aDecodeLargerThanTheBudgetIsRefusedAtOnce() {
        let budget = MemoryBudget(limit: 1000, fixedBytes: 400)
        #expect {
            _ = try budget.reserve(601, for: "PNG image of 20x20")
        } throws: { error in
            guard let error = error as? WebImageError else { return false }
            return error.code == .imageTooLarge && error.message.contains("PNG image of 20x20") && error.message.contains("memory budget")
                && !(error.underlyingError is MemoryBudget.Exhausted)
        }
        #expect(budget.usage.refusals == 1)
        #expect(budget.usage.waits == 0)
    }

    @Test func aDecodeThatWaitsTooLongIsRefusedAsExhausted() throws {
        let budget = MemoryBudget(limit: 100, fixedBytes: 0, maximumWait: .milliseconds(20))
        let held = try budget.reserve(80, for: "a")
        #expect {
            _ = try budget.reserve(40, for: "b")
        } throws: { error in
            guard let error = error as? WebImageError, let exhausted = error.underlyingError as? MemoryBudget.Exhausted else { return false }
            return error.code == .imageTooLarge && exhausted.requestedBytes == 40 && exhausted.reservedBytes == 80 && exhausted.capacity == 100
        }
        #expect(budget.usage.waits == 1)
        #expect(budget.usage.refusals == 1)
        held.release()
        #expect(budget.usage.reservedBytes == 0)
    }

    @Test func aWaitingDecodeGoesOnWhenRoomIsReleased() async throws {
        let budget = MemoryBudget(limit: 100, fixedBytes: 0, maximumWait: .seconds(600))
        let held = try budget.reserve(80, for: "a")
        let waiting = AsyncGate()
        budget.waitStarted.withLock { $0 = { Task { await waiting.wait() } } }
        let executor = BlockingWorkExecutor(name: "MemoryBudgetTests", width: 1)
        let second = Task { try await executor.run { try budget.reserve(40, for: "b").bytes } }
        await waiting.waitForArrivals(1)
        #expect(budget.usage.reservedBytes == 80)
        held.release()
        #expect(try await second.value == 40)
        #expect(budget.usage.reservedBytes == 40)
        #expect(budget.usage.waits == 1)
        waiting.open()
    }

    @Test func aWaitingDecodeStopsWhenItsJobIsCancelled() async throws {
        let budget = MemoryBudget(limit: 100, fixedBytes: 0, maximumWait: .seconds(600))
        let held = try budget.reserve(100, for: "a")
        let waiting = AsyncGate()
        budget.waitStarted.withLock { $0 = { Task { await waiting.wait() } } }
        let executor = BlockingWorkExecutor(name: "MemoryBudgetTests", width: 1)
        let second = Task { try await executor.run { () throws -> Int in
            do {
                return try budget.reserve(10, for: "b").bytes
            } catch let error as WebImageError where error.code == .cancelled {
                return -1
            }
        } }
        await waiting.waitForArrivals(1)
        second.cancel()
        // The executor reports the cancellation, or the job's own answer when it ran to its end.
        let outcome = try? await second.value
        #expect(outcome == nil || outcome == -1)
        #expect(budget.usage.reservedBytes == 100)
        held.release()
        waiting.open()
    }

    @Test func aHeldReservationEndsWithItsImagesRender() throws {
        let budget = MemoryBudget(limit: 1000, fixedBytes: 0)
        let image = WebImage(bitmap: TestImages.gradient(width: 4, height: 4))
        let copy = image
        budget.hold(try budget.reserve(64, for: "a"), until: image)
        #expect(budget.usage.reservedBytes == 64)
        budget.releaseDecode(of: WebImage(bitmap: TestImages.gradient(width: 4, height: 4)))
        #expect(budget.usage.reservedBytes == 64)
        budget.releaseDecode(of: copy)
        #expect(budget.usage.reservedBytes == 0)
        budget.releaseDecode(of: image)
        #expect(budget.usage.reservations == 0)
    }

    @Test func anUnclaimedReservationExpires() throws {
        let budget = MemoryBudget(limit: 100, fixedBytes: 0, maximumWait: .zero, unclaimedLifetime: .zero)
        budget.hold(try budget.reserve(100, for: "lost"), until: WebImage(bitmap: TestImages.gradient(width: 2, height: 2)))
        // The next reservation sweeps the lost one away instead of waiting for it.
        let next = try budget.reserve(100, for: "next")
        #expect(budget.usage.reservedBytes == 100)
        next.release()
        #expect(budget.usage.reservedBytes == 0)
    }

    @Test func decodedBytesComeFromTheHeaders() {
        var properties = ImageProperties(format: .gif, pixelSize: PixelSize(width: 10, height: 20), frameCount: 3, hasAlpha: false)
        var options = ImageDecodeOptions()
        #expect(MemoryBudgetedCoder.decodedBytes(properties, options: options) == 10 * 20 * 4 * 3)
        options.firstFrameOnly = true
        #expect(MemoryBudgetedCoder.decodedBytes(properties, options: options) == 10 * 20 * 4)
        options.maxPixelCount = 199
        #expect(MemoryBudgetedCoder.decodedBytes(properties, options: options) == nil)
        properties.pixelSize = PixelSize(width: Int.max, height: 2)
        #expect(MemoryBudgetedCoder.decodedBytes(properties, options: ImageDecodeOptions()) == nil)
    }

    /// Shrink-on-load's reduced JPEG decodes reserve what they allocate, not the full size.
    @Test func aReducedJPEGDecodeReservesItsReducedSize() throws {
        var properties = ImageProperties(format: .jpeg, pixelSize: PixelSize(width: 3000, height: 2000), hasAlpha: false)
        var options = ImageDecodeOptions()
        #expect(MemoryBudgetedCoder.decodedBytes(properties, options: options) == 3000 * 2000 * 4)
        // The DCT scale 2/8 is exactly the thumbnail: one bitmap of 750x500.
        options.thumbnailPixelSize = PixelSize(width: 750, height: 500)
        options.preserveAspectRatio = false
        #expect(MemoryBudgetedCoder.decodedBytes(properties, options: options) == 750 * 500 * 4)
        // 700x467 is covered by 2/8 (750x500), then resized: both bitmaps.
        options.thumbnailPixelSize = PixelSize(width: 700, height: 467)
        #expect(MemoryBudgetedCoder.decodedBytes(properties, options: options) == 750 * 500 * 4 + 700 * 467 * 4)
        // Rotated (EXIF 6): the upright 500x750 thumbnail is 750x500 stored.
        properties.orientation = 6
        options.thumbnailPixelSize = PixelSize(width: 500, height: 750)
        #expect(MemoryBudgetedCoder.decodedBytes(properties, options: options) == 750 * 500 * 4)
        // Other formats reserve their full size whatever the options.
        let png = ImageProperties(format: .png, pixelSize: PixelSize(width: 3000, height: 2000), hasAlpha: false)
        #expect(MemoryBudgetedCoder.decodedBytes(png, options: options) == 3000 * 2000 * 4)
    }

    @Test func aShrinkOnLoadDecodeHoldsItsReducedBytes() throws {
        // A 1600x1200 JPEG decoded at 1/8 (200x150) under a budget too small for the full size.
        let data = try JPEGCoder().encode(WebImage(bitmap: TestImages.gradient(width: 1600, height: 1200)), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.8))
        let budget = MemoryBudget(limit: 1600 * 1200 * 4 - 1, fixedBytes: 0)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 200, height: 150)
        options.preserveAspectRatio = false
        let image = try budget.budgeting(ServingFixture.coders).decode(data, options: options)
        #expect(image.pixelSize == PixelSize(width: 200, height: 150))
        #expect(budget.usage.reservedBytes == 200 * 150 * 4)
        budget.releaseDecode(of: image)
        #expect(budget.usage.reservedBytes == 0)
    }

    /// A shrink-on-load decode reads the source's headers once: the memory budget inside it
    /// reserves from the headers the shrink-on-load coder read (SourceHeadersKey).
    @Test func aShrinkOnLoadDecodeReadsTheHeadersOnce() throws {
        let data = try JPEGCoder().encode(WebImage(bitmap: TestImages.gradient(width: 1600, height: 1200)), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.8))
        let budget = MemoryBudget(limit: 1600 * 1200 * 4 - 1, fixedBytes: 0)
        let counting = HeaderCountingCoder()
        let request = try ThumborURLParser.parse("/unsafe/fit-in/200x150/a.jpg")
        let coder = ShrinkOnLoadCoder(base: budget.budgeting(counting), plan: { request.plan(sourceSize: $0) })
        let image = try coder.decode(data, options: ImageDecodeOptions())
        #expect(image.pixelSize == PixelSize(width: 200, height: 150))
        #expect(counting.reads.withLock { $0 } == 1)
        #expect(budget.usage.reservedBytes == 200 * 150 * 4)
        budget.releaseDecode(of: image)
        // Alone, the budgeted coder reads them itself.
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 200, height: 150)
        _ = try budget.budgeting(counting).decode(data, options: options)
        #expect(counting.reads.withLock { $0 } == 2)
    }

    @Test func theBudgetedCoderReservesBeforeItDecodes() throws {
        let budget = MemoryBudget(limit: 64 * 48 * 4, fixedBytes: 0)
        let coder = budget.budgeting(ServingFixture.coders)
        let image = try coder.decode(ServingFixture.jpeg(), options: ImageDecodeOptions())
        #expect(budget.usage.reservedBytes == 64 * 48 * 4)
        // Full: the next decode of another image does not fit, and is refused (no wait allowed).
        let small = MemoryBudget(limit: 100, fixedBytes: 0)
        #expect(throws: WebImageError.self) { try small.budgeting(ServingFixture.coders).decode(ServingFixture.jpeg(), options: ImageDecodeOptions()) }
        #expect(small.usage.reservedBytes == 0)
        budget.releaseDecode(of: image)
        #expect(budget.usage.reservedBytes == 0)
        // A decode that fails gives its reservation back.
        let failing = budget.budgeting(HeaderOnlyCoder())
        #expect(throws: WebImageError.self) { try failing.decode(Data([1, 2, 3]), options: ImageDecodeOptions()) }
        #expect(budget.usage.reservedBytes == 0)
        #expect(budget.usage.peakReservedBytes == 64 * 48 * 4)
    }
}

/// Reads a 10x10 header from any data, and fails every decode.
private struct HeaderOnlyCoder: ImageHeaderReader {
    func canDecode(_ data: Data) -> Bool { true }
    func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        throw WebImageError(.badImageData, "never decodes")
    }
    func canEncode(to format: ImageFormat) -> Bool { false }
    func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw WebImageError(.unsupportedFormat, "never encodes")
    }
    func readProperties(of data: Data) throws -> ImageProperties {
        ImageProperties(format: .png, pixelSize: PixelSize(width: 10, height: 10), hasAlpha: true)
    }
}

/// JPEGCoder, counting the header reads.
private final class HeaderCountingCoder: ImageHeaderReader, Sendable {
    let reads = Locked(0)
    func canDecode(_ data: Data) -> Bool { JPEGCoder().canDecode(data) }
    func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        try JPEGCoder().decode(data, options: options)
    }
    func canEncode(to format: ImageFormat) -> Bool { false }
    func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw WebImageError(.unsupportedFormat, "never encodes")
    }
    func readProperties(of data: Data) throws -> ImageProperties {
        reads.withLock { $0 += 1 }
        return try JPEGCoder().readProperties(of: data)
    }
}
