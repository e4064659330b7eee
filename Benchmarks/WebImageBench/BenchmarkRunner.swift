import Foundation

/// Times benchmark cases: one warm-up run, then `iterations` timed runs; reports the median
/// and the minimum in milliseconds, as `pillow_bench.py` does.
struct BenchmarkRunner {
    let iterations: Int

    struct Measurement {
        let median: Double
        let minimum: Double
        let iterations: Int
    }

    /// Times `body`; its result is consumed so the optimizer cannot drop the work.
    func measure<Output>(iterations override: Int? = nil, _ body: () throws -> Output) rethrows -> Measurement {
        let count = max(1, override ?? iterations)
        Sink.consume(try body())
        var samples: [Double] = []
        samples.reserveCapacity(count)
        let clock = ContinuousClock()
        for _ in 0..<count {
            var output: Output?
            let elapsed = try clock.measure { output = try body() }
            Sink.consume(output)
            samples.append(Self.milliseconds(elapsed))
        }
        return Measurement(median: Self.median(samples), minimum: samples.min() ?? 0, iterations: count)
    }

    /// Times an async `body` the same way.
    func measureAsync<Output>(iterations override: Int? = nil, _ body: () async throws -> Output) async rethrows -> Measurement {
        // The usage is read outside the timed window, so the timings are those of `body` alone.
        try await measureAsyncWithUsage(iterations: override, body).0
    }

    /// Times an async `body` as ``measureAsync(iterations:_:)`` does, and reports the medians of
    /// what the process used in each timed run (see ``ProcessUsage``).
    func measureAsyncWithUsage<Output>(iterations override: Int? = nil, _ body: () async throws -> Output) async rethrows -> (Measurement, ProcessUsage) {
        let count = max(1, override ?? iterations)
        Sink.consume(try await body())
        var samples: [Double] = []
        var usages: [ProcessUsage] = []
        let clock = ContinuousClock()
        for _ in 0..<count {
            let used = ProcessUsage.now()
            let start = clock.now
            let output = try await body()
            samples.append(Self.milliseconds(clock.now - start))
            usages.append(ProcessUsage.now() - used)
            Sink.consume(output)
        }
        let usage = ProcessUsage(
            cpuMilliseconds: Self.median(usages.map(\.cpuMilliseconds)),
            contextSwitches: Self.median(usages.map(\.contextSwitches)),
            minorFaults: Self.median(usages.map(\.minorFaults))
        )
        return (Measurement(median: Self.median(samples), minimum: samples.min() ?? 0, iterations: count), usage)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// Keeps results alive so the optimizer cannot remove the work that made them.
enum Sink {
    nonisolated(unsafe) private static var last: Any?
    @inline(never)
    static func consume<T>(_ value: T) {
        last = value
    }
}
