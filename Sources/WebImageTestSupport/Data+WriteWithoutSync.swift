public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Data {
    /// Writes these bytes to the file at `url` (created, or truncated when it exists), without
    /// waiting for the disk. For test fixtures: `scripts/check-test-blocking` refuses
    /// `Data.write(to:)` in test code.
    ///
    /// Why: on Linux, Foundation's `Data.write(to:)` ends every non-empty write with `fsync`,
    /// which waits until the bytes are on the disk. Tests write their fixtures on a thread of
    /// Swift's cooperative pool, and a full run wrote hundreds of files there (829 `fsync`
    /// calls on pool threads in one run, perf); on a machine whose disk is busy with the builds
    /// beside the tests, each can hold the thread from milliseconds to seconds, and every other
    /// test's `await` waits. A test file needs no durability: whoever reads it (this process or
    /// a child process) reads the page cache.
    /// - Throws: `CocoaError` (`.fileWriteUnknown` with the `POSIXError`) when the file cannot
    ///   be opened or written.
    public func writeWithoutSync(to url: URL) throws {
        let path = url.path
        #if canImport(Glibc)
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        #else
        let descriptor = Darwin.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        #endif
        guard descriptor >= 0 else { throw Self.writeError(path) }
        defer { close(descriptor) }
        try withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                #if canImport(Glibc)
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                #else
                let written = Darwin.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                #endif
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    throw Self.writeError(path)
                }
            }
        }
    }

    private static func writeError(_ path: String) -> CocoaError {
        let code = POSIXErrorCode(rawValue: errno) ?? .EIO
        return CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSUnderlyingErrorKey: POSIXError(code)])
    }
}
