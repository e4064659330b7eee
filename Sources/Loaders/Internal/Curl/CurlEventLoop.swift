import CCurl
import Foundation
import WebImageCore

/// The one thread that drives every transfer of a ``Downloader`` through libcurl's multi
/// interface: it adds and removes easy handles, runs `curl_multi_perform`, reads finished
/// transfers, enforces the idle and total deadlines, and sleeps in `curl_multi_poll` until a
/// socket is ready, a deadline is due, or another thread posts a command and wakes it with
/// `curl_multi_wakeup`.
///
/// Every libcurl call of the downloader happens on this thread, so the easy handles, the multi
/// handle and each ``CurlExchange``'s parsing state need no lock. Other threads only post
/// commands (start, cancel, stop) into a `Locked` queue.
///
/// `@unchecked Sendable`: `multi` and `exchanges` are touched only on the loop thread (after
/// `init`); the command queue is a `Locked`.
final class CurlEventLoop: @unchecked Sendable {
    /// A request from another thread, run on the loop thread.
    private enum Command {
        case start(CurlExchange)
        case cancel(CurlExchange, CurlExchange.Ending)
        case stop
    }

    private let multi: UnsafeMutableRawPointer
    /// Commands for the loop thread; `nil` once the loop has stopped (the multi handle is gone).
    private let commands = Locked<[Command]?>([])
    /// The exchanges on the multi handle, by easy handle. Loop thread only.
    private var exchanges: [UnsafeMutableRawPointer: CurlExchange] = [:]
    /// Easy handles of ended exchanges, reset (`curl_easy_reset`: every option back to its
    /// default), for the next exchanges. Loop thread only.
    ///
    /// Why: a new handle per download allocated and freed libcurl's state and its 100 KiB
    /// receive buffer each time; with sixteen downloads at a time, glibc trimmed and regrew
    /// the heap around them, and zeroing the fresh pages was a visible cost per download. A
    /// reset handle keeps its buffer (and its TLS session cache, whose entries libcurl
    /// resumes only under the same TLS settings).
    private var idleHandles: [UnsafeMutableRawPointer] = []
    /// The most reset handles kept (each holds about 110 KiB).
    static let maximumIdleHandles = 8

    /// Starts the loop thread.
    /// - Parameter maximumConnectionsPerHost: `CURLMOPT_MAX_HOST_CONNECTIONS` (0: no limit).
    init(maximumConnectionsPerHost: Int) {
        CurlEventLoop.initializeLibcurl
        // curl_multi_init fails only when out of memory.
        guard let multi = curl_multi_init() else { fatalError("curl_multi_init failed (out of memory)") }
        self.multi = multi
        _ = wi_curl_multi_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, max(0, maximumConnectionsPerHost))
        _ = wi_curl_multi_set_long(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX)
        let thread = Thread { [self] in run() }
        thread.name = "SwiftWebImage.Downloader.curl"
        thread.start()
    }

    /// `curl_global_init` once per process, before the first handle (it is not thread-safe
    /// before 7.84; FoundationNetworking may have called it already, which is fine: it counts).
    private static let initializeLibcurl: Void = {
        _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    /// Starts `exchange` on the loop thread.
    func start(_ exchange: CurlExchange) {
        post(.start(exchange))
    }

    /// Ends `exchange` (if it is still running) and reports `ending` to its owner.
    func cancel(_ exchange: CurlExchange, _ ending: CurlExchange.Ending = .cancelled) {
        post(.cancel(exchange, ending))
    }

    /// Ends every exchange as cancelled and stops the thread (the downloader's deinit).
    func stop() {
        post(.stop)
    }

    /// Queues a command and wakes the loop, under the lock that the loop's end takes too, so
    /// that no wake-up reaches a cleaned-up multi handle. After the stop, a cancel has
    /// nothing left to cancel and is dropped.
    ///
    /// Only the command that finds the queue empty wakes the loop: the loop takes the whole
    /// queue after that wake-up, so the commands queued behind it need none of their own.
    private func post(_ command: Command) {
        commands.withLock { commands in
            guard commands != nil else { return }
            let wasEmpty = commands?.isEmpty ?? true
            commands?.append(command)
            if wasEmpty { curl_multi_wakeup(multi) }
        }
    }

    // MARK: Loop thread

    private func run() {
        var stopping = false
        while !stopping {
            let pending = commands.withLock { commands -> [Command] in
                defer { commands?.removeAll(keepingCapacity: true) }
                return commands ?? []
            }
            for command in pending {
                switch command {
                case .start(let exchange):
                    add(exchange)
                case .cancel(let exchange, let ending):
                    if let handle = exchange.handle, exchanges[handle] != nil { finish(handle, ending) }
                case .stop:
                    stopping = true
                }
            }
            if stopping { break }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            readFinished()
            let wait = enforceDeadlines()
            if commands.withLock({ $0?.isEmpty == false }) { continue }
            curl_multi_poll(multi, nil, 0, Int32(wait), nil)
        }
        for handle in Array(exchanges.keys) { finish(handle, .cancelled) }
        for handle in idleHandles { curl_easy_cleanup(handle) }
        idleHandles = []
        let late = commands.withLock { commands -> [Command] in
            defer {
                commands = nil
                curl_multi_cleanup(multi)
            }
            return commands ?? []
        }
        // Exchanges started after the stop (a redirect's next hop) end as cancelled.
        for case .start(let exchange) in late { exchange.complete(.cancelled) }
    }

    private func add(_ exchange: CurlExchange) {
        guard let handle = exchange.prepare(reusing: idleHandles.popLast()) else {
            recycle(exchange.releaseHandle())
            return
        }
        exchanges[handle] = exchange
        let code = curl_multi_add_handle(multi, handle)
        if code != CURLM_OK {
            finish(handle, .failed(CURLE_FAILED_INIT, "curl_multi_add_handle failed: \(String(cString: curl_multi_strerror(code)))"))
        }
    }

    /// Removes a handle from the multi handle and tells its exchange how it ended.
    private func finish(_ handle: UnsafeMutableRawPointer, _ ending: CurlExchange.Ending) {
        guard let exchange = exchanges.removeValue(forKey: handle) else { return }
        curl_multi_remove_handle(multi, handle)
        exchange.complete(ending)
        recycle(exchange.releaseHandle())
    }

    /// Resets an easy handle that is off the multi handle and keeps it for the next exchange,
    /// or cleans it up when enough are kept.
    private func recycle(_ handle: UnsafeMutableRawPointer?) {
        guard let handle else { return }
        if idleHandles.count < Self.maximumIdleHandles {
            curl_easy_reset(handle)
            idleHandles.append(handle)
        } else {
            curl_easy_cleanup(handle)
        }
    }

    private func readFinished() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            let code = wi_curl_msg_result(message)
            finish(handle, code == CURLE_OK ? .finished : .failed(code, nil))
        }
    }

    /// Ends the exchanges whose idle or total deadline has passed; returns how long the loop
    /// may sleep (milliseconds) before the next deadline could pass.
    private func enforceDeadlines() -> Int {
        guard !exchanges.isEmpty else { return 10_000 }
        let now = ContinuousClock.now
        var wait = Duration.seconds(1)
        for (handle, exchange) in exchanges {
            if let ending = exchange.deadlineEnding(at: now) {
                finish(handle, ending)
            } else if let next = exchange.nextDeadline {
                wait = min(wait, next - now)
            }
        }
        let (seconds, attoseconds) = wait.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000) + 1)
    }
}
