import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `webimage info` reads headers: images that claim gigabytes are described by a child process
/// held to a 512 MB address space (`ulimit -v`), in which a decode of the same file fails.
///
/// Decision: an address-space cap, not the child's ru_maxrss: a child spawned by this test
/// process starts with the test process's memory high-water mark (Linux carries the old mm's
/// hiwater into the child at exec), so in a full test run its ru_maxrss says nothing about
/// `webimage`. `scripts/hostile` measures peak RSS from a small Python parent instead.
@Suite struct InfoHeaderOnlyTests {
    let workspace = Workspace()

    /// A PNG chunk with its CRC.
    static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + payload
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        func be32(_ value: Int) -> [UInt8] { [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        return be32(payload.count) + body + be32(Int(crc))
    }

    /// A PNG declaring 16000 x 16000 RGBA (a 1 GB bitmap, within a 256 MP limit) and an
    /// APNG declaring 60 frames of 8192 x 8192, each with a few bytes of image data.
    static func hostilePNGs() -> (still: Data, animation: Data) {
        func be(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).reversed().map { UInt8(value >> ($0 * 8) & 0xFF) } }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let zlib: [UInt8] = [0x78, 0x01, 0x01, 0x01, 0x00, 0xFE, 0xFF, 0x00, 0x00, 0x01, 0x00, 0x01]
        let still = signature + chunk("IHDR", be(16000, 4) + be(16000, 4) + [8, 6, 0, 0, 0]) + chunk("IDAT", zlib) + chunk("IEND", [])
        var animation = signature + chunk("IHDR", be(8192, 4) + be(8192, 4) + [8, 6, 0, 0, 0]) + chunk("acTL", be(60, 4) + be(0, 4))
        var sequence = 0
        for index in 0..<60 {
            animation += chunk("fcTL", be(sequence, 4) + be(8192, 4) + be(8192, 4) + be(0, 4) + be(0, 4) + be(1, 2) + be(10, 2) + [0, 0])
            sequence += 1
            if index == 0 {
                animation += chunk("IDAT", zlib)
            } else {
                animation += chunk("fdAT", be(sequence, 4) + zlib)
                sequence += 1
            }
        }
        animation += chunk("IEND", [])
        return (Data(still), Data(animation))
    }

    /// Runs `webimage arguments` (paths absolute) with output to /dev/null under an address
    /// space of `kilobytes`; its exit status (128 + n when killed by signal n). Waits through
    /// the child's reaper thread (``SpawnedProcess``), not with `waitpid` on a pool thread.
    func runCapped(_ arguments: [String], kilobytes: Int = 512 * 1024) async throws -> Int32 {
        let executable = try CLIRunner.executableURL().path
        let child = try await SpawnedProcess.start("/bin/sh", arguments: ["-c", "ulimit -v \(kilobytes) && exec \"$0\" \"$@\"", executable] + arguments,
                                                   environment: ["HOME": workspace.home.path, "XDG_CACHE_HOME": "\(workspace.home.path)/cache"])
        switch await child.wait() {
        case .exited(let status): return status
        case .signaled(let signal): return 128 + signal
        }
    }

    @Test func hostileImagesAreDescribedFromTheirHeadersInASmallAddressSpace() async throws {
        let (still, animation) = Self.hostilePNGs()
        try workspace.write(still, to: "big.png")
        try workspace.write(animation, to: "apng.png")
        for name in ["big.png", "apng.png"] {
            #expect(try await runCapped(["info", workspace.path(name)]) == 0, "\(name)")
        }
        // A decode of the still needs its gigabyte: it cannot run in that space.
        #expect(try await runCapped(["convert", workspace.path("big.png"), workspace.path("out.bmp")]) != 0)
    }

    @Test func theDescriptionOfAHostileAnimationNamesTheRefusal() async throws {
        let (_, animation) = Self.hostilePNGs()
        try workspace.write(animation, to: "apng.png")
        let result = try await CLIRunner.run(["info", "apng.png"], home: workspace.home, in: workspace.url)
        #expect(result.status == 0)
        #expect(result.lines.first?.hasPrefix("apng.png: png 8192x8192, 60 frames, loops forever, 100 ms each, alpha, colour: untagged; a decode would be refused: png image of 8192x8192 is over the limit of 50000000 pixels per frame") == true, "\(result.stdout)")
    }
}
