import Foundation
import SwiftWebImage

/// `webimage prefetch <URL>... [--cache-dir DIR] [--concurrency N] [--verbose]`: warms the cache with a
/// ``Prefetcher`` over ``ImageManager/shared`` (low priority, `--concurrency` at once, default
/// 3 as SDWebImage's prefetcher), so that a later `fetch` with the same cache finds the images
/// on disk. Nothing is written but the cache.
///
/// Per URL, one line as it ends (`prefetched` or `failed`); a progress bar on a terminal; a
/// summary. The prefetcher reports counts, not reasons: run `fetch` on a failed URL to see why.
/// A cache store that failed is a warning on standard error; `--verbose` prints every event of
/// every request there instead (``EventLog``).
/// Exit status 1 when any URL failed.
struct PrefetchCommand: Command {
    static let name = "prefetch"
    static let summary = "Warm the cache for a list of URLs"
    static let help = """
        USAGE: webimage prefetch <URL>... [--cache-dir DIR] [--concurrency N] [--verbose]

        Loads each URL at low priority through the shared image manager into the cache, so that
        a later 'webimage fetch' with the same cache reads it from disk. A failed cache store is
        a warning on standard error.

        OPTIONS:
          --cache-dir DIR     The cache (disk tier DIR/default); default: the shared cache.
          --concurrency N     Loads at once, 1...64 (default 3).
          -v, --verbose       Print every event of every load to standard error, one line each.
          -h, --help          Show this help.
        """

    let console: Console

    init(console: Console) {
        self.console = console
    }

    func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ArgumentParser(
            command: Self.name,
            flags: ["--verbose"],
            options: ["--cache-dir", "--concurrency"],
            aliases: ["-v": "--verbose"]
        ).parse(arguments)
        if parsed.has("--help") {
            console.printText(Self.help)
            return ExitStatus.success
        }
        guard !parsed.positionals.isEmpty else {
            throw CLIError.usage("\(Self.name): give at least one URL")
        }
        var concurrency = 3
        if let option = parsed.value("--concurrency") {
            concurrency = try FetchCommand.concurrency(option, command: Self.name)
        }
        let cacheChoice = try CacheChoice(parsed, command: Self.name)
        var urls: [URL] = []
        var failures = 0
        for argument in parsed.positionals {
            do {
                urls.append(try ImageSource(argument).url)
            } catch {
                failures += 1
                console.printError("webimage \(Self.name): \(argument): \(ErrorReport(error).message)")
            }
        }
        var context = WebImageContext()
        context.imageCache = cacheChoice.makeCache()
        let prefetcher = Prefetcher(
            manager: .shared,
            maxConcurrentPrefetchCount: concurrency,
            options: [.lowPriority, .retryFailed, .waitStoreCache],
            context: context
        )
        let progress = TransferProgress(total: urls.count, console: console)
        let skipped = Locked(0)
        let console = console
        let eventLog = EventLog(manager: .shared, command: Self.name, verbose: parsed.has("--verbose"), console: console)
        defer { eventLog.stop() }
        progress.start()
        let counts = await prefetcher.prefetch(urls) { counts, url in
            // Called once per ended load, one at a time: a change in `skipped` is this URL failing.
            let failed = skipped.withLock { previous in
                defer { previous = counts.skipped }
                return counts.skipped > previous
            }
            progress.finish(index: counts.finished)
            if failed {
                console.printError("webimage \(Self.name): \(url.absoluteString): failed (run 'webimage fetch' on it to see why)")
            } else {
                console.print("prefetched  \(url.absoluteString)")
            }
        }
        progress.end()
        failures += counts.skipped
        var summary = "prefetched \(counts.finished - counts.skipped) of \(parsed.positionals.count) into \(cacheChoice.summary)"
        if failures > 0 { summary += "; \(failures) failed" }
        console.print(summary)
        return failures > 0 ? ExitStatus.failure : ExitStatus.success
    }
}
