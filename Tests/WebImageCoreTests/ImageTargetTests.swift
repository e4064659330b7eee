import Foundation
import Synchronization
import Testing
import WebImageTestSupport
@testable import WebImageCore

/// A target that records what it was asked to show.
final class RecordingTarget: ImageTarget {
    let shown = CallRecorder<PixelSize?>()
    func display(_ image: WebImage?) { shown.record(image?.pixelSize) }
}

@Suite struct ImageTargetTests {
    let gate = AsyncGate()
    let loader: MockImageLoader
    let manager: ImageManager
    let url = URL(string: "https://example.com/target.png")!
    let placeholder = TestImages.still(width: 1, height: 1)
    let loaded = TestImages.still().pixelSize

    init() {
        loader = MockImageLoader(gate: gate)
        manager = ImageManager(cache: MockImageCache(), loader: loader)
    }

    func load(_ target: RecordingTarget, _ url: URL?, options: WebImageOptions = [], context: WebImageContext = WebImageContext()) async -> Result<ImageLoadResult, WebImageError> {
        await withCheckedContinuation { continuation in
            target.setImage(with: url, placeholder: placeholder, options: options, context: context, manager: manager, completed: {
                continuation.resume(returning: $0)
            })
        }
    }

    @Test func placeholderFirstThenTheImage() async throws {
        gate.open()
        let target = RecordingTarget()
        let result = await load(target, url)
        #expect(try result.get().image?.pixelSize == loaded)
        #expect(target.shown.all == [PixelSize(width: 1, height: 1), loaded])
    }

    @Test func delayPlaceholderShowsItOnlyOnFailure() async throws {
        gate.open()
        let target = RecordingTarget()
        _ = await load(target, url, options: [.delayPlaceholder])
        #expect(target.shown.all == [loaded])
        loader.respond(to: url, with: .failure(WebImageError(.badImageData, "bad")))
        let failed = RecordingTarget()
        let result = await load(failed, url, options: [.delayPlaceholder, .fromLoaderOnly])
        #expect(throws: WebImageError.self) { try result.get() }
        #expect(failed.shown.all == [PixelSize(width: 1, height: 1)])
    }

    @Test func avoidAutoSetImageLeavesTheImageToTheCaller() async throws {
        gate.open()
        let target = RecordingTarget()
        let result = await load(target, url, options: [.avoidAutoSetImage])
        #expect(try result.get().image != nil)
        #expect(target.shown.all == [PixelSize(width: 1, height: 1)])
    }

    @Test func nilURLShowsThePlaceholderAndFailsWithInvalidURL() async throws {
        let target = RecordingTarget()
        let result = await load(target, nil)
        let error = try #require(throws: WebImageError.self) { try result.get() }
        #expect(error.code == .invalidURL)
        #expect(target.shown.all == [PixelSize(width: 1, height: 1)])
        #expect(loader.requestCount == 0)
    }

    @Test func aNewLoadCancelsThePreviousOneForTheSameKey() async throws {
        let target = RecordingTarget()
        let other = URL(string: "https://example.com/other.png")!
        let first = Task { await load(target, url) }
        await gate.waitForArrivals(1)
        #expect(target.loadingImageURL() == url)
        let second = Task { await load(target, other) }
        let firstResult = await first.value
        #expect((try? firstResult.get()) == nil)
        if case .failure(let error) = firstResult { #expect(error.code == .cancelled) }
        await gate.waitForArrivals(2)
        gate.open()
        #expect(try await second.value.get().url == other)
        #expect(target.shown.all.last == loaded)
        while target.loadingImageURL() != nil { await Task.yield() }
    }

    @Test func differentOperationKeysDoNotCancelEachOther() async throws {
        let target = RecordingTarget()
        let avatar = Task { await load(target, url, context: WebImageContext { $0.setImageOperationKey = "avatar" }) }
        let banner = Task { await load(target, URL(string: "https://example.com/banner.png")!, context: WebImageContext { $0.setImageOperationKey = "banner" }) }
        await gate.waitForArrivals(2)
        gate.open()
        #expect(try await avatar.value.get().image != nil)
        #expect(try await banner.value.get().image != nil)
    }

    /// The manager sees the operation key the target tracks its load under: the context's, else
    /// the target's type name (SDWebImage passes `setImageOperationKey` in the context).
    @Test func theOperationKeyReachesTheManager() async throws {
        gate.open()
        let target = RecordingTarget()
        _ = await load(target, url, options: [.fromLoaderOnly])
        _ = await load(target, url, options: [.fromLoaderOnly], context: WebImageContext { $0.setImageOperationKey = "avatar" })
        #expect(loader.calls.all.map(\.context.setImageOperationKey) == ["RecordingTarget", "avatar"])
    }

    @Test func cancelImageLoadCancelsTheRunningLoad() async throws {
        let target = RecordingTarget()
        let running = Task { await load(target, url) }
        await gate.waitForArrivals(1)
        target.cancelImageLoad()
        let result = await running.value
        if case .failure(let error) = result { #expect(error.code == .cancelled) } else { Issue.record("expected cancellation") }
        #expect(target.shown.all == [PixelSize(width: 1, height: 1)], "a cancelled load changes nothing")
        #expect(target.loadingImageURL() == nil)
        gate.open()
    }

    @Test func partialImagesAreShownAsTheyArrive() async throws {
        gate.open()
        loader.sendEvents([.partialImage(TestImages.still(width: 2, height: 2))])
        let target = RecordingTarget()
        _ = await load(target, url, options: [.progressiveLoad])
        #expect(target.shown.all == [PixelSize(width: 1, height: 1), PixelSize(width: 2, height: 2), loaded])
    }
}
