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
        }
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
    func exposition(queueDepth: Int, transformsInFlight: Int, resultMemory: (count: Int, cost: Int)) -> String {
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
        text += "# HELP webimage_serve_result_misses_total Image requests that no result tier could answer.\n"
        text += "# TYPE webimage_serve_result_misses_total counter\n"
        text += "webimage_serve_result_misses_total \(snapshot.resultMisses)\n"
        text += "# HELP webimage_serve_origin_fetches_total Sources fetched (one per coalesced load), by kind.\n"
        text += "# TYPE webimage_serve_origin_fetches_total counter\n"
        for kind in snapshot.originFetches.keys.sorted() {
            text += "webimage_serve_origin_fetches_total{source=\"\(kind)\"} \(snapshot.originFetches[kind] ?? 0)\n"
        }
        text += "# HELP webimage_serve_origin_bytes_total Bytes of sources fetched, by kind.\n"
        text += "# TYPE webimage_serve_origin_bytes_total counter\n"
        for kind in snapshot.originBytes.keys.sorted() {
            text += "webimage_serve_origin_bytes_total{source=\"\(kind)\"} \(snapshot.originBytes[kind] ?? 0)\n"
        }
        text += "# HELP webimage_serve_origin_failures_total Source fetches that failed, by kind.\n"
        text += "# TYPE webimage_serve_origin_failures_total counter\n"
        for kind in snapshot.originFailures.keys.sorted() {
            text += "webimage_serve_origin_failures_total{source=\"\(kind)\"} \(snapshot.originFailures[kind] ?? 0)\n"
        }
        text += "# HELP webimage_serve_requests_in_flight Requests being answered now.\n"
        text += "# TYPE webimage_serve_requests_in_flight gauge\n"
        text += "webimage_serve_requests_in_flight \(snapshot.inFlight)\n"
        text += "# HELP webimage_serve_transform_queue_depth Transforms waiting for a worker.\n"
        text += "# TYPE webimage_serve_transform_queue_depth gauge\n"
        text += "webimage_serve_transform_queue_depth \(queueDepth)\n"
        text += "# HELP webimage_serve_transforms_in_flight Transforms running now.\n"
        text += "# TYPE webimage_serve_transforms_in_flight gauge\n"
        text += "webimage_serve_transforms_in_flight \(transformsInFlight)\n"
        text += "# HELP webimage_serve_result_memory_entries Results held in the server's memory tier.\n"
        text += "# TYPE webimage_serve_result_memory_entries gauge\n"
        text += "webimage_serve_result_memory_entries \(resultMemory.count)\n"
        text += "# HELP webimage_serve_result_memory_bytes Bytes held in the server's memory tier.\n"
        text += "# TYPE webimage_serve_result_memory_bytes gauge\n"
        text += "webimage_serve_result_memory_bytes \(resultMemory.cost)\n"
        return text
    }
}
