import Foundation
import Testing
import WebImageCore
import WebImageTestSupport
@testable import WebImageLoaders

/// The life of one transfer as a value (issue 32): joins, leaves and abandonment in each
/// phase, serving by decode group, and the end without decoding; no curl, no task.
@Suite struct TransferLifecycleTests {
    static let url = URL(string: "https://example.com/a.png")!

    static func requester(_ id: UInt64, options: WebImageOptions = [], progress: Bool = false, resuming: Bool = true, context: WebImageContext = WebImageContext()) -> DownloadRequester {
        let decode = ImageDecodeRequest(url: url, options: options, context: context, defaultCoder: MockImageCoder(name: "mock", magic: [0x4D], format: .png))
        let ignore: ImageLoaderProgressHandler = { @Sendable (_: ImageLoaderEvent) in }
        let handler: ImageLoaderProgressHandler? = progress ? ignore : nil
        var requester = DownloadRequester(
            id: id, deliver: { _ in }, options: options, context: context,
            progress: handler, decode: decode, sharingKey: decode.sharingKey
        )
        requester.deliversByResuming = resuming
        return requester
    }

    @Test func theLastRequesterLeavingStopsTheTransferAsItsPhaseNeeds() {
        var queued = TransferLifecycle()
        _ = queued.join(Self.requester(1))
        _ = queued.join(Self.requester(2))
        let first = queued.leave(id: 1)
        #expect(first?.stop == nil)
        let last = queued.leave(id: 2)
        #expect(last?.stop == .dequeue && last?.remaining == 0 && queued.phase == .finished && queued.isAbandoned)
        let late = queued.join(Self.requester(3))
        #expect(late == nil, "an abandoned transfer takes no requester")
        let starts = queued.beginStarting()
        #expect(!starts)

        var starting = TransferLifecycle()
        _ = starting.join(Self.requester(1))
        let began = starting.beginStarting()
        let whileStarting = starting.leave(id: 1)
        let cancelNow = starting.started()
        #expect(began && whileStarting?.stop == .cancelOnceStarted)
        #expect(cancelNow, "the exchange is cancelled as soon as it exists")

        var running = TransferLifecycle()
        _ = running.join(Self.requester(1))
        _ = running.beginStarting()
        let cancelAtStart = running.started()
        let leave = running.leave(id: 1)
        let again = running.leave(id: 1)
        let abandoned = running.exchangesEnded()
        #expect(!cancelAtStart && leave?.stop == .cancelExchange && leave?.phase == .running)
        #expect(again == nil, "a requester leaves once")
        #expect(abandoned && running.phase == .finished, "the end of an abandoned transfer serves nobody")
    }

    @Test func onceProcessingALeaveAbandonsNothingAndANewcomerIsServed() {
        var lifecycle = TransferLifecycle()
        _ = lifecycle.join(Self.requester(1))
        _ = lifecycle.beginStarting()
        _ = lifecycle.started()
        let abandoned = lifecycle.exchangesEnded()
        #expect(!abandoned && lifecycle.phase == .processing)
        let leave = lifecycle.leave(id: 1)
        let count = lifecycle.join(Self.requester(2))
        let next = lifecycle.nextToServe()
        #expect(leave?.stop == nil && count == 1 && next?.id == 2)
    }

    @Test func requestersAreServedOldestFirstOneDecodePerGroup() {
        var lifecycle = TransferLifecycle()
        var thumbnail = WebImageContext()
        thumbnail.imageThumbnailPixelSize = PixelSize(width: 10, height: 10)
        _ = lifecycle.join(Self.requester(3))
        _ = lifecycle.join(Self.requester(1, context: thumbnail))
        _ = lifecycle.join(Self.requester(2))
        _ = lifecycle.exchangesEnded()
        guard let first = lifecycle.nextToServe() else { Issue.record("a requester to serve"); return }
        let firstServed = lifecycle.takeServed(by: first)
        guard let second = lifecycle.nextToServe() else { Issue.record("a second requester"); return }
        let secondServed = lifecycle.takeServed(by: second)
        let none = lifecycle.nextToServe()
        let late = lifecycle.join(Self.requester(4))
        #expect(first.id == 1 && firstServed.map(\.id) == [1])
        #expect(second.id == 2 && secondServed.map(\.id) == [2, 3], "equal decode settings share one decode")
        #expect(none == nil && lifecycle.phase == .finished && late == nil)
    }

    @Test func cancelAllTakesEveryRequesterInAnyPhase() {
        var lifecycle = TransferLifecycle()
        _ = lifecycle.join(Self.requester(1))
        _ = lifecycle.join(Self.requester(2))
        let (cancelled, stop) = lifecycle.cancelAll()
        #expect(cancelled.map(\.id) == [1, 2] && stop == .dequeue)
        var processing = TransferLifecycle()
        _ = processing.join(Self.requester(1))
        _ = processing.exchangesEnded()
        let (served, none) = processing.cancelAll()
        let late = processing.join(Self.requester(2))
        #expect(served.count == 1 && none == nil && late == nil)
    }

    @Test func progressHandlersAndPartialImages() {
        var lifecycle = TransferLifecycle()
        _ = lifecycle.join(Self.requester(1))
        #expect(lifecycle.progressHandlers().isEmpty && !lifecycle.wantsPartialImages)
        _ = lifecycle.join(Self.requester(2, progress: true))
        _ = lifecycle.join(Self.requester(3, options: .progressiveLoad, progress: true))
        #expect(lifecycle.progressHandlers().count == 2 && lifecycle.progressHandlers(partialImagesOnly: true).count == 1)
        #expect(lifecycle.wantsPartialImages && lifecycle.firstPartialImageRequester?.id == 3)
    }

    @Test func theEndWithoutDecodingTakesOnlyAsyncCallersThatDecodeNothing() {
        var decoding = TransferLifecycle()
        _ = decoding.join(Self.requester(1))
        let decodes = decoding.finishIfNoneDecodes()
        #expect(decodes == nil && decoding.phase == .queued)
        var rawData = TransferLifecycle()
        _ = rawData.join(Self.requester(2, options: .avoidDecodeImage))
        _ = rawData.join(Self.requester(1, options: .avoidDecodeImage))
        let raw = rawData.finishIfNoneDecodes()
        #expect(raw?.map(\.id) == [1, 2] && rawData.phase == .finished)
        var completion = TransferLifecycle()
        _ = completion.join(Self.requester(1, options: .avoidDecodeImage, resuming: false))
        let handlers = completion.finishIfNoneDecodes()
        #expect(handlers == nil)
    }
}
