import Foundation
import Testing
import SwiftWebImage
import WebImageServe
import WebImageServer
import WebImageTestSupport

/// The serving memory limit: read from the control group, split between the caches, the
/// baseline and the decodes, and handed to the server and the caches as one budget.
@Suite struct MemoryLimitTests {
    @Test func limitFilesAreParsed() {
        #expect(CgroupMemoryLimit.parse("max\n") == nil)
        #expect(CgroupMemoryLimit.parse("536870912\n") == 536_870_912)
        // cgroup v1's "no limit": Int64.max rounded down to a page.
        #expect(CgroupMemoryLimit.parse("9223372036854771712\n") == nil)
        #expect(CgroupMemoryLimit.parse("") == nil)
        #expect(CgroupMemoryLimit.parse("-1") == nil)
    }

    @Test func theGroupsOwnFileComesFirst() {
        let v2 = CgroupMemoryLimit.candidateFiles(membership: "0::/system.slice/webimage.service\n", root: "/cg")
        #expect(v2 == ["/cg/system.slice/webimage.service/memory.max", "/cg/memory.max", "/cg/memory/memory.limit_in_bytes"])
        let v1 = CgroupMemoryLimit.candidateFiles(membership: "4:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc\n", root: "/cg")
        #expect(v1 == ["/cg/memory/docker/abc/memory.limit_in_bytes", "/cg/memory.max", "/cg/memory/memory.limit_in_bytes"])
        #expect(CgroupMemoryLimit.candidateFiles(membership: "0::/\n", root: "/cg") == ["/cg/memory.max", "/cg/memory/memory.limit_in_bytes"])
    }

    @Test func theLimitIsReadFromTheGroup() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cgroup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("app.slice"), withIntermediateDirectories: true)
        try Data("0::/app.slice\n".utf8).writeWithoutSync(to: root.appendingPathComponent("cgroup"))
        try Data("805306368\n".utf8).writeWithoutSync(to: root.appendingPathComponent("app.slice/memory.max"))
        try Data("max\n".utf8).writeWithoutSync(to: root.appendingPathComponent("memory.max"))
        #expect(CgroupMemoryLimit.current(proc: root.appendingPathComponent("cgroup").path, root: root.path) == 805_306_368)
        try FileManager.default.removeItem(at: root.appendingPathComponent("app.slice/memory.max"))
        #expect(CgroupMemoryLimit.current(proc: root.appendingPathComponent("cgroup").path, root: root.path) == nil)
    }

    @Test func theLimitIsSplitBetweenCachesBaselineAndDecodes() {
        var configuration = ImageServeConfiguration()
        configuration.memoryLimit = 1 << 30
        #expect(configuration.effectiveMemoryLimit == 1 << 30)
        // Half of what the 160 MiB baseline leaves: 432 MiB, under the 512 MiB asked for.
        #expect(configuration.effectiveMemoryCacheBytes == 432 << 20)
        let budget = configuration.makeMemoryBudget()
        #expect(budget.limit == 1 << 30)
        #expect(budget.fixedBytes == (432 + 160) << 20)
        #expect(budget.decodeCapacity == 432 << 20)
        #expect(budget.maximumWait == configuration.server.requestTimeout)
        // A smaller cache is kept as asked; the decodes get the rest.
        configuration.memoryCacheBytes = 64 << 20
        #expect(configuration.effectiveMemoryCacheBytes == 64 << 20)
        #expect(configuration.makeMemoryBudget().decodeCapacity == (1024 - 64 - 160) << 20)
        // The server's tiers are a quarter each of the caches' memory.
        #expect(configuration.effectiveServerConfiguration.resultMemoryCapacity == 16 << 20)
        // No local cache: everything but the baseline is for decodes.
        configuration.cacheLocation = .disabled
        #expect(configuration.makeMemoryBudget().decodeCapacity == (1024 - 160) << 20)
    }

    @Test func theDefaultLimitIsTheGroupsOrOneGibibyte() {
        let group = CgroupMemoryLimit.current()
        #expect(ImageServeConfiguration.defaultMemoryLimit() == (group.map { $0 / 100 * 85 } ?? 1 << 30))
        #expect(ImageServeConfiguration().effectiveMemoryLimit == ImageServeConfiguration.defaultMemoryLimit())
    }

    @Test func theServerAndTheCachesShareOneBudget() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = ImageServeTests.configuration(folder.appendingPathComponent("cache"))
        configuration.memoryLimit = 512 << 20
        configuration.server.fileRoot = folder
        configuration.tunesAllocator = false
        let source = try JPEGCoder().encode(WebImage(bitmap: TestImages.gradient(width: 32, height: 16)), as: .jpeg)
        try source.writeWithoutSync(to: folder.appendingPathComponent("a.jpg"))
        let serve = try ImageServe(configuration: configuration)
        #expect(serve.images.configuration.memoryBudget === serve.memoryBudget)
        #expect(serve.memoryBudget.limit == 512 << 20)
        let response = await serve.images.respond(to: ServerRequest(method: "GET", path: "/unsafe/16x8/a.jpg"))
        #expect(response.status == 200)
        // Shrink-on-load decodes the 32x16 JPEG at 1/2 for a 16x8 answer and reserves that.
        #expect(serve.memoryBudget.usage.peakReservedBytes == 16 * 8 * 4)
        #expect(serve.memoryBudget.usage.reservedBytes == 0)
        let metrics = await serve.images.respond(to: ServerRequest(method: "GET", path: "/metrics"))
        #expect(String(decoding: metrics.body, as: UTF8.self).contains("webimage_serve_memory_limit_bytes 536870912\n"))
    }
}
