import Foundation
import Testing
@testable import WebImageCLIKit

/// `webimage serve --file-fallback-http` (thumbor's `file_loader_http_fallback`): it needs a
/// file root, and it comes from the environment like every flag.
@Suite struct ServeSourceOptionsTests {
    func options(_ arguments: [String], environment: [String: String] = [:]) throws(CLIError) -> ServeOptions {
        let parser = ArgumentParser(command: "serve", flags: ServeOptions.flags, options: ServeOptions.valueOptions, repeatable: ServeOptions.repeatable)
        return try ServeOptions(ServeEnvironment.merge(parser.parse(arguments), environment: environment, command: "serve"), command: "serve")
    }

    @Test func theFallbackNeedsARoot() throws {
        let root = FileManager.default.temporaryDirectory.path
        #expect(try !options(["--key", "k", "--root", root]).server.fetchesMissingFilesOverHTTP)
        #expect(try options(["--key", "k", "--root", root, "--file-fallback-http"]).server.fetchesMissingFilesOverHTTP)
        #expect(try options(["--key", "k", "--root", root], environment: ["WEBIMAGE_SERVE_FILE_FALLBACK_HTTP": "1"]).server.fetchesMissingFilesOverHTTP)
        do {
            _ = try options(["--key", "k", "--file-fallback-http"])
            Issue.record("--file-fallback-http without --root was accepted")
        } catch {
            #expect(error.kind == .usage)
            #expect(error.message.contains("--file-fallback-http needs --root"))
        }
    }
}
