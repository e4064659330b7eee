import Foundation
import WebImageCore
import WebImageLoaders

/// `webimage-download-probe URL [--limit BYTES] [--decode] [--resolve HOST:PORT:ADDRESS]... [--refuse-non-public] [--allow ADDRESS]... [--proxy URL] [--peak-rss]`:
/// one download with a `Downloader`, then exit. The child process of `scripts/download-limits`,
/// which measures its peak RSS (`wait4`'s `ru_maxrss`) while the download of a 2 GiB body or a
/// gzip bomb is refused, and of the proxy tests (`DownloaderProxyTests`), which run it with
/// `http_proxy` / `https_proxy` / `no_proxy` set (`--resolve` adds a resolver override;
/// `--refuse-non-public`, `--allow` and `--proxy` set the address guard and the proxy).
/// Prints `ok BYTES` or `refused MESSAGE` and exits 0 either way (2 on bad arguments); with
/// `--peak-rss`, then `peak-rss BYTES`: the process's own peak resident set (`VmHWM`), which,
/// unlike `ru_maxrss`, does not include what the parent's address space had before `exec`.
///
/// An executable of its own that links only WebImageCore and WebImageLoaders (not every coder
/// and plug-in, as webimage-bench does), so that its peak RSS is the download's and
/// Foundation's, not the mapped code of libavif, libheif and libjxl (about 5 MiB).
enum DownloadProbe {
    static func run(_ arguments: [String]) async -> Never {
        var arguments = arguments
        var url: URL?
        var reportsPeak = false
        var configuration = DownloaderConfiguration()
        configuration.downloadTimeout = 30
        while !arguments.isEmpty {
            let argument = arguments.removeFirst()
            switch argument {
            case "--limit":
                guard let value = arguments.first.flatMap(Int.init), value > 0 else { fail("--limit needs a positive number of bytes") }
                configuration.maximumResponseSize = value
                arguments.removeFirst()
            case "--refuse-non-public":
                configuration.refusesNonPublicAddresses = true
            case "--allow":
                guard let entry = arguments.first else { fail("--allow needs an address or a CIDR network") }
                configuration.allowedNonPublicAddresses.append(entry)
                arguments.removeFirst()
            case "--proxy":
                guard let proxy = arguments.first.flatMap(URL.init(string:)) else { fail("--proxy needs a URL") }
                configuration.proxy = proxy
                arguments.removeFirst()
            case "--peak-rss":
                reportsPeak = true
            case "--decode":
                configuration.acceptedContentEncodings = DownloaderConfiguration.ContentEncoding.allCases
            case "--resolve":
                guard let entry = arguments.first, entry.split(separator: ":").count >= 3 else { fail("--resolve needs HOST:PORT:ADDRESS") }
                configuration.resolveOverrides.append(entry)
                arguments.removeFirst()
            default:
                guard url == nil, let parsed = URL(string: argument) else { fail("unexpected argument \(argument)") }
                url = parsed
            }
        }
        guard let url else { fail("usage: webimage-download-probe URL [--limit BYTES] [--decode] [--resolve HOST:PORT:ADDRESS]... [--refuse-non-public] [--allow ADDRESS]... [--proxy URL] [--peak-rss]") }
        let downloader = Downloader(configuration: configuration, coder: CodersManager())
        do {
            let result = try await downloader.requestImage(with: url, options: [.avoidDecodeImage], context: WebImageContext(), progress: nil)
            print("ok \(result.data?.count ?? 0)")
        } catch {
            print("refused \((error as? WebImageError)?.message ?? "\(error)")")
        }
        if reportsPeak { print("peak-rss \(peakResidentBytes())") }
        exit(0)
    }
}

/// `VmHWM` from `/proc/self/status`, in bytes (0 if it cannot be read).
func peakResidentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) } ?? 0
        return kilobytes * 1024
    }
    return 0
}

/// Prints `message` to standard error and exits with status 2.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("webimage-download-probe: \(message)\n".utf8))
    exit(2)
}

await DownloadProbe.run(Array(CommandLine.arguments.dropFirst()))
