import Foundation
import SwiftWebImage

/// The throughput case: 200 photos decoded as thumbnails (fit 400x300), encoded as JPEG
/// (quality 80), with every core busy; reported in images per second. The peer is libvips
/// through `Benchmarks/peers/vips_throughput.py`, on the same file and count (compare.py
/// `--peer`, case `throughput`).
///
/// The 200 photos are the input directory's `photo.jpg`, read once into memory and handed to
/// each job (so both sides time decode, thumbnail and encode, not file reads). The jobs run
/// on `DispatchQueue.concurrentPerform`, one job per core at a time, each job one photo from
/// bytes to JPEG bytes (as a server answering 200 thumbnail requests would run them).
struct ThroughputCase {
    let inputs: URL
    let runner: BenchmarkRunner

    static let names = ["throughput"]
    /// The photos per run.
    static let photoCount = 200

    func run() throws -> (measurement: BenchmarkRunner.Measurement, extra: [String: Double]) {
        let photo = try Data(contentsOf: inputs.appendingPathComponent("photo.jpg"))
        let decode = {
            var options = ImageDecodeOptions()
            options.thumbnailPixelSize = PixelSize(width: 400, height: 300)
            return options
        }()
        let encode = ImageEncodeOptions(compressionQuality: 0.8)
        let count = Self.photoCount
        // Each run takes seconds: half the iterations, at least 3 (as the slow image cases).
        let measurement = try runner.measure(iterations: max(3, runner.iterations / 2)) {
            let bytes = Locked(0)
            let failure = Locked<(any Error)?>(nil)
            DispatchQueue.concurrentPerform(iterations: count) { _ in
                do {
                    let thumbnail = try JPEGCoder().decode(photo, options: decode)
                    // Standard Huffman tables, as libvips' encoder writes by default (the peer's work).
                    let jpeg = try JPEGCoder(optimizesHuffmanTables: false).encode(thumbnail, as: .jpeg, options: encode)
                    bytes.withLock { $0 += jpeg.count }
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                }
            }
            if let error = failure.withLock({ $0 }) { throw error }
            return bytes.withLock { $0 }
        }
        return (measurement, [
            "images_per_second": Double(count) / (measurement.median / 1000),
            "photos": Double(count),
            "cores": Double(ProcessInfo.processInfo.activeProcessorCount),
        ])
    }
}
