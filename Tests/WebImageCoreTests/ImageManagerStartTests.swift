import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCore

/// The completion-handler API registers its request before it returns: `cancelAll()` and
/// `isRunning` see every request whose start call has returned, run or not.
@Suite struct ImageManagerStartTests {
    /// Ten requests (some sharing work), then `cancelAll()` at once: each completes exactly
    /// once, with a cancellation, though the loader would answer at once. Five rounds.
    @Test func cancelAllCancelsEveryRequestWhoseStartCallReturned() async throws {
        for round in 0..<5 {
            let manager = ImageManager(cache: MockImageCache(), loader: MockImageLoader())
            let outcomes = CallRecorder<(Int, String)>()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let remaining = Countdown(10) { done.resume() }
                for index in 0..<10 {
                    let url = URL(string: "https://example.com/start/\(round)/\(index % 7).png")!
                    manager.loadImage(with: url) { result in
                        switch result {
                        case .success: outcomes.record((index, "image"))
                        case .failure(let error): outcomes.record((index, "\(error.code)"))
                        }
                        remaining.tick()
                    }
                }
                manager.cancelAll()
            }
            let byIndex = Dictionary(grouping: outcomes.all, by: \.0)
            #expect(byIndex.count == 10)
            #expect(byIndex.values.allSatisfy { $0.count == 1 }, "exactly one completion each")
            let escaped = outcomes.all.filter { $0.1 != "cancelled" }.map(\.0).sorted()
            #expect(escaped.isEmpty, "round \(round): requests \(escaped) escaped cancelAll()")
            #expect(!manager.isRunning)
        }
    }

    /// `isRunning` and the coordinator count a request as soon as its start call returns;
    /// cancelling the operation removes it at once. Twenty fresh managers.
    @Test func isRunningAsSoonAsTheStartCallReturns() async throws {
        let url = URL(string: "https://example.com/running.png")!
        for _ in 0..<20 {
            let gate = AsyncGate()
            let manager = ImageManager(cache: MockImageCache(), loader: MockImageLoader(gate: gate))
            let operation = manager.loadImage(with: url, completed: { _ in })
            #expect(manager.isRunning)
            #expect(manager.coordinator.subscriberCount == 1)
            operation.cancel()
            #expect(!manager.isRunning)
            #expect(manager.coordinator.subscriberCount == 0)
            gate.open()
        }
    }

    /// A refused request (nil URL, blocked URL) completes at once, on the caller's thread
    /// with the default queue, and registers nothing.
    @Test func refusedRequestCompletesBeforeTheStartCallReturns() async throws {
        let manager = ImageManager(cache: MockImageCache(), loader: MockImageLoader())
        let codes = CallRecorder<WebImageError.Code>()
        manager.loadImage(with: nil) { result in
            if case .failure(let error) = result { codes.record(error.code) }
        }
        #expect(codes.all == [.invalidURL])
        #expect(!manager.isRunning)
    }
}
