import Foundation
import PDFCoder
import SVGCoder
import SwiftWebImage
import WebImageHTTPServer
import WebImageServe
import WebImageServer
import WebPCoder

/// `webimage serve [options]`: a thumbor-compatible image server (``/WebImageServer/ImageServer``
/// on ``/WebImageHTTPServer/HTTPServer``, libmicrohttpd).
///
/// - Parses the options (``ServeOptions``) into the serving library's configuration and builds
///   an ``/WebImageServe/ImageServe`` from it: the caches (``/WebImageServe/ImageServeCaches``),
///   an ``ImageManager`` over the originals, the image server over it (whose downloader refuses
///   non-public addresses unless `--allow-private-sources` or `--allow-source-address` lets
///   them through, fetches through `--proxy` when one is named, stops at `--max-source-bytes`
///   and gives up after `--timeout`), its access log and the HTTP server. Decoding and encoding use
///   a coders manager of its own (``coders(webpMethod:allowsSVG:)``).
/// - Prints `webimage serve: listening on http://HOST:PORT` on standard output once it accepts
///   connections (with `--port 0`, the port the system picked), then on standard error a line
///   naming every setting that relaxes a safe default and where it came from
///   (``ServeOptions/relaxedDefaultsLine(commandLine:)``: `relaxed defaults: none` when there is
///   none) and a line on where its caches are.
/// - SIGTERM or SIGINT: stops accepting, finishes the requests in flight, prints
///   `webimage serve: stopped` and exits 0 (``ServeSignals``); a second signal exits at once
///   with status 1.
/// - Decisions (the issue's): port 8888 and `/healthcheck` as thumbor; signed URLs unless
///   `--allow-unsigned`; every option also an environment variable (``ServeEnvironment``).
struct ServeCommand: Command {
    static let name = "serve"
    static let summary = "Serve images over HTTP: thumbor URLs, signed, cached (memory, disk, Redis)"
    static let help = """
        USAGE: webimage serve [--port N] [--host ADDRESS] (--key KEY | --key-file FILE | --allow-unsigned)
                              [--cache-dir DIR | --no-cache] [--redis URL] [--root DIR] [options]

        Serves thumbor-style image URLs (/<signature>/<options>/<source> or, with
        --allow-unsigned, /unsafe/<options>/<source>): fetches the source, resizes, crops,
        filters and re-encodes it, and caches originals and results. With meta/ before the
        options (/unsafe/meta/300x200/<source>) it answers thumbor's JSON metadata instead
        (?callback=NAME: JSONP).

        SOURCES: http://... and https://... are fetched (public addresses only unless
        --allow-private-sources). A source without a scheme is a file under --root when
        there is one (with --file-fallback-http, fetched over HTTP when the file does not
        exist), else host[:port]/path fetched from http://host[:port]/path, as thumbor's
        default loader; percent-encoded (http%3A%2F%2F...) and plain forms both. GET /healthcheck and
        /health answer WORKING; /metrics has Prometheus counters. Prints the address it
        listens on, then, on standard error, every setting that relaxes a safe default
        (with the flag or variable it came from) and one access-log line per request.
        SIGTERM or SIGINT stops it gracefully (requests in flight finish; exit status 0).

        OPTIONS (each also an environment variable: --max-age is WEBIMAGE_SERVE_MAX_AGE;
        the command line wins):
          --port N              TCP port (default 8888, as thumbor; 0 picks a free one).
          --host ADDRESS        Address to listen on (default 0.0.0.0; 127.0.0.1 for local only).
          --key KEY             The security key URLs are signed with (HMAC-SHA1). Prefer
                                --key-file or WEBIMAGE_SERVE_KEY: a flag shows in 'ps'.
          --key-file FILE       Read the key from FILE (surrounding whitespace dropped).
          --allow-unsigned      Also serve /unsafe/ URLs (thumbor's ALLOW_UNSAFE_URL).
          --allow-private-sources
                                Fetch from loopback, private, link-local and other non-public
                                addresses too (refused by default, against SSRF).
          --allow-svg           Rasterise SVG sources (librsvg, SVGCoder) and serve them as
                                PNG, JPEG, WebP or AVIF (never SVG); refused (422) by default.
          --allow-source-host H Only fetch from host H (exact, or *.example.com for its
                                subdomains); repeatable, or comma-separated. Default: any
                                public host.
          --allow-source-address CIDR
                                Also fetch from this non-public address or network (an
                                origin on a private network: 10.1.0.0/16, 192.168.1.7,
                                fd00:1::/32) while other non-public ones stay refused;
                                repeatable, or comma-separated. Each redirect is judged
                                again. Default: none.
          --proxy URL           Fetch origins through this HTTP proxy: http://HOST:PORT or
                                https://..., with USER:PASSWORD@ if it needs them (prefer
                                WEBIMAGE_SERVE_PROXY then: a flag shows in 'ps'). Each
                                target's address is still judged first and reached through
                                CONNECT to that address; the proxy's own address needs no
                                allowance. Default: none; http_proxy, https_proxy and
                                all_proxy are not used (they are, by libcurl, with
                                --allow-private-sources and no --proxy).
          --root DIR            Serve sources without a scheme from files under DIR (no path
                                may leave it; a missing file is 404), as thumbor's
                                file_loader. Default: none: a source without a scheme is
                                fetched over HTTP, as thumbor's default http_loader:
                                /unsafe/300x200/example.com/a.png loads
                                http://example.com/a.png (host[:port]/path, under the same
                                guard and --allow-source-host as http:// sources).
          --file-fallback-http  With --root: fetch a source whose file does not exist over
                                HTTP instead, as thumbor's file_loader_http_fallback.
          --cache-dir DIR       Keep the caches in DIR/originals and DIR/results (default:
                                ~/.cache/swiftwebimage/serve-originals and serve-results).
          --no-cache            No memory or disk cache (Redis still, with --redis).
          --memory-limit SIZE   Memory the whole server may use (K, M, G suffixes; default 85%
                                of the cgroup's limit when one is set, else 1G): the caches,
                                the decodes in flight (a decode that does not fit waits, then
                                is 503) and a 160 MiB baseline.
          --memory-cache-mb N   Memory for the caches, in MiB (default 512, at most half of
                                what the baseline leaves of the memory limit: 1/2 decoded
                                originals, 1/4 reduced copies of them, 1/4 results).
          --disk-cache-mb N     Disk for the caches, in MiB (default 2048; half each).
          --redis URL           Share originals and results with a fleet through Redis:
                                redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]. Asked after memory
                                and disk; an outage only costs hit rate.
          --redis-namespace P   Redis namespaces P-originals and P-results (default webimage-serve).
          --redis-sentinel LIST A master watched by Redis Sentinels instead of one server:
                                host:port,host:port (port 26379 by default), with
                                --redis-master NAME. Failovers are followed. --redis, if given,
                                supplies only the user, password and database.
          --redis-master NAME   The name the Sentinels monitor the master by.
          --redis-sentinel-password P
                                The Sentinels' own password (requirepass), if they have one.
          --redis-read-replicas Send queries to a replica (Sentinel; stores go to the master).
          --redis-cluster LIST  A Redis Cluster instead of one server: host:port,... of any of
                                its nodes (the slot map is read from them). --redis, if given,
                                supplies only the user and password.
          --max-source-bytes N  Largest source body (default 50M; K, M, G suffixes).
          --max-source-pixels N Largest source frame, in pixels (default 50000000).
          --max-total-pixels N  Largest pixel total over every frame (default 200000000).
          --max-frames N        Most frames in a source (default 1000).
          --max-output N        Largest output side, in pixels (default 8192).
          --max-url-length N    Longest request path, in bytes (default 4096).
          --max-filters N       Most filters one URL may name (default 32; more is 400).
          --max-filter-work N   Most pixel operations one URL's filters may ask for: output
                                pixels times the kernel's taps (blur(r): 4r + 2), summed
                                (default 2000000000).
          --timeout SECONDS     Deadline of one request (default 30): 504 after it.
          --origin-timeout SECONDS
                                An origin fetch that receives nothing for this long fails
                                with 502 (default 15, the downloader's idle timeout).
          --queue N             Transforms that may wait for a worker (default 64); beyond,
                                503 with Retry-After.
          --workers N           Transforms at once (default: the number of cores).
          --threads N           HTTP threads (default: the number of cores, at least 2).
          --max-connections N   Connections open at once (default 1024).
          --max-connections-per-client N
                                Connections one client address may have open at once
                                (default 64; 0 for no limit). Behind a reverse proxy every
                                connection comes from the proxy: raise it, or give 0.
          --client-timeout SECONDS
                                A client must send a complete request within this long of
                                connecting or of its previous answer, else its connection
                                is closed (default 10; 0 for none). Also closes idle
                                keep-alive connections.
          --max-age SECONDS     Cache-Control max-age of answers (default 86400).
          --quality N           Quality when the URL gives none, 1...100 (default 80).
          --keep-profile        Keep the sources' colour profiles and embed them in the
                                answers, as thumbor does (strip_icc() drops one). Default:
                                convert tagged sources to sRGB and embed none, as imgproxy.
          --no-shrink-on-load   Decode every source at full size (kept in memory whole).
                                Default: a source whose answer is at least 2x smaller is
                                decoded at a reduced size that covers it (a JPEG's DCT
                                scaling, as libvips' thumbnail), faster and smaller.
          --webp-method N       libwebp's method for WebP answers, 0 (fastest) to 6
                                (smallest); default 2: under half the encoder time of
                                method 4 (thumbor's and libvips' default) for files
                                about 5% larger; 4 writes thumbor's bytes.
          --progressive-jpeg MODE
                                auto (default): progressive JPEG answers from a size where
                                progressive files are the smaller (about 200x150 at quality
                                80, fewer pixels at higher qualities), baseline below; on:
                                always progressive, as thumbor's PROGRESSIVE_JPEG; off:
                                always baseline. Huffman tables are optimised either way.
          --smart MODE          What 'smart' in a URL does: centre (default: the crop is
                                centred or aligned, as thumbor without a detector) or
                                attention (the crop goes where edges, skin tones and colour
                                are, as libvips' attention crop).
          --access-log DEST     '-' standard error (default), a file to append to, or 'off'.
          -h, --help            Show this help.

        EXAMPLES:
          WEBIMAGE_SERVE_KEY=secret webimage serve --port 8888 --cache-dir /var/cache/webimage
          webimage serve --allow-unsigned --host 127.0.0.1 --root ./images
          webimage serve --key-file /etc/webimage/key --redis redis://10.0.0.5:6379
        """

    let console: Console

    init(console: Console) {
        self.console = console
    }

    func run(_ arguments: [String]) async throws -> Int32 {
        let parser = ArgumentParser(
            command: Self.name,
            flags: ServeOptions.flags,
            options: ServeOptions.valueOptions,
            repeatable: ServeOptions.repeatable
        )
        let parsed = try parser.parse(arguments)
        if parsed.has("--help") {
            console.printText(Self.help)
            return ExitStatus.success
        }
        let merged = try ServeEnvironment.merge(parsed, environment: ProcessInfo.processInfo.environment, command: Self.name)
        let options = try ServeOptions(merged, command: Self.name)
        let server = try Self.makeServer(options, command: Self.name)

        let stopping = ServeShutdown()
        ServeSignals.install { number in
            if stopping.signal() {
                console.printError("webimage \(Self.name): \(ServeSignals.name(number)): stopping; finishing the requests in flight")
            } else {
                console.printError("webimage \(Self.name): \(ServeSignals.name(number)) again: exiting now")
                exit(ExitStatus.failure)
            }
        }
        do {
            try server.start()
        } catch {
            throw CLIError.failure("\(Self.name): cannot listen on \(options.http.host) port \(options.http.port): \(ErrorReport(error).message)")
        }
        let host = options.http.host.contains(":") ? "[\(options.http.host)]" : options.http.host
        console.print("webimage \(Self.name): listening on http://\(host):\(server.port)")
        console.printError("webimage \(Self.name): \(options.relaxedDefaultsLine(commandLine: parsed))")
        let budget = server.memoryBudget
        console.printError("webimage \(Self.name): memory limit \(ByteCount.format(Int64(budget.limit))) (\(options.serve.memoryLimit == nil ? "default" : "--memory-limit")): caches \(ByteCount.format(Int64(options.serve.effectiveMemoryCacheBytes))), decodes in flight \(ByteCount.format(Int64(budget.decodeCapacity)))\(options.serve.effectiveMemoryCacheBytes < options.serve.memoryCacheBytes ? "; --memory-cache-mb lowered to fit the limit" : "")")
        console.printError("webimage \(Self.name): caches: \(server.caches.summary); \(options.server.securityKey == nil ? "unsigned URLs only" : options.server.allowsUnsigned ? "signed and unsigned URLs" : "signed URLs only")")
        await stopping.wait()
        // In-flight requests end within their deadline; a little more for the answers to go out.
        await server.shutdown()
        console.printError("webimage \(Self.name): stopped")
        return ExitStatus.success
    }

    /// Builds the server `options` describe, not yet listening: the library's
    /// ``/WebImageServe/ImageServe`` with the coders ``coders(webpMethod:allowsSVG:)`` makes.
    /// - Throws: ``CLIError`` when the access log cannot be opened.
    static func makeServer(_ options: ServeOptions, command: String) throws(CLIError) -> ImageServe {
        var configuration = options.serve
        configuration.coder = coders(webpMethod: options.webpMethod, allowsSVG: options.serve.server.allowsSVGSources)
        do {
            return try ImageServe(configuration: configuration)
        } catch {
            throw .failure("\(command): \(error.message)")
        }
    }

    /// The coders `webimage serve` decodes and encodes with: the built-in coders and the
    /// plug-in coders (``PluginCoders``), WebP with `--webp-method`. A manager of its own: the
    /// server changes no shared manager, and the WIRL demo format is not among them. The vector
    /// coders are left out so that a refused source is never rendered: `SVGCoder` unless
    /// `allowsSVG` (`--allow-svg`), `PDFCoder` always (PDF sources are not served).
    static func coders(webpMethod: Int, allowsSVG: Bool = false) -> CodersManager {
        let coders = CodersManager(BuiltInCoders.all + PluginCoders.all.map(\.coder).filter { coder in
            !(coder is PDFCoder) && (allowsSVG || !(coder is SVGCoder))
        })
        if webpMethod != 4 {
            // Added last, so it is asked first for WebP.
            coders.add(WebPCoder(method: webpMethod))
        }
        return coders
    }
}
