import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageServer

/// The server's manager has the server's loaders (issue 32): a request has one path through the
/// manager, no per-request loader override, and the guard holds for anyone using that manager.
@Suite struct ServingManagerLoaderTests {
    @Test func theManagerFetchesWithTheServersGuardedLoaders() async throws {
        let fixture = try ServingFixture()
        #expect(!fixture.server.injectsLoaders)
        let origin = URL(string: fixture.originSource("/a.jpg"))!
        #expect(fixture.manager.imageLoader.canRequestImage(for: origin))
        #expect(fixture.manager.imageLoader.canRequestImage(for: fixture.root.appendingPathComponent("b.png")))
        let loaded = try await fixture.manager.loadImage(with: origin)
        #expect(loaded.image != nil)

        // Private sources refused: the same manager refuses the loopback origin on its own.
        let guarded = try ServingFixture { $0.allowsPrivateSources = false }
        await #expect(throws: WebImageError.self) {
            _ = try await guarded.manager.loadImage(with: URL(string: guarded.originSource("/a.jpg"))!)
        }
        let response = await guarded.get(path: "/unsafe/10x10/" + guarded.originSource("/a.jpg"))
        #expect(response.status == 403)
    }
}
