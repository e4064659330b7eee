import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGTERM and SIGINT for `webimage serve`: the first asks for a graceful shutdown, a second one
/// ends the process at once (exit status 1).
///
/// Decision: a `sigaction` handler that writes the signal's number to a pipe (the self-pipe
/// trick), read by a thread of its own that unblocks both signals, instead of a `DispatchSource`
/// signal source. On Linux, libdispatch reads signals through a `signalfd`, which only sees a
/// signal that every thread blocks; a process started from a thread that blocks SIGTERM (a
/// dispatch worker of a test, say) inherits that mask, and a mix of blocking and non-blocking
/// threads could lose the signal. Here at least one thread (the reader) always accepts them,
/// and whichever thread runs the handler, the byte reaches the reader.
enum ServeSignals {
    /// The pipe the handler writes to: (read end, write end). Made before the handler is installed.
    private static let pipeDescriptors: (read: Int32, write: Int32) = {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return (-1, -1) }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        return (descriptors[0], descriptors[1])
    }()

    /// The write end, as the handler reads it (a plain global: no lazy initialisation in the handler).
    nonisolated(unsafe) private static var handlerDescriptor: Int32 = -1

    /// Installs the handlers for SIGTERM and SIGINT (and ignores SIGPIPE: a client that goes away
    /// is the HTTP server's business), then calls `onSignal` on a thread of its own for every
    /// signal that arrives, with the signal's number. Call once, before the server starts.
    /// - Returns: `false` when the pipe could not be made.
    @discardableResult
    static func install(onSignal: @escaping @Sendable (Int32) -> Void) -> Bool {
        let descriptors = pipeDescriptors
        guard descriptors.read >= 0 else { return false }
        handlerDescriptor = descriptors.write
        signal(SIGPIPE, SIG_IGN)
        for number in [SIGTERM, SIGINT] {
            var action = sigaction()
            #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = ServeSignals_handler
            #else
            action.__sigaction_handler.sa_handler = ServeSignals_handler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        let thread = Thread {
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGTERM)
            sigaddset(&set, SIGINT)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            var byte: UInt8 = 0
            while true {
                let count = read(descriptors.read, &byte, 1)
                if count == 1 {
                    onSignal(Int32(byte))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
        thread.name = "webimage serve signals"
        thread.start()
        // Unblock here too: the calling thread's children (the HTTP server's threads) inherit it.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        return true
    }

    /// The name of a signal number, for messages.
    static func name(_ number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        default: "signal \(number)"
        }
    }

    /// What the handler does: one `write(2)` of the signal's number (async-signal-safe).
    fileprivate static func deliver(_ number: Int32) {
        let saved = errno
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(handlerDescriptor, &byte, 1)
        errno = saved
    }
}

/// The C signal handler: forwards to ``ServeSignals``.
private func ServeSignals_handler(_ number: Int32) {
    ServeSignals.deliver(number)
}
