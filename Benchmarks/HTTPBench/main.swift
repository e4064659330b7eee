// webimage-http-bench: an HTTPServer answering every request with a fixed body, to measure
// the HTTP layer alone (libmicrohttpd, suspend/resume, one Swift task per request) with wrk:
//
//     swift build -c release --product webimage-http-bench
//     .build/release/webimage-http-bench --port 8899 --body-bytes 100 &   # port 0 (default) picks one
//     wrk -t2 -c8 -d10s --latency http://127.0.0.1:8899/unsafe/100x100/a.jpg
//
// Measured on the project's 2-core machine (wrk on the same cores, load average about 2):
// 45.5k-49.1k requests/s over 3 rounds (median 46.8k), p99 0.50-0.79 ms, about 28 us of server
// CPU per request (mostly the kernel: waking a task thread and the server thread for each
// suspend/resume); 1, 2 or 4 server threads within the noise; 23k-30k requests/s with a
// 50 KB body.
//
// Flags: --host ADDRESS (127.0.0.1), --port N (0: a free one, printed), --threads N (server
// threads; default as HTTPServerConfiguration), --body-bytes N (100). Stops on SIGINT/SIGTERM.
import Dispatch
import Foundation
import WebImageCore
import WebImageHTTPServer
import WebImageServer

/// Answers every request with the same response.
struct FixedBodyHandler: ServerRequestHandler {
    let response: ServerResponse

    func respond(to request: ServerRequest) async -> ServerResponse {
        response
    }
}

/// Returns on the first SIGINT or SIGTERM.
func waitForTerminationSignal() async {
    let waiter = Locked<CheckedContinuation<Void, Never>?>(nil)
    let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
        signal(number, SIG_IGN)
        return DispatchSource.makeSignalSource(signal: number, queue: .global())
    }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        waiter.withLock { $0 = continuation }
        for source in sources {
            source.setEventHandler {
                let first = waiter.withLock { value -> CheckedContinuation<Void, Never>? in
                    defer { value = nil }
                    return value
                }
                first?.resume()
            }
            source.resume()
        }
    }
    for source in sources { source.cancel() }
}

var configuration = HTTPServerConfiguration()
configuration.host = "127.0.0.1"
configuration.port = 0
var bodyBytes = 100
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    guard let value = arguments.next() else {
        FileHandle.standardError.write(Data("webimage-http-bench: \(argument) needs a value\n".utf8))
        exit(64)
    }
    switch argument {
    case "--host": configuration.host = value
    case "--port": configuration.port = Int(value) ?? configuration.port
    case "--threads": configuration.threadCount = Int(value) ?? configuration.threadCount
    case "--body-bytes": bodyBytes = Int(value) ?? bodyBytes
    default:
        FileHandle.standardError.write(Data("webimage-http-bench: unknown flag \(argument)\n".utf8))
        exit(64)
    }
}

let body = Data((0..<bodyBytes).map { UInt8(ascii: "a") + UInt8($0 % 26) })
let handler = FixedBodyHandler(response: ServerResponse(status: 200, headers: [("Content-Type", "text/plain")], body: body))
let server = HTTPServer(configuration: configuration, handler: handler)
do {
    try server.start()
} catch {
    FileHandle.standardError.write(Data("webimage-http-bench: \(error)\n".utf8))
    exit(1)
}
FileHandle.standardOutput.write(Data("webimage-http-bench listening on \(configuration.host) port \(server.port), \(configuration.threadCount) threads, \(bodyBytes)-byte body\n".utf8))
await waitForTerminationSignal()
await server.shutdown(gracePeriod: .seconds(5))
