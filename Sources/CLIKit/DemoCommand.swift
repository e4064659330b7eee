import Foundation
import SwiftWebImage
import WebImageLoopbackServer

/// `webimage demo [--output DIR]`: the framework end to end, with no setup and no internet.
///
/// 1. Makes the samples (``DemoSamples``: a photo-like JPEG, a progressive JPEG, a PNG with
///    alpha, an animated GIF, a WIRL image, and one per plug-in coder of ``PluginCoders``: a
///    lossy WebP, ...) and serves them from a ``LoopbackHTTPServer`` on
///    127.0.0.1 inside the process, in 8 KB chunks so that progress has something to show.
/// 2. Loads everything through ``ImageManager/shared`` with a fresh ``WebImageCache`` in a new
///    temporary directory (given per request in the context; removed at the end):
///    - `network`: all at once, with progress (a bar on a terminal, lines otherwise);
///    - `memory`: again, from the memory tier;
///    - `disk`: again after clearing the memory tier, decoded from disk;
///    - `context`: per-request transformers and thumbnail sizes in the context; each is made
///      from the cached full-size original (no download) and stored under its own key;
///    - `coalesce`: six concurrent requests for one new URL share one download.
///    The WIRL sample is decoded by ``RunLengthImageCoder``, the custom coder `webimage`
///    registers at launch, which the shared coders manager asks before every built-in coder.
/// 3. Prints a table of every load (where it came from, size, frames, time, what it shows; a
///    debug build says under the header that its times are a debug build's), the
///    server's request count, the cache's totals and the coder order; writes every result and
///    `contact-sheet.png` (every result in a grid, numbered as the table) to the output folder.
struct DemoCommand: Command {
    static let name = "demo"
    static let summary = "The framework end to end: no setup, no internet, under a minute"
    static let help = """
        USAGE: webimage demo [--output DIR]

        Makes sample images (a photo-like JPEG, a progressive JPEG, a PNG with alpha, an animated
        GIF, an image in WIRL, a made-up format whose coder is registered at launch, and one per
        plug-in coder: a WebP, ...), serves them from a loopback HTTP server inside the process, and loads them through the shared
        image manager with a fresh cache: from the network (with progress), from memory, from
        disk, with per-request transformers and thumbnail sizes, and six concurrent requests
        sharing one download. Prints what happened and writes every result and a contact sheet.

        OPTIONS:
          -o, --output DIR    Where to write the results (default: ./webimage-demo).
          -h, --help          Show this help.
        """

    let console: Console

    init(console: Console) {
        self.console = console
    }

    /// A request of the `context` step.
    private struct Override {
        let name: String
        let summary: String
        let transformer: (any ImageTransformer)?
        let thumbnail: PixelSize?
    }

    func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ArgumentParser(command: Self.name, options: ["--output"], aliases: ["-o": "--output"]).parse(arguments)
        if parsed.has("--help") {
            console.printText(Self.help)
            return ExitStatus.success
        }
        guard parsed.positionals.isEmpty else {
            throw CLIError.usage("\(Self.name): takes no arguments (got '\(parsed.positionals[0])')")
        }
        let started = ContinuousClock.now
        let output = URL(fileURLWithPath: parsed.value("--output") ?? "webimage-demo", isDirectory: true).standardizedFileURL
        do {
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        } catch {
            throw CLIError.failure("\(Self.name): cannot create the output directory \(output.path): \(ErrorReport(error).message)")
        }

        console.print("SwiftWebImage \(SwiftWebImageInfo.version) demo")
        let samples = try DemoSamples.make()
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        for sample in samples {
            server.route(sample.path, Self.route(for: sample))
        }
        let shared = samples[0]
        server.route("/shared.jpg", Self.route(for: shared))
        let cacheParent = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-demo-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: cacheParent) }
        let cache = WebImageCache(namespace: "demo", directory: cacheParent, coder: CodersManager.shared)
        var context = WebImageContext()
        context.imageCache = cache
        let sizes = samples.map { "\($0.name) \(ByteCount.format(Int64($0.data.count)))" }.joined(separator: ", ")
        console.print("Made \(samples.count) samples: \(sizes)")
        console.print("Serving them at \(server.baseURL) (a loopback server inside this process)")
        console.print("Fresh cache (memory + disk): \(cache.diskCache?.directory.path ?? cacheParent.path)")
        console.print("Plug-in coders registered at launch: \(PluginCoders.names.joined(separator: ", "))")
        console.print("Custom coder registered at launch: \(String(describing: RunLengthImageCoder.self)) for .wirl; coders in the order asked: \(Self.coderOrder())")
        console.print("")

        var rows: [DemoRow] = []
        rows += try await networkStep(samples, server: server, context: context)
        for row in try await repeatStep("memory", samples, server: server, context: context, firstRows: rows) { rows.append(row) }
        await cache.clear(cacheType: .memory)
        for row in try await repeatStep("disk", samples, server: server, context: context, firstRows: Array(rows.prefix(samples.count))) { rows.append(row) }
        rows += try await contextStep(server: server, context: context)
        rows.append(try await coalesceStep(server: server, context: context))

        printTable(rows)
        let written = try writeResults(rows, to: output)
        let sheet = try ContactSheet().render(rows.enumerated().map { (String($0.offset + 1), $0.element.image.bitmap) })
        let sheetURL = output.appendingPathComponent("contact-sheet.png")
        try AtomicFileWriter.write(try PNGCoder().encode(WebImage(bitmap: sheet), as: .png), to: sheetURL)

        let fromCache = rows.filter { $0.origin != "network" }.count
        console.print("")
        console.print("Loads: \(rows.count) rows (\(fromCache) served from the cache), \(server.totalRequestCount) HTTP requests to the loopback server.")
        console.print("Cache: \(cache.totalDiskCount()) entries, \(ByteCount.format(Int64(cache.totalDiskSize()))) on disk (removed now).")
        let counts = RunLengthImageCoder.shared.counts
        console.print("Custom coder: RunLengthImageCoder was asked \(counts.canDecode) times whether it can decode and decoded \(counts.decoded) WIRL images; the built-in coders never saw them.")
        console.print("Wrote \(written) results and contact-sheet.png (\(sheet.width)x\(sheet.height), every result numbered as above) to \(output.path)")
        console.print("Done in \((ContinuousClock.now - started).millisecondsText).")
        return ExitStatus.success
    }

    /// The sample in 8 KB chunks with a 2 ms pause after each, so that a download takes a few
    /// progress events (and a few milliseconds).
    static func route(for sample: DemoSamples.Sample) -> LoopbackHTTPServer.Route {
        var steps: [LoopbackHTTPServer.Step] = [.head(status: 200, headers: [("Content-Type", sample.contentType), ("Content-Length", String(sample.data.count))])]
        var offset = 0
        while offset < sample.data.count {
            let end = min(sample.data.count, offset + 8192)
            steps.append(.body(sample.data.subdata(in: offset..<end)))
            steps.append(.pause(.milliseconds(2)))
            offset = end
        }
        return .steps(steps)
    }

    /// The coders of the shared manager in the order it asks them.
    static func coderOrder() -> String {
        CodersManager.shared.coders.reversed().map { String(describing: type(of: $0)) }.joined(separator: ", ")
    }

    private func load(_ url: URL, context: WebImageContext, events: ImageLoadEventHandler? = nil) async throws -> (ImageLoadResult, WebImage, Duration) {
        let started = ContinuousClock.now
        let result = try await ImageManager.shared.loadImage(with: url, options: [.waitStoreCache, .retryFailed], context: context, events: events)
        guard let image = result.image else {
            throw CLIError.failure("\(Self.name): \(url.absoluteString) gave no image")
        }
        return (result, image, ContinuousClock.now - started)
    }

    private static func origin(_ result: ImageLoadResult) -> String {
        switch result.cacheType {
        case .memory, .all: "memory"
        case .disk: "disk"
        case .none: "network"
        }
    }

    /// Every sample at once, from the network, with progress.
    private func networkStep(_ samples: [DemoSamples.Sample], server: LoopbackHTTPServer, context: WebImageContext) async throws -> [DemoRow] {
        console.print("1. network: loading \(samples.count) images at once through ImageManager.shared")
        let progress = TransferProgress(total: samples.count, console: console)
        let eventCounts = Locked([Int: Int]())
        progress.start()
        let console = console
        let rows = try await withThrowingTaskGroup(of: (Int, DemoRow).self) { group in
            for (index, sample) in samples.enumerated() {
                group.addTask {
                    let (result, image, elapsed) = try await load(server.url(for: sample.path), context: context) { event in
                        if case .progress(let received, let expected) = event {
                            eventCounts.withLock { $0[index, default: 0] += 1 }
                            progress.update(index: index, received: received, expected: expected)
                        }
                    }
                    progress.finish(index: index)
                    let events = eventCounts.withLock { $0[index] ?? 0 }
                    if !console.isTerminal {
                        console.print("   downloaded \(sample.name): \(ByteCount.format(Int64(sample.data.count))), \(events) progress events, \(elapsed.millisecondsText)")
                    }
                    let note = "\(sample.summary); \(ByteCount.format(Int64(sample.data.count))) in \(events) progress event\(events == 1 ? "" : "s")"
                    return (index, DemoRow(step: "network", name: sample.name, origin: Self.origin(result), elapsed: elapsed, result: result, image: image, reencode: false, note: note))
                }
            }
            var rows: [(Int, DemoRow)] = []
            for try await row in group { rows.append(row) }
            return rows.sorted { $0.0 < $1.0 }.map(\.1)
        }
        progress.end()
        return rows
    }

    /// Every sample again, one after another: from memory, or from disk after clearing memory.
    private func repeatStep(_ step: String, _ samples: [DemoSamples.Sample], server: LoopbackHTTPServer, context: WebImageContext, firstRows: [DemoRow]) async throws -> [DemoRow] {
        let requestsBefore = server.totalRequestCount
        console.print(step == "memory" ? "2. memory: the same \(samples.count) images again" : "3. disk: the memory tier cleared, the same \(samples.count) images again")
        var rows: [DemoRow] = []
        for (index, sample) in samples.enumerated() {
            let (result, image, elapsed) = try await load(server.url(for: sample.path), context: context)
            let same = image.bitmap == firstRows[index].image.bitmap && image.frameCount == firstRows[index].image.frameCount
            let note = same ? "same pixels as #\(index + 1)" : "differs from #\(index + 1)"
            rows.append(DemoRow(step: step, name: sample.name, origin: Self.origin(result), elapsed: elapsed, result: result, image: image, reencode: false, note: note))
        }
        console.print("   \(server.totalRequestCount - requestsBefore) HTTP requests")
        return rows
    }

    /// Per-request overrides in the context: transformers and thumbnail sizes.
    private func contextStep(server: LoopbackHTTPServer, context: WebImageContext) async throws -> [DemoRow] {
        console.print("4. context: per-request transformers and thumbnail sizes")
        let overrides = [
            Override(name: "photo.jpg", summary: "resize 200x200 aspectFill + round 28", transformer: .pipeline([.resize(to: PixelSize(width: 200, height: 200), mode: .aspectFill), .roundCorner(radius: 28)]), thumbnail: nil),
            Override(name: "badge.png", summary: "tint #e63c32 at 60% sourceAtop", transformer: .tint(RGBAColor(red: 230, green: 60, blue: 50, alpha: 153), mode: .sourceAtop), thumbnail: nil),
            Override(name: "progressive.jpg", summary: "grayscale + blur 4", transformer: .pipeline([.grayscale, .blur(radius: 4)]), thumbnail: nil),
            Override(name: "pattern.wirl", summary: "rotate 30 degrees", transformer: .rotate(degrees: 30), thumbnail: nil),
            Override(name: "bounce.gif", summary: "thumbnail 60x45", transformer: nil, thumbnail: PixelSize(width: 60, height: 45)),
            Override(name: "photo.jpg", summary: "thumbnail 160x160 + flip", transformer: .flip(horizontal: true), thumbnail: PixelSize(width: 160, height: 160)),
        ]
        var rows: [DemoRow] = []
        for override in overrides {
            var requestContext = context
            requestContext.imageTransformer = override.transformer
            requestContext.imageThumbnailPixelSize = override.thumbnail
            let (result, image, elapsed) = try await load(server.url(for: "/" + override.name), context: requestContext)
            let origin = Self.origin(result)
            let how = origin == "network" ? "downloaded: the original was not in the cache" : "made from the cached original, no download"
            rows.append(DemoRow(step: "context", name: override.name, origin: origin, elapsed: elapsed, result: result, image: image, reencode: true, note: "\(override.summary); \(how)"))
        }
        return rows
    }

    /// Six concurrent requests for one URL nobody loaded yet.
    private func coalesceStep(server: LoopbackHTTPServer, context: WebImageContext) async throws -> DemoRow {
        let count = 6
        console.print("5. coalesce: \(count) concurrent requests for one new URL")
        let url = server.url(for: "/shared.jpg")
        let started = ContinuousClock.now
        let results = try await withThrowingTaskGroup(of: (ImageLoadResult, WebImage, Duration).self) { group in
            for _ in 0..<count {
                group.addTask { try await load(url, context: context) }
            }
            var results: [(ImageLoadResult, WebImage, Duration)] = []
            for try await result in group { results.append(result) }
            return results
        }
        let downloads = server.statistics(for: "/shared.jpg").requestCount
        let (result, image, _) = results[0]
        return DemoRow(step: "coalesce", name: "shared.jpg", origin: Self.origin(result), elapsed: ContinuousClock.now - started, result: result, image: image, reencode: false,
                       note: "\(count) concurrent requests, \(downloads) download\(downloads == 1 ? "" : "s")")
    }

    private func printTable(_ rows: [DemoRow]) {
        console.print("")
        let header = "  #  " + "step".rightPadded(to: 10) + "image".rightPadded(to: 17) + "from".rightPadded(to: 9) + "size".rightPadded(to: 9) + "frames".rightPadded(to: 8) + "time".leftPadded(to: 9) + "  note"
        console.print(header)
        console.print(String(repeating: "-", count: header.count + 40))
        if let note = Self.buildNote { console.print(note) }
        for (index, row) in rows.enumerated() {
            let line = String(index + 1).leftPadded(to: 3) + "  " + row.step.rightPadded(to: 10) + row.name.rightPadded(to: 17)
                + row.origin.rightPadded(to: 9) + row.image.pixelSize.description.rightPadded(to: 9)
                + String(row.image.frameCount).rightPadded(to: 8) + row.elapsed.millisecondsText.leftPadded(to: 9) + "  " + row.note
            console.print(line)
        }
    }

    /// The line under the table's header when this `webimage` is a debug build (what `swift run`
    /// builds): its times are several times the library's, since Swift's debug builds do not
    /// optimise; `nil` for a release build.
    static var buildNote: String? {
        #if DEBUG
        return "  (times from a debug build, several times slower than the library: `swift run -c release webimage demo` for its speed)"
        #else
        return nil
        #endif
    }

    /// Writes every row's result as `NN-step-name.ext`.
    /// - Returns: The number of files written.
    private func writeResults(_ rows: [DemoRow], to directory: URL) throws -> Int {
        for (index, row) in rows.enumerated() {
            let (data, format) = try ResultFile.contents(of: row.result, image: row.image, reencode: row.reencode)
            let stem = (row.name as NSString).deletingPathExtension
            let number = String(index + 1).count == 1 ? "0\(index + 1)" : String(index + 1)
            let file = directory.appendingPathComponent("\(number)-\(row.step)-\(stem).\(format.fileExtension ?? "img")")
            try AtomicFileWriter.write(data, to: file)
        }
        return rows.count
    }
}
