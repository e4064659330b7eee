import Foundation
import WebImageCore

/// The counters behind `/metrics`, in Prometheus' text format (version 0.0.4).
///
/// Thread-safety: every method may be called from any thread; each update is one short lock.
final class ServerMetrics: Sendable {
    /// The latency histogram's upper bounds, in seconds.
    static let latencyBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct State {
        var requestsByStatus: [Int: Int] = [:]
        var latencyCounts = [Int](repeating: 0, count: ServerMetrics.latencyBuckets.count + 1)
        var latencySum = 0.0
        var latencyCount = 0
        var cacheHits: [ImageServerCacheTier: Int] = [:]
        var resultMisses = 0
        var originFetches: [String: Int] = [:]
        var originBytes: [String: Int] = [:]
        var originFailures: [String: Int] = [:]
        var renderSources: [RenderSource: Int] = [:]
        var inFlight = 0
    }

    private let state = Locked(State())

    /// A request has arrived.
    func requestStarted() {
        state.withLock { $0.inFlight += 1 }
    }

    /// A request has been answered with `status` after `duration` seconds; `tier` is the cache
    /// that answered, if any.
    func requestFinished(status: Int, duration: Double, tier: ImageServerCacheTier) {
        let bucket = Self.latencyBuckets.firstIndex { duration <= $0 } ?? Self.latencyBuckets.count
        state.withLock { state in
            state.inFlight -= 1
            state.requestsByStatus[status, default: 0] += 1
            state.latencyCounts[bucket] += 1
            state.latencySum += duration
            state.latencyCount += 1
            if tier != .none { state.cacheHits[tier, default: 0] += 1 }
            switch tier {
            case .resultMemory, .resultCacheMemory, .resultDisk, .resultOther: state.renderSources[.resultCache, default: 0] += 1
            case .none, .originalMemory, .originalDisk: break
            }
        }
    }

    /// A render has started from `source` (an answer from a result tier is counted by
    /// ``requestFinished(status:duration:tier:)``).
    func renderStarted(from source: RenderSource) {
        state.withLock { $0.renderSources[source, default: 0] += 1 }
    }

    /// The answers counted for `source` so far (for tests).
    func renderCount(from source: RenderSource) -> Int {
        state.withLock { $0.renderSources[source] ?? 0 }
    }

    /// A result was not found in any result tier.
    func resultMissed() {
        state.withLock { $0.resultMisses += 1 }
    }

    /// A loader fetched a source of `bytes` bytes (`kind`: `http`, `file`, or another scheme).
    func originFetched(kind: String, bytes: Int) {
        state.withLock { state in
            state.originFetches[kind, default: 0] += 1
            state.originBytes[kind, default: 0] += bytes
        }
    }

    /// A loader failed to fetch a source.
    func originFailed(kind: String) {
        state.withLock { $0.originFailures[kind, default: 0] += 1 }
    }

    /// Origin fetches so far, every kind together (for tests).
    var originFetchCount: Int { state.withLock { $0.originFetches.values.reduce(0, +) } }

    /// The exposition text. `queueDepth`, `transformsInFlight` and the result tier's usage are
    /// read by the caller at that moment.
    func exposition(queueDepth: Int, transformsInFlight: Int, resultMemory: (count: Int, cost: Int), memoryBudget: MemoryBudget? = nil) -> String {
        let snapshot = state.withLock { $0 }
        var text = ""
        text += "# HELP webimage_serve_requests_total Requests answered, by status.\n"
        text += "# TYPE webimage_serve_requests_total counter\n"
        for status in snapshot.requestsByStatus.keys.sorted() {
            text += "webimage_serve_requests_total{status=\"\(status)\"} \(snapshot.requestsByStatus[status] ?? 0)\n"
        }
        text += "# HELP webimage_serve_request_duration_seconds Time from arrival to response.\n"
        text += "# TYPE webimage_serve_request_duration_seconds histogram\n"
        var cumulative = 0
        for (index, bound) in Self.latencyBuckets.enumerated() {
            cumulative += snapshot.latencyCounts[index]
            text += "webimage_serve_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        cumulative += snapshot.latencyCounts[Self.latencyBuckets.count]
        text += "webimage_serve_request_duration_seconds_bucket{le=\"+Inf\"} \(cumulative)\n"
        text += "webimage_serve_request_duration_seconds_sum \(snapshot.latencySum)\n"
        text += "webimage_serve_request_duration_seconds_count \(snapshot.latencyCount)\n"
        text += "# HELP webimage_serve_cache_hits_total Image requests answered from a cache, by tier (result-* hold encoded results, original-* the decoded source).\n"
        text += "# TYPE webimage_serve_cache_hits_total counter\n"
        for tier in ImageServerCacheTier.allCases where tier != .none {
            text += "webimage_serve_cache_hits_total{tier=\"\(tier.rawValue)\"} \(snapshot.cacheHits[tier] ?? 0)\n"
        }
        text += "# HELP webimage_serve_render_sources_total Image answers by where their pixels came from: result-cache (no render), shared (joined an identical render in flight), halved-copy, reduced-memory and reduced-decode (shrink-on-load), full-memory, full-decode (from disk or origin bytes).\n"
        text += "# TYPE webimage_serve_render_sources_total counter\n"
        for source in RenderSource.allCases {
            text += "webimage_serve_render_sources_total{source=\"\(source.rawValue)\"} \(snapshot.renderSources[source] ?? 0)\n"
        }
        Self.appendSample("webimage_serve_result_misses_total", type: "counter", help: "Image requests that no result tier could answer.", value: snapshot.resultMisses, to: &text)
        Self.appendCounter("webimage_serve_origin_fetches_total", help: "Sources fetched (one per coalesced load), by kind.", bySource: snapshot.originFetches, to: &text)
        Self.appendCounter("webimage_serve_origin_bytes_total", help: "Bytes of sources fetched, by kind.", bySource: snapshot.originBytes, to: &text)
        Self.appendCounter("webimage_serve_origin_failures_total", help: "Source fetches that failed, by kind.", bySource: snapshot.originFailures, to: &text)
        Self.appendSample("webimage_serve_requests_in_flight", type: "gauge", help: "Requests being answered now.", value: snapshot.inFlight, to: &text)
        Self.appendSample("webimage_serve_transform_queue_depth", type: "gauge", help: "Transforms waiting for a worker.", value: queueDepth, to: &text)
        Self.appendSample("webimage_serve_transforms_in_flight", type: "gauge", help: "Transforms running now.", value: transformsInFlight, to: &text)
        Self.appendSample("webimage_serve_result_memory_entries", type: "gauge", help: "Results held in the server's memory tier.", value: resultMemory.count, to: &text)
        Self.appendSample("webimage_serve_result_memory_bytes", type: "gauge", help: "Bytes held in the server's memory tier.", value: resultMemory.cost, to: &text)
        if let resident = MemoryBudget.residentBytes() {
            Self.appendSample("webimage_serve_memory_resident_bytes", type: "gauge", help: "The process's resident memory.", value: resident, to: &text)
        }
        if let memoryBudget {
            let usage = memoryBudget.usage
            Self.appendSample("webimage_serve_memory_limit_bytes", type: "gauge", help: "The memory budget (--memory-limit).", value: memoryBudget.limit, to: &text)
            Self.appendSample("webimage_serve_memory_fixed_bytes", type: "gauge", help: "The part of the budget the memory tiers and the process's baseline take.", value: memoryBudget.fixedBytes, to: &text)
            Self.appendSample("webimage_serve_memory_decode_capacity_bytes", type: "gauge", help: "The part of the budget decodes in flight may hold.", value: memoryBudget.decodeCapacity, to: &text)
            Self.appendSample("webimage_serve_memory_reserved_bytes", type: "gauge", help: "Bytes decodes in flight hold now.", value: usage.reservedBytes, to: &text)
            Self.appendSample("webimage_serve_memory_reserved_peak_bytes", type: "gauge", help: "The most bytes decodes held at once.", value: usage.peakReservedBytes, to: &text)
            Self.appendSample("webimage_serve_memory_decode_waits_total", type: "counter", help: "Decodes that waited for the memory budget.", value: usage.waits, to: &text)
            Self.appendSample("webimage_serve_memory_decode_refusals_total", type: "counter", help: "Decodes the memory budget refused.", value: usage.refusals, to: &text)
        }
        return text
    }

    /// Appends a counter with a `source` label: its HELP and TYPE lines, then one sample per
    /// source in name order.
    private static func appendCounter(_ name: String, help: String, bySource values: [String: Int], to text: inout String) {
        text += "# HELP \(name) \(help)\n"
        text += "# TYPE \(name) counter\n"
        for (source, value) in values.sorted(by: { $0.key < $1.key }) {
            text += "\(name){source=\"\(source)\"} \(value)\n"
        }
    }

    /// Appends one unlabelled sample with its HELP and TYPE lines.
    private static func appendSample(_ name: String, type: String, help: String, value: some Numeric, to text: inout String) {
        text += "# HELP \(name) \(help)\n"
        text += "# TYPE \(name) \(type)\n"
        text += "\(name) \(value)\n"
    }
}
