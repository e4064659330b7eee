import WebImageCore
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A fake Redis on 127.0.0.1 that a test controls: it accepts connections and never answers
/// (``Mode/silent``), or takes no new connection at all (``Mode/fullBacklog``: its accept
/// queue is full, so the kernel drops new SYNs and a connect waits until the client's connect
/// timeout). The command and connect timeouts are tested against it deterministically.
///
/// Thread-safety: `stop()` may be called from any thread, more than once.
public final class SilentServer: Sendable {
    /// How the server misbehaves.
    public enum Mode: Sendable {
        /// Accepts every connection (and reads what is sent) but never writes a byte.
        case silent
        /// Listens with a backlog of 0 and one connection already parked in the accept queue,
        /// never accepting: further connects hang.
        case fullBacklog
    }

    /// The port on 127.0.0.1.
    public let port: Int
    private let listener: Int32
    private let state = Locked(State())

    private struct State {
        var connections: [Int32] = []
        var stopped = false
    }

    /// Starts a server in `mode`.
    public init(mode: Mode) throws {
        switch mode {
        case .silent:
            (listener, port) = try LoopbackSockets.listen(backlog: 64)
            let fd = listener
            let thread = DispatchQueue(label: "SilentServer.accept.\(port)")
            thread.async { [state] in
                while true {
                    let client = accept(fd, nil, nil)
                    guard client >= 0 else { return }  // the listener was shut down
                    let keep = state.withLock { state -> Bool in
                        guard !state.stopped else { return false }
                        state.connections.append(client)
                        return true
                    }
                    if !keep {
                        LoopbackSockets.closeDescriptor(client)
                        return
                    }
                }
            }
        case .fullBacklog:
            (listener, port) = try LoopbackSockets.listen(backlog: 0)
            let filler = try LoopbackSockets.connect(port: port)
            state.withLock { $0.connections.append(filler) }
        }
    }

    deinit {
        stop()
    }

    /// The connections accepted and still open (``Mode/silent``).
    public var openConnections: Int {
        state.withLock { $0.connections.count }
    }

    /// Closes every accepted connection and keeps listening: each client waiting for an answer
    /// sees its connection closed.
    public func closeConnections() {
        let connections = state.withLock { state -> [Int32] in
            defer { state.connections = [] }
            return state.connections
        }
        for fd in connections {
            _ = shutdown(fd, Int32(SHUT_RDWR))
            LoopbackSockets.closeDescriptor(fd)
        }
    }

    /// Closes the listener and every connection.
    public func stop() {
        let connections = state.withLock { state -> [Int32]? in
            guard !state.stopped else { return nil }
            state.stopped = true
            defer { state.connections = [] }
            return state.connections
        }
        guard let connections else { return }
        _ = shutdown(listener, Int32(SHUT_RDWR))
        LoopbackSockets.closeDescriptor(listener)
        for fd in connections { LoopbackSockets.closeDescriptor(fd) }
    }
}
