import Foundation
import SwiftWebImage

/// `webimage cache stats|clear|trim [--cache-dir DIR]`: the disk cache's totals, emptying it,
/// and sweeping it.
///
/// The cache is `--cache-dir DIR`'s (disk tier `DIR/default`, see ``CacheChoice``), else the
/// shared cache's directory (`$XDG_CACHE_HOME/swiftwebimage/default` or
/// `~/.cache/swiftwebimage/default`). The memory tier lives only inside a process, so these
/// commands work on the disk tier.
/// - `stats`: the directory, the number of entries and their size.
/// - `clear`: removes every entry.
/// - `trim [--max-size SIZE] [--max-age AGE]`: removes entries older than the maximum age
///   (default one week), then, when the total is over the size limit (default 1 GiB), the
///   least recently used entries until the total is at most half the limit (SDWebImage's sweep,
///   ``DiskCache/removeExpiredData(referenceDate:)``).
struct CacheCommand: Command {
    static let name = "cache"
    static let summary = "Disk cache totals, clearing and trimming"
    static let help = """
        USAGE: webimage cache stats [--cache-dir DIR]
               webimage cache clear [--cache-dir DIR]
               webimage cache trim  [--cache-dir DIR] [--max-size SIZE] [--max-age AGE]

        Works on the disk tier of the cache in DIR/default (the directory 'fetch --cache-dir DIR'
        uses), or without --cache-dir on the shared cache (~/.cache/swiftwebimage/default, or
        $XDG_CACHE_HOME/swiftwebimage/default).

        SUBCOMMANDS:
          stats     Show the directory, the number of entries and their total size.
          clear     Remove every entry.
          trim      Remove entries older than --max-age (default 7d), then, when the total is
                    over --max-size (default 1G), the least recently used entries until the total
                    is at most half of it.

        OPTIONS:
          --cache-dir DIR   The cache's parent directory.
          --max-size SIZE   trim: the size limit, in bytes or with K, M, G (e.g. 500M).
          --max-age AGE     trim: the maximum age, in seconds or with s, m, h, d (e.g. 12h).
          -h, --help        Show this help.
        """

    let console: Console

    init(console: Console) {
        self.console = console
    }

    func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ArgumentParser(command: Self.name, options: ["--cache-dir", "--max-size", "--max-age"]).parse(arguments)
        if parsed.has("--help") {
            console.printText(Self.help)
            return ExitStatus.success
        }
        guard parsed.positionals.count == 1, let action = parsed.positionals.first else {
            throw CLIError.usage("\(Self.name): give one of stats, clear, trim")
        }
        guard action == "trim" || (parsed.value("--max-size") == nil && parsed.value("--max-age") == nil) else {
            throw CLIError.usage("\(Self.name): --max-size and --max-age only apply to trim")
        }
        let cache = try CacheChoice(parsed, command: Self.name).makeWebImageCache()
        let directory = cache.diskCache?.directory.path ?? cache.namespace
        switch action {
        case "stats":
            let config = cache.config
            console.print("directory: \(directory)")
            console.print("entries:   \(cache.totalDiskCount())")
            console.print("size:      \(Self.size(cache.totalDiskSize()))")
            console.print("limits:    \(ByteCount.format(Int64(config.maxDiskSize))), \(Self.age(config.maxDiskAge)) (by access date)")
        case "clear":
            let (count, size) = (cache.totalDiskCount(), cache.totalDiskSize())
            await cache.clear(cacheType: .disk)
            console.print("removed \(count) entr\(count == 1 ? "y" : "ies") (\(ByteCount.format(Int64(size)))) from \(directory)")
        case "trim":
            var config = cache.config
            if let option = parsed.value("--max-size") {
                guard let size = ByteCount.parse(option), size > 0 else {
                    throw CLIError.usage("\(Self.name): --max-size needs a size like 500M or 1048576, not '\(option)'")
                }
                config.maxDiskSize = size
            }
            if let option = parsed.value("--max-age") {
                guard let age = Self.parseAge(option) else {
                    throw CLIError.usage("\(Self.name): --max-age needs an age like 3600, 30m, 12h or 7d, not '\(option)'")
                }
                config.maxDiskAge = age
            }
            cache.config = config
            let removed = await cache.removeExpiredData()
            console.print("removed \(removed) entr\(removed == 1 ? "y" : "ies"); \(cache.totalDiskCount()) left (\(Self.size(cache.totalDiskSize()))) in \(directory)")
        default:
            throw CLIError.usage("\(Self.name): unknown subcommand '\(action)'; use stats, clear or trim")
        }
        return ExitStatus.success
    }

    /// `1.5 MB (1572864 bytes)`.
    static func size(_ bytes: Int) -> String {
        "\(ByteCount.format(Int64(bytes))) (\(bytes) bytes)"
    }

    /// `7 days`, `12 hours`, `90 seconds`.
    static func age(_ seconds: TimeInterval) -> String {
        guard seconds >= 0 else { return "no maximum age" }
        for (unit, length) in [("day", 86_400.0), ("hour", 3600.0), ("minute", 60.0)] where seconds >= length && seconds.truncatingRemainder(dividingBy: length) == 0 {
            let count = Int(seconds / length)
            return "max age \(count) \(unit)\(count == 1 ? "" : "s")"
        }
        return "max age \(Int(seconds)) seconds"
    }

    /// An age: whole seconds, or a number with `s`, `m`, `h` or `d`.
    static func parseAge(_ text: String) -> TimeInterval? {
        var digits = Substring(text.lowercased())
        var multiplier = 1.0
        if let last = digits.last, let unit = ["s": 1.0, "m": 60.0, "h": 3600.0, "d": 86_400.0][String(last)] {
            multiplier = unit
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, let value = Int(digits), value >= 0 else { return nil }
        return Double(value) * multiplier
    }
}
