#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX calls the access log and the `webimage` commands need, wrapped once (the
/// commands reach them through `package` access).
package enum SystemCalls {
    /// Writes every byte of `buffer` to `descriptor`, retrying on `EINTR`.
    /// - Returns: 0, or the `errno` of the failure (`EIO` if nothing could be written).
    @discardableResult
    package static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                return written < 0 ? errno : EIO
            }
        }
        return 0
    }

    /// The system's message for an `errno` value.
    package static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Whether `descriptor` is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }
}
