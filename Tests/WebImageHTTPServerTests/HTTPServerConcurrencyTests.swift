import Foundation
import Testing
import WebImageHTTPServer
import WebImageServer
import WebImageTestSupport

/// Slow handlers, many clients, clients that leave.
@Suite struct HTTPServerConcurrencyTests {
    @Test func aSlowAnswerDoesNotHoldUpOtherRequests() async throws {
        let gate = AsyncGate()
        let handler = ClosureHandler { request in
            if request.path == "/slow" { await gate.wait() }
            return ServerResponse(status: 200, body: Data(request.path.utf8))
        }
        // One server thread: were the slow request holding it, the fast one could not pass.
        let server = try HTTPServerRequestTests.makeServer(handler) { $0.threadCount = 1 }
        let slow = try await RawHTTPConnection.open(port: server.port)
        try await slow.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await gate.waitForArrivals(1)
        let fast = try await RawHTTPConnection.open(port: server.port)
        #expect(try await fast.request("/fast").text == "/fast")
        #expect(try await fast.request("/fast2").text == "/fast2")
        gate.open()
        let slowResponse = try await slow.readResponse()
        #expect(slowResponse.text == "/slow")
        await server.shutdown()
    }

    @Test func fiftyConcurrentRequestsAreAllAnswered() async throws {
        let gate = AsyncGate()
        let handler = ClosureHandler { request in
            await gate.wait()
            return ServerResponse(status: 200, body: Data("answer \(request.path)".utf8))
        }
        let server = try HTTPServerRequestTests.makeServer(handler)
        let port = server.port
        try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<50 {
                group.addTask {
                    let connection = try await RawHTTPConnection.open(port: port)
                    return (index, try await connection.request("/r\(index)").text)
                }
            }
            // All fifty are inside the handler at once before any is answered.
            await gate.waitForArrivals(50)
            gate.open()
            var answers: [Int: String] = [:]
            for try await (index, text) in group { answers[index] = text }
            #expect(answers.count == 50)
            for index in 0..<50 { #expect(answers[index] == "answer /r\(index)") }
        }
        await server.shutdown()
    }

    @Test func aClientThatLeavesDuringASlowAnswerDoesNotDisturbTheServer() async throws {
        let gate = AsyncGate()
        let answered = AsyncGate()
        let handler = ClosureHandler { request in
            if request.path == "/slow" {
                await gate.wait()
                answered.open()
            }
            return ServerResponse(status: 200, body: Data(repeating: 1, count: 100_000))
        }
        let server = try HTTPServerRequestTests.makeServer(handler) { $0.threadCount = 1 }
        do {
            let leaving = try await RawHTTPConnection.open(port: server.port)
            try await leaving.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            await gate.waitForArrivals(1)
        }  // closed here
        gate.open()
        await answered.wait()
        let other = try await RawHTTPConnection.open(port: server.port)
        #expect(try await other.request("/next").body.count == 100_000)
        // The abandoned request completed: shutdown does not wait out its grace period.
        await server.shutdown(gracePeriod: .seconds(600))
    }
}
