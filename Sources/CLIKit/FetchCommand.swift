import Foundation
import SwiftWebImage

/// `webimage fetch <URL>... [--output DIR] [--cache-dir DIR | --no-cache] [--concurrency N]
/// [--transform SPEC]... [--thumbnail WxH] [--max-pixels N] [--max-frame-pixels N] [--max-frames N]
/// [--verbose]`: loads images through
/// ``ImageManager/shared`` and writes them to a folder.
///
/// - Every load goes through the shared manager: cache query (memory, then disk), coalescing
///   of identical requests, the shared loaders, decoding with the shared coders, transformers,
///   and the cache stores (awaited, `waitStoreCache`, so that they are done before the process
///   exits). The cache is chosen by ``CacheChoice``.
/// - At most `--concurrency` loads run at once (default 4).
/// - Per URL, one line on standard output as each load ends: where it came from (`memory`,
///   `disk`, `network`, or `file`/`data` for those URLs), how long it took, its size and
///   format, and the file written. Failures go to standard error, one line each. On a terminal
///   a progress bar (images and bytes) stays below the lines; otherwise there are only lines.
/// - A cache store that failed is a warning on standard error (the image is still written);
///   `--verbose` prints every event of every request there instead, one line each (``EventLog``).
/// - Files: named after the URL's last path component (`image` when it has none), with the
///   extension of the format written, made unique within the run (`photo-2.jpg`); a name too
///   long for the file system is shortened (``uniqueStem(for:taken:)``); contents as
///   ``ResultFile`` decides; each written atomically.
/// - Arguments and URLs in the lines printed show their control characters escaped (``Console``).
/// - Exit status 1 when any URL failed.
struct FetchCommand: Command {
    static let name = "fetch"
    static let summary = "Load images through the manager (caches, coalescing, transformers) and save them"
    static let help = """
        USAGE: webimage fetch <URL>... [--output DIR] [--cache-dir DIR | --no-cache]
                              [--concurrency N] [--transform SPEC]... [--thumbnail WxH]
                              [--max-pixels N] [--max-frame-pixels N] [--max-frames N]
                              [--verbose]

        Loads each URL (http, https, file or data; a plain path works too) through the shared
        image manager and writes the images to DIR. Prints, per URL, whether it came from
        memory, disk or the network and how long it took. On a terminal a progress bar shows
        images and bytes. A failed cache store is a warning on standard error.

        OPTIONS:
          -o, --output DIR      Where to write the images (default: the current directory).
          --cache-dir DIR       Use a memory + disk cache whose disk tier is DIR/default.
          --no-cache            Use no cache at all.
                                (Neither: the shared cache, ~/.cache/swiftwebimage/default.)
          --concurrency N       Loads at once, 1...64 (default 4).
          --transform SPEC      Apply a transformer (see 'webimage help convert'); repeatable.
          --thumbnail WxH       Decode at most WxH pixels, keeping the aspect ratio.
          \(ConvertCommand.limitsHelp)
          -v, --verbose         Print every event of every load (cache hit or miss, loader,
                                decode, transform, stores) to standard error, one line each.
          -h, --help            Show this help.

        EXAMPLE:
          webimage fetch https://example.com/a.jpg https://example.com/b.png \\
              --output images --cache-dir /tmp/webimage-cache --transform resize=200x200:aspectFill
        """

    let console: Console

    init(console: Console) {
        self.console = console
    }

    /// One URL to fetch.
    private struct Job: Sendable {
        let index: Int
        let argument: String
        let source: ImageSource
        /// The file name without extension, unique within the run.
        let stem: String
    }

    /// How one job ended.
    private enum Outcome: Sendable {
        case fetched(line: String, origin: String)
        case failed(line: String)
    }

    func run(_ arguments: [String]) async throws -> Int32 {
        let parser = ArgumentParser(
            command: Self.name,
            flags: ["--no-cache", "--verbose"],
            options: ConvertCommand.limitOptions.union(["--output", "--cache-dir", "--concurrency", "--transform", "--thumbnail"]),
            repeatable: ["--transform"],
            aliases: ["-o": "--output", "-v": "--verbose"]
        )
        let parsed = try parser.parse(arguments)
        if parsed.has("--help") {
            console.printText(Self.help)
            return ExitStatus.success
        }
        guard !parsed.positionals.isEmpty else {
            throw CLIError.usage("\(Self.name): give at least one URL")
        }
        let concurrency = try Self.concurrency(parsed.value("--concurrency"), command: Self.name)
        let cacheChoice = try CacheChoice(parsed, command: Self.name)
        let transformer: (any ImageTransformer)?
        do {
            transformer = try TransformSpec.transformer(for: parsed.allValues("--transform"))
        } catch {
            throw CLIError.usage("\(Self.name): \(error.message)")
        }
        var context = WebImageContext()
        context.imageCache = cacheChoice.makeCache()
        context.imageTransformer = transformer
        if let thumbnail = parsed.value("--thumbnail") {
            context.imageThumbnailPixelSize = try ConvertCommand.thumbnailSize(thumbnail, command: Self.name)
        }
        try ConvertCommand.applyLimits(parsed, to: &context, command: Self.name)
        let reencode = transformer != nil || context.imageThumbnailPixelSize != nil
        let outputDirectory = URL(fileURLWithPath: parsed.value("--output") ?? ".", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw CLIError.failure("\(Self.name): cannot create the output directory \(outputDirectory.path): \(ErrorReport(error).message)")
        }

        var jobs: [Job] = []
        var failures = 0
        var stems = Set<String>()
        for (index, argument) in parsed.positionals.enumerated() {
            do {
                let source = try ImageSource(argument)
                jobs.append(Job(index: index, argument: argument, source: source, stem: Self.uniqueStem(for: source.url, taken: &stems)))
            } catch {
                failures += 1
                console.printError("webimage \(Self.name): \(argument): \(ErrorReport(error).message)")
            }
        }

        let progress = TransferProgress(total: jobs.count, console: console)
        let requestContext = context
        let eventLog = EventLog(manager: .shared, command: Self.name, verbose: parsed.has("--verbose"), console: console)
        defer { eventLog.stop() }
        progress.start()
        let started = ContinuousClock.now
        var origins: [String: Int] = [:]
        await withTaskGroup(of: Outcome.self) { group in
            var pending = jobs[...]
            func startNext() {
                guard let job = pending.popFirst() else { return }
                group.addTask {
                    await fetch(job, context: requestContext, reencode: reencode, into: outputDirectory, progress: progress)
                }
            }
            for _ in 0..<concurrency { startNext() }
            for await outcome in group {
                switch outcome {
                case .fetched(let line, let origin):
                    origins[origin, default: 0] += 1
                    console.print(line)
                case .failed(let line):
                    failures += 1
                    console.printError(line)
                }
                startNext()
            }
        }
        progress.end()
        let fetched = origins.values.reduce(0, +)
        var summary = "\(fetched) of \(parsed.positionals.count) image\(parsed.positionals.count == 1 ? "" : "s") in \((ContinuousClock.now - started).millisecondsText)"
        let breakdown = ["memory", "disk", "network", "file", "data"].compactMap { key in origins[key].map { "\($0) \(key)" } }
        if !breakdown.isEmpty { summary += ": " + breakdown.joined(separator: ", ") }
        if failures > 0 { summary += "; \(failures) failed" }
        console.print(summary)
        return failures > 0 ? ExitStatus.failure : ExitStatus.success
    }

    private func fetch(_ job: Job, context: WebImageContext, reencode: Bool, into directory: URL, progress: TransferProgress) async -> Outcome {
        let started = ContinuousClock.now
        defer { progress.finish(index: job.index) }
        do {
            let result = try await ImageManager.shared.loadImage(
                with: job.source.url,
                options: [.retryFailed, .waitStoreCache, .transformAnimatedImage],
                context: context
            ) { event in
                if case .progress(let received, let expected) = event {
                    progress.update(index: job.index, received: received, expected: expected)
                }
            }
            let elapsed = ContinuousClock.now - started
            guard let image = result.image else {
                throw WebImageError(.badImageData, "the load gave no image", url: job.source.url)
            }
            let (data, format) = try ResultFile.contents(of: result, image: image, reencode: reencode)
            let file = directory.appendingPathComponent(job.stem + "." + (format.fileExtension ?? "img"))
            try AtomicFileWriter.write(data, to: file)
            let origin = LoadOrigin.name(of: result, source: job.source)
            let frames = image.frameCount > 1 ? " \(image.frameCount) frames" : ""
            let line = origin.rightPadded(to: 8)
                + elapsed.millisecondsText.leftPadded(to: 10)
                + "  \(image.pixelSize) \(image.format)\(frames)  \(job.argument) -> \(file.path)"
            return .fetched(line: line, origin: origin)
        } catch {
            return .failed(line: "webimage \(Self.name): \(job.argument): \(ErrorReport(error).message)")
        }
    }

    /// The longest stem ``uniqueStem(for:taken:)`` makes before its `-N`, in bytes: with the
    /// number and an extension, a file name stays well under the 255-byte limit of Linux file
    /// systems.
    static let maximumStemLength = 200

    /// A file name stem from the URL's last path component: letters, digits, `.`, `-` and `_`
    /// kept (others become `_`), the extension dropped, `image` when nothing is left; `-2`,
    /// `-3`, ... appended when the stem is taken.
    ///
    /// A stem longer than ``maximumStemLength`` bytes is cut, and a hash of the whole path
    /// component is appended (`aaaa…aaaa-1f2e3d4c5b6a7988`): names that differ only after the
    /// cut stay apart, and one URL gives the same name in every run.
    static func uniqueStem(for url: URL, taken: inout Set<String>) -> String {
        var component = url.scheme?.lowercased() == "data" ? "" : url.deletingPathExtension().lastPathComponent
        if component == "/" { component = "" }
        var base = String(component.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "_" })
        while base.hasPrefix(".") { base.removeFirst() }
        if base.isEmpty { base = "image" }
        if base.utf8.count > maximumStemLength {
            let hash = String(fnv1a(component.utf8), radix: 16)
            let digest = String(repeating: "0", count: 16 - hash.count) + hash
            // Only ASCII is left: characters are bytes.
            base = base.prefix(maximumStemLength - digest.count - 1) + "-" + digest
        }
        var stem = base
        var number = 2
        while !taken.insert(stem).inserted {
            stem = "\(base)-\(number)"
            number += 1
        }
        return stem
    }

    /// The 64-bit FNV-1a hash of `bytes`: stable across runs (`Hasher` is seeded per process).
    private static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// `--concurrency N`, 1...64, default 4.
    static func concurrency(_ option: String?, command: String) throws(CLIError) -> Int {
        guard let option else { return 4 }
        guard let value = Int(option), (1...64).contains(value) else {
            throw .usage("\(command): --concurrency must be a whole number from 1 to 64, not '\(option)'")
        }
        return value
    }
}
