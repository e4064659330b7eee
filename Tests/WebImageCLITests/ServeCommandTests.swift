import Foundation
import Testing
import SwiftWebImage
import WebImageServer
import WebImageTestSupport
@testable import WebImageCLIKit
#if canImport(Glibc)
import Glibc
#endif

/// `webimage serve` as a child process against a loopback origin: it starts, answers health
/// checks, serves signed URLs and refuses the rest, and stops gracefully on SIGTERM.
@Suite struct ServeCommandTests {
    let workspace = Workspace()
    let origin: LoopbackHTTPServer
    let jpeg: Data
    let gate = AsyncGate()

    init() throws {
        WebImageCLI.registerLaunchComponents()
        jpeg = try Fixtures.jpeg(width: 64, height: 48)
        origin = try LoopbackHTTPServer(routes: [
            "/photo.jpg": .data(jpeg, contentType: "image/jpeg"),
            "/slow.jpg": .delayedHeaders(until: gate, then: .data(jpeg, contentType: "image/jpeg")),
        ])
    }

    /// The thumbor path (without the signature part) of a 32x32 fit-in of `/photo.jpg`.
    var fitPath: String { "fit-in/32x32/" + origin.url(for: "/photo.jpg").absoluteString }

    @Test func startsAndAnswersHealthChecks() async throws {
        let server = try await ServeProcess.start(["--allow-unsigned"], home: workspace.home)
        #expect(server.baseURL.port != nil && server.baseURL.port != 0, "the printed URL has the port the system picked")
        for path in ["/healthcheck", "/health"] {
            let answer = try await ServeClient.get(server.url(path))
            #expect(answer.status == 200, "\(path)")
            #expect(String(decoding: answer.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "WORKING")
        }
        server.send(SIGTERM)
        #expect(await server.waitForExit() == 0)
        #expect(server.errorText.contains("webimage serve: stopped"))
        // The access log: one line per request, on standard error by default.
        #expect(server.errorText.contains(" GET /healthcheck 200 "))
        #expect(server.errorText.contains(" GET /health 200 "))
    }

    @Test func servesSignedURLsAndRefusesUnsignedOnesByDefault() async throws {
        let key = "serve-test-key"
        let server = try await ServeProcess.start(["--key", key, "--allow-private-sources", "--no-cache"], home: workspace.home)
        let signature = ThumborSigner(key: key).signature(for: fitPath)
        let signed = try await ServeClient.get(server.url("/\(signature)/\(fitPath)"))
        #expect(signed.status == 200, "\(server.errorText)")
        #expect(signed.header("Content-Type") == "image/jpeg")
        #expect(try CodersManager.shared.decode(signed.body).pixelSize == PixelSize(width: 32, height: 24))

        let unsigned = try await ServeClient.get(server.url("/unsafe/\(fitPath)"))
        #expect(unsigned.status == 403, "unsafe URLs need --allow-unsigned")
        let wrongKey = ThumborSigner(key: "another-key").signature(for: fitPath)
        let forged = try await ServeClient.get(server.url("/\(wrongKey)/\(fitPath)"))
        #expect(forged.status == 403)
        #expect(origin.statistics(for: "/photo.jpg").requestCount == 1, "refused URLs never reach the origin")
        server.send(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test func theKeyComesFromTheEnvironmentToo() async throws {
        let key = "environment-key"
        let server = try await ServeProcess.start(["--allow-private-sources", "--no-cache"], home: workspace.home, environment: ["WEBIMAGE_SERVE_KEY": key])
        let signed = try await ServeClient.get(server.url("/\(ThumborSigner(key: key).signature(for: fitPath))/\(fitPath)"))
        #expect(signed.status == 200, "\(server.errorText)")
        server.send(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test func privateSourcesAreRefusedByDefault() async throws {
        let server = try await ServeProcess.start(["--allow-unsigned", "--no-cache"], home: workspace.home)
        let answer = try await ServeClient.get(server.url("/unsafe/\(fitPath)"))
        #expect(answer.status == 403, "the origin is on 127.0.0.1: refused without --allow-private-sources")
        #expect(origin.statistics(for: "/photo.jpg").requestCount == 0)
        server.send(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test func sigtermFinishesTheRequestInFlightThenExitsZero() async throws {
        let server = try await ServeProcess.start(["--allow-unsigned", "--allow-private-sources", "--no-cache"], home: workspace.home)
        let url = server.url("/unsafe/fit-in/16x16/" + origin.url(for: "/slow.jpg").absoluteString)
        async let answer = ServeClient.get(url)
        // The origin holds the server's fetch: the request is in flight.
        await gate.waitForArrivals(1)
        server.send(SIGTERM)
        // The server has seen the signal before the origin answers.
        #expect(await server.waitForErrorLine(containing: "SIGTERM: stopping") != nil, "\(server.errorText)")
        gate.open()
        let result = try await answer
        #expect(result.status == 200)
        #expect(try CodersManager.shared.decode(result.body).pixelSize == PixelSize(width: 16, height: 12))
        #expect(await server.waitForExit() == 0)
        #expect(server.errorText.contains("webimage serve: stopped"))
    }

    /// Issue 33: an operator sees every relaxed default at start-up, and where it came from.
    @Test func theStartUpLinesNameEveryRelaxedDefault() async throws {
        let server = try await ServeProcess.start(
            ["--allow-unsigned", "--allow-source-host", "images.example.com,*.cdn.example.com", "--max-connections-per-client", "0", "--no-cache"],
            home: workspace.home,
            environment: ["WEBIMAGE_SERVE_ALLOW_PRIVATE_SOURCES": "1"]
        )
        // The caches line comes after it: waiting for that one fails, never hangs, without it.
        #expect(await server.waitForErrorLine(containing: "webimage serve: caches:") != nil)
        let line = try #require(server.errorText.split(separator: "\n").first { $0.contains("relaxed defaults:") }, "\(server.errorText)")
        #expect(line.hasPrefix("webimage serve: relaxed defaults: --allow-unsigned [command line], "
            + "--allow-private-sources [WEBIMAGE_SERVE_ALLOW_PRIVATE_SOURCES], "), "\(line)")
        #expect(line.contains("--max-connections-per-client 0 (no limit) [command line]"), "\(line)")
        // The test runner's own long timers are relaxed defaults too.
        #expect(line.contains("--timeout 600 (default 30) [command line]"), "\(line)")
        #expect(line.contains("--client-timeout 600 (default 10) [command line]"), "\(line)")
        #expect(line.hasSuffix("; sources only from images.example.com, *.cdn.example.com [command line]"), "\(line)")
        server.send(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test func aMissingKeyIsAUsageError() async throws {
        let result = try await CLIRunner.run(["serve", "--port", "0"], home: workspace.home)
        #expect(result.status == ExitStatus.usage)
        #expect(result.stderr.contains("webimage serve: give a security key"))
    }

    @Test func helpListsEveryOption() async throws {
        let result = try await CLIRunner.run(["help", "serve"], home: workspace.home)
        #expect(result.status == 0)
        for option in ServeOptions.flags.union(ServeOptions.valueOptions) {
            #expect(result.stdout.contains(option), "the help names \(option)")
        }
    }
}
