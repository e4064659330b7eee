import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An epoll set that reports when the peer of a socket in it hangs up, and a descriptor that
/// wakes its one waiter: the machinery behind ``OpenConnections``' watch on the connections
/// whose request is being answered.
///
/// What counts as a hang-up: the end of the peer's stream (a FIN, `EPOLLRDHUP`: the client
/// closed its socket or shut down its sending side), a reset or an error (`EPOLLHUP`,
/// `EPOLLERR`). Data to read is not: a client may send its next request (pipelined) before the
/// answer, and such a socket stays watched. A client that only half-closes (`shutdown(SHUT_WR)`)
/// after its request counts as gone, as in nginx: libmicrohttpd itself closes a connection
/// whose stream has ended as soon as it reads it, so no answer would reach that client anyway.
///
/// Each socket is reported once (`EPOLLONESHOT`) under the token it was added with; its owner
/// removes it before its descriptor is closed (an epoll set follows the open file, not the
/// number, so a socket closed while listed could be reported under a later socket's number).
///
/// Thread-safety: ``watch(_:token:)``, ``unwatch(_:)`` and ``wake()`` may be called from any
/// thread, also while ``wait(timeout:)`` runs on the waiter's.
final class HangUpPoller: Sendable {
    /// The token the wake descriptor is reported under; never a socket's.
    static let wakeToken: UInt64 = 0

    private let epoll: Int32
    private let wakeDescriptor: Int32

    /// A poller, or `nil` when the system gives no epoll set or event descriptor (descriptors
    /// exhausted).
    init?() {
        let epoll = webimage_epoll_create()
        guard epoll >= 0 else { return nil }
        let wake = webimage_wake_descriptor()
        guard wake >= 0, webimage_epoll_watch_readable(epoll, wake, Self.wakeToken) == 0 else {
            if wake >= 0 { close(wake) }
            close(epoll)
            return nil
        }
        self.epoll = epoll
        self.wakeDescriptor = wake
    }

    deinit {
        close(wakeDescriptor)
        close(epoll)
    }

    /// Watches `descriptor` for its peer's hang-up, reported once under `token` (not
    /// ``wakeToken``). Returns whether it is watched.
    func watch(_ descriptor: Int32, token: UInt64) -> Bool {
        token != Self.wakeToken && descriptor >= 0 && webimage_epoll_watch_hang_up(epoll, descriptor, token) == 0
    }

    /// Stops watching `descriptor` (reported or not).
    func unwatch(_ descriptor: Int32) {
        _ = webimage_epoll_unwatch(epoll, descriptor)
    }

    /// Makes the waiter's ``wait(timeout:)`` return.
    func wake() {
        webimage_wake(wakeDescriptor)
    }

    /// Waits until a watched socket's peer hangs up, ``wake()`` is called, or `timeout` has
    /// passed (`nil`: no timeout). One thread waits at a time.
    /// - Returns: The tokens of the sockets whose peer hung up (the wake is not among them), and
    ///   whether ``wake()`` was called; `nil` when epoll fails (it does not with a valid set).
    func wait(timeout: Duration?) -> (hangUps: [UInt64], woken: Bool)? {
        var tokens = [UInt64](repeating: 0, count: 64)
        let count = tokens.withUnsafeMutableBufferPointer { buffer in
            webimage_epoll_wait_tokens(epoll, buffer.baseAddress, Int32(buffer.count), Self.milliseconds(timeout))
        }
        guard count >= 0 else { return nil }
        guard count > 0 else { return ([], false) }
        var hangUps: [UInt64] = []
        var woken = false
        for token in tokens[..<Int(count)] {
            if token == Self.wakeToken {
                woken = true
            } else {
                hangUps.append(token)
            }
        }
        return (hangUps, woken)
    }

    /// epoll's timeout for `duration`: rounded up (a wait never ends before its time), -1 for none.
    static func milliseconds(_ duration: Duration?) -> Int32 {
        guard let duration else { return -1 }
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }
}
