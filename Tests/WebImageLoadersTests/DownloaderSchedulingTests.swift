import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

/// Concurrency limit, FIFO / LIFO, priorities, suspension.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct DownloaderSchedulingTests {
    let server: LoopbackHTTPServer
    let gate = AsyncGate()

    init() throws {
        server = try LoopbackHTTPServer()
        server.route("/held", .delayedHeaders(until: gate, then: .data(Fixtures.wiraw(), contentType: Fixtures.wirawType)))
        server.route("/order", .data(Fixtures.wiraw(), contentType: Fixtures.wirawType))
    }

    @Test func maxConcurrentDownloadsBoundsWhatTheServerSees() async throws {
        defer { server.stop() }
        let (downloader, events) = Fixtures.downloader { $0.maxConcurrentDownloads = 2 }
        let urls = (0..<6).map { server.url(for: "/held?n=\($0)") }
        let tasks = urls.map { Fixtures.request(downloader, $0) }
        await events.wait(for: .queued, count: 6)
        await gate.waitForArrivals(2)
        #expect(downloader.runningDownloadCount == 2)
        #expect(downloader.currentDownloadCount == 6)
        #expect(server.statistics(for: "/held").activeCount == 2)
        gate.open()
        for task in tasks { _ = try await task.value }
        let statistics = server.statistics(for: "/held")
        #expect(statistics.requestCount == 6)
        #expect(statistics.maxActiveCount == 2)
    }

    @Test func raisingTheLimitStartsQueuedDownloads() async throws {
        defer { server.stop() }
        let (downloader, events) = Fixtures.downloader { $0.maxConcurrentDownloads = 1 }
        // Past URLSession's own default of 6 connections per host.
        let tasks = (0..<8).map { Fixtures.request(downloader, server.url(for: "/held?n=\($0)")) }
        await events.wait(for: .queued, count: 8)
        await gate.waitForArrivals(1)
        #expect(downloader.runningDownloadCount == 1)
        downloader.maxConcurrentDownloads = 8
        await gate.waitForArrivals(8)
        #expect(server.statistics(for: "/held").activeCount == 8)
        gate.open()
        for task in tasks { _ = try await task.value }
    }

    /// Queues A, B, C (in that order, one at a time, through the async API) on a suspended
    /// downloader with one slot, resumes it, and returns the order in which the server saw them.
    private func serverOrder(_ order: DownloaderConfiguration.ExecutionOrder, options: [String: WebImageOptions] = [:]) async throws -> [String] {
        let (downloader, events) = Fixtures.downloader {
            $0.maxConcurrentDownloads = 1
            $0.executionOrder = order
        }
        downloader.isSuspended = true
        let names = ["A", "B", "C"]
        var tasks: [Task<ImageLoaderResult, any Error>] = []
        for name in names {
            tasks.append(Fixtures.request(downloader, server.url(for: "/order?\(name)"), options: options[name] ?? []))
            await events.wait(for: .queued, count: tasks.count)
        }
        #expect(server.totalRequestCount == 0)
        #expect(downloader.runningDownloadCount == 0)
        downloader.isSuspended = false
        for task in tasks { _ = try await task.value }
        return server.requests.map { String($0.target.split(separator: "?").last ?? "") }
    }

    @Test func fifoStartsTheOldestFirst() async throws {
        defer { server.stop() }
        #expect(try await serverOrder(.fifo) == ["A", "B", "C"])
    }

    @Test func lifoStartsTheNewestFirst() async throws {
        defer { server.stop() }
        #expect(try await serverOrder(.lifo) == ["C", "B", "A"])
    }

    /// Thirty queued downloads in three priority classes, some of each class cancelled while
    /// queued (the first two and the last among them): each class in order, the high one first
    /// and the low one last.
    ///
    /// Thirty, not the two hundred of the scheduler's first version of this test: the order
    /// comes from the scheduler's per-class queues, which thirty entries exercise as well
    /// (interleaved classes, removals from the front, the middle and the back); the long-queue
    /// mechanics of the queue itself (compaction after many takes, removal after it) are
    /// FIFOQueueTests'. And registered through the completion-handler API, which queues each
    /// request before it returns: in order with no await between two requests, and no task to
    /// resume per download. Queued one task at a time through the async API (as the
    /// three-request tests above do), each request cost the test a few sequential awaits, and
    /// at the start of a loaded full run, when each await waits seconds for a pool thread, that
    /// reached the time limit.
    @Test(arguments: [DownloaderConfiguration.ExecutionOrder.fifo, .lifo])
    func aLongQueueKeepsItsOrder(order: DownloaderConfiguration.ExecutionOrder) async throws {
        defer { server.stop() }
        let names = (0..<30).map { "n\($0)" }
        var options: [String: WebImageOptions] = [:]
        for (index, name) in names.enumerated() {
            if index % 7 == 3 { options[name] = .highPriority } else if index % 5 == 1 { options[name] = .lowPriority }
        }
        // Cancelled: n2, n18, n29 and n0 (normal), n10 (high), n1 and n26 (low).
        let cancelled = Set(names.enumerated().filter { $0.offset % 8 == 2 || $0.offset < 2 || $0.offset == names.count - 1 }.map(\.element))
        for option in [WebImageOptions.highPriority, .lowPriority] {
            #expect(names.contains { cancelled.contains($0) && options[$0] == option } && names.contains { !cancelled.contains($0) && options[$0] == option })
        }
        let kept = names.filter { !cancelled.contains($0) }
        func inClass(_ option: WebImageOptions?) -> [String] {
            let members = kept.filter { options[$0] == option }
            return order == .fifo ? members : members.reversed()
        }

        let (downloader, events) = Fixtures.downloader {
            $0.maxConcurrentDownloads = 1
            $0.executionOrder = order
        }
        downloader.isSuspended = true
        let completions = CompletionRecorder()
        var operations: [String: ImageOperation] = [:]
        for name in names {
            operations[name] = downloader.requestImage(with: server.url(for: "/order?\(name)"), options: options[name] ?? [], completion: completions.handler(name))
        }
        await events.wait(for: .queued, count: names.count)
        #expect(server.totalRequestCount == 0)
        #expect(downloader.runningDownloadCount == 0)
        for name in names where cancelled.contains(name) { operations[name]?.cancel() }
        await completions.wait(count: cancelled.count)
        #expect(Set(completions.labels) == cancelled, "the cancelled requests end first, while the downloader is suspended")
        for (label, result) in zip(completions.labels, completions.results) {
            guard case .failure(let error) = result else {
                Issue.record("\(label) was cancelled while queued, yet succeeded")
                continue
            }
            #expect((error as? WebImageError)?.code == .cancelled, "\(label): \(error)")
        }
        downloader.isSuspended = false
        await completions.wait(count: names.count)
        for (label, result) in zip(completions.labels, completions.results) where !cancelled.contains(label) {
            #expect(throws: Never.self, "\(label)") { try result.get() }
        }
        let seen = server.requests.map { String($0.target.split(separator: "?").last ?? "") }
        #expect(seen == inClass(.highPriority) + inClass(nil) + inClass(.lowPriority))
    }

    @Test func highPriorityJumpsTheQueueAndLowPriorityWaits() async throws {
        defer { server.stop() }
        #expect(try await serverOrder(.fifo, options: ["A": .lowPriority, "C": .highPriority]) == ["C", "B", "A"])
    }

    @Test func suspendedDownloaderSendsNothingUntilResumed() async throws {
        defer { server.stop() }
        let (downloader, events) = Fixtures.downloader()
        downloader.isSuspended = true
        #expect(downloader.isSuspended)
        let url = server.url(for: "/order?suspended")
        let task = Fixtures.request(downloader, url)
        await events.wait(for: .queued, url: url)
        #expect(downloader.currentDownloadCount == 1)
        #expect(downloader.runningDownloadCount == 0)
        #expect(!events.kinds(for: url).contains(.started))
        downloader.isSuspended = false
        _ = try await task.value
        #expect(server.statistics(for: "/order").requestCount == 1)
    }

    /// One slot, A then B: B's download starts only after A's completion has run, so B's
    /// completion never comes first. A's decode waits for B's completion if B has started
    /// already (a slot freed before A's completion): then the wrong order shows every time.
    @Test func aSlotIsFreedOnlyAfterTheCompletionHasRun() async throws {
        defer { server.stop() }
        let (downloader, events) = Fixtures.downloader { $0.maxConcurrentDownloads = 1 }
        let log = CallRecorder<String>()
        downloader.addObserver { event in
            if case .started(let url, _) = event { log.record("started \(url.query ?? "")") }
        }
        let bCompleted = DispatchSemaphore(value: 0)
        let coder = HoldingCoder {
            if log.all.contains("started B") { _ = bCompleted.wait(timeout: .now() + 10) }  // blocking: only once the order is already wrong (B started first), to show it every time
        }
        var contextA = WebImageContext()
        contextA.imageCoder = coder
        let completions = CompletionRecorder()
        let recordA = completions.handler("A")
        let recordB = completions.handler("B")
        downloader.isSuspended = true
        downloader.requestImage(with: server.url(for: "/order?A"), context: contextA) { result in
            log.record("completed A")
            recordA(result)
        }
        await events.wait(for: .queued, count: 1)
        downloader.requestImage(with: server.url(for: "/order?B"), options: .avoidDecodeImage) { result in
            log.record("completed B")
            recordB(result)
            bCompleted.signal()
        }
        await events.wait(for: .queued, count: 2)
        downloader.isSuspended = false
        await completions.wait(count: 2)
        #expect(completions.labels == ["A", "B"])
        #expect(log.all == ["started A", "completed A", "started B", "completed B"])
        #expect(try completions.results[0].get().image?.pixelSize == PixelSize(width: 16, height: 12))
        #expect(try completions.results[1].get().data == Fixtures.wiraw())
    }
}

/// Decodes WIRAW data after running `beforeDecode` (which may block: decodes run on the
/// processing executor's threads, not on the Swift concurrency pool).
private struct HoldingCoder: ImageCoder {
    let beforeDecode: @Sendable () -> Void
    private let coder = RawBitmapCoder()

    init(_ beforeDecode: @escaping @Sendable () -> Void) {
        self.beforeDecode = beforeDecode
    }

    func canDecode(_ data: Data) -> Bool { coder.canDecode(data) }

    func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        beforeDecode()
        return try coder.decode(data, options: options)
    }

    func canEncode(to format: ImageFormat) -> Bool { false }

    func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw WebImageError(.unsupportedFormat, "HoldingCoder does not encode")
    }
}
