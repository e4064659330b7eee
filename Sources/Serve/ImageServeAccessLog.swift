public import Foundation
public import WebImageCore
public import WebImageServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An access log file of an ``ImageServe`` (and `webimage serve`): one line per request, from the
/// image server's ``/WebImageServer/ImageServerConfiguration/accessLog`` entries.
///
/// A line is the time the answer was ready (UTC, milliseconds) and the entry's own line:
/// `2026-11-25T21:55:00.123Z 127.0.0.1 GET /unsafe/300x200/a.jpg 200 12345 3.2ms result-memory`
/// (peer, method, path with control characters, spaces and non-ASCII percent-escaped, status,
/// body bytes, duration, the cache tier that answered). The path is cut after 1000 bytes, so a
/// line stays short whatever the URL.
///
/// Each line is one `write(2)` (no buffering: nothing is lost when the process ends, and lines of
/// concurrent requests never interleave); a write that fails (a closed pipe) is dropped.
public final class ImageServeAccessLog: Sendable {
    private let descriptor: Int32
    private let closesDescriptor: Bool

    /// A log on the file descriptor `descriptor` (closed when the log is released if `closing`).
    /// - Parameters:
    ///   - descriptor: An open file descriptor (`STDERR_FILENO` for standard error).
    ///   - closing: Whether the log owns the descriptor.
    public init(descriptor: Int32, closing: Bool) {
        self.descriptor = descriptor
        self.closesDescriptor = closing
    }

    /// A log appended to the file at `path`, made if missing.
    /// - Throws: ``/WebImageCore/WebImageError/Code/invalidArgument`` naming the file and the
    ///   system's reason when it cannot be opened.
    public static func appending(to path: String) throws(WebImageError) -> ImageServeAccessLog {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw WebImageError(.invalidArgument, "cannot open the access log \(path): \(SystemCalls.message(errno))")
        }
        return ImageServeAccessLog(descriptor: descriptor, closing: true)
    }

    deinit {
        if closesDescriptor { close(descriptor) }
    }

    /// Writes the line of `entry` (one `write(2)`).
    /// - Parameter entry: The image server's record of one request.
    public func write(_ entry: ImageServerAccessLogEntry) {
        let bytes = Array(Self.line(for: entry, at: Date()).utf8)
        bytes.withUnsafeBytes { _ = SystemCalls.writeAll(descriptor, $0) }
    }

    /// The line for `entry` written at `date`, with its newline.
    /// - Parameters:
    ///   - entry: The image server's record of one request.
    ///   - date: When the answer was ready.
    public static func line(for entry: ImageServerAccessLogEntry, at date: Date) -> String {
        var entry = entry
        if entry.path.utf8.count > 1000 {
            entry.path = String(decoding: entry.path.utf8.prefix(1000), as: UTF8.self) + "..."
        }
        return timestamp(date) + " " + entry.line + "\n"
    }

    /// `2026-11-25T21:55:00.123Z`.
    static func timestamp(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        let milliseconds = min(999, Int((interval - interval.rounded(.down)) * 1000))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
            Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), milliseconds
        )
    }
}
