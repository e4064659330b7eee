import Foundation
import Testing
import WebImageTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A thumbnail of a large animation is made at thumbnail size, frame by frame: the peak memory
/// of `webimage convert --thumbnail 100x100` (a child process, its `ru_maxrss` from `wait4`) on
/// a GIF and an APNG of 2 frames of 7000x7000 (49 MP each, within the default limits) stays far
/// below the 196 MB that one full-size RGBA canvas of them would take.
@Suite(.onOwnThreads) struct AnimatedThumbnailMemoryTests {
    let workspace = Workspace()

    /// The peak RSS bound: the executable's own baseline (~35-45 MB) plus a thumbnail, far under
    /// one 7000x7000 RGBA canvas (196 MB).
    static let peakLimit = 120 * 1024 * 1024
    static let side = 7000

    /// Bits written least significant first (GIF LZW codes, deflate).
    struct BitWriter {
        var bytes: [UInt8] = []
        var buffer: UInt64 = 0
        var count = 0

        mutating func write(_ value: Int, bits: Int) {
            buffer |= UInt64(value) << UInt64(count)
            count += bits
            while count >= 8 {
                bytes.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                count -= 8
            }
        }

        /// Writes a Huffman code, whose bits go most significant first.
        mutating func writeReversed(_ code: Int, bits: Int) {
            var reversed = 0
            for bit in 0..<bits { reversed |= (code >> bit & 1) << (bits - 1 - bit) }
            write(reversed, bits: bits)
        }

        mutating func flush() -> [UInt8] {
            if count > 0 { bytes.append(UInt8(buffer & 0xFF)) }
            buffer = 0
            count = 0
            return bytes
        }
    }

    /// LZW data (minimum code size 2) of `count` pixels of index 0: the run's strings grow one
    /// longer per code until the table is full, then the longest is repeated.
    static func lzwRun(count: Int) -> [UInt8] {
        var writer = BitWriter()
        var codeSize = 3, next = 6
        writer.write(4, bits: codeSize)  // clear
        writer.write(0, bits: codeSize)  // the first literal
        var left = count - 1
        var length = 1
        while left > 0 {
            if next < 4096 && length + 1 <= left {
                length += 1
                writer.write(next, bits: codeSize)  // code c is a run of c - 4
                next += 1
                if next == 1 << codeSize && codeSize < 12 { codeSize += 1 }
                left -= length
            } else {
                // The table is full (or the run nearly done): the longest run that fits.
                let run = min(left, length)
                writer.write(run == 1 ? 0 : run + 4, bits: codeSize)
                left -= run
                if next < 4096 {
                    next += 1
                    if next == 1 << codeSize && codeSize < 12 { codeSize += 1 }
                }
            }
        }
        writer.write(5, bits: codeSize)  // end of information
        return writer.flush()
    }

    /// A GIF of `frames` frames of one colour each covering the `side` x `side` screen.
    static func gif(side: Int, frames: Int) -> Data {
        var data = Data("GIF89a".utf8)
        data += [UInt8(side & 0xFF), UInt8(side >> 8), UInt8(side & 0xFF), UInt8(side >> 8), 0xF1, 0, 0]
        data += [255, 0, 0, 0, 0, 255, 0, 255, 0, 255, 255, 255]  // 4 colours
        data += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        let lzw = lzwRun(count: side * side)
        for _ in 0..<frames {
            data += [0x21, 0xF9, 4, 0x04, 10, 0, 0, 0]  // disposal 1, 100 ms
            data += [0x2C, 0, 0, 0, 0, UInt8(side & 0xFF), UInt8(side >> 8), UInt8(side & 0xFF), UInt8(side >> 8), 0, 2]
            for start in stride(from: 0, to: lzw.count, by: 255) {
                let chunk = lzw[start..<min(lzw.count, start + 255)]
                data.append(UInt8(chunk.count))
                data += chunk
            }
            data.append(0)
        }
        data.append(0x3B)
        return data
    }

    /// A zlib stream of `count` zero bytes: one fixed-Huffman block of a literal and length-258,
    /// distance-1 matches.
    static func zlibZeros(count: Int) -> [UInt8] {
        var writer = BitWriter()
        writer.write(1, bits: 1)  // final block
        writer.write(1, bits: 2)  // fixed Huffman
        writer.writeReversed(0x30, bits: 8)  // literal 0
        var left = count - 1
        while left >= 258 {
            writer.writeReversed(0xC5, bits: 8)  // length 258 (code 285)
            writer.writeReversed(0, bits: 5)  // distance 1
            left -= 258
        }
        for _ in 0..<left { writer.writeReversed(0x30, bits: 8) }
        writer.writeReversed(0, bits: 7)  // end of block
        let adler = UInt32(count % 65521) << 16 | 1
        return [0x78, 0x01] + writer.flush() + PNGChunks.be32(Int(adler))
    }

    /// Chunk writing for the APNG.
    enum PNGChunks {
        static func be32(_ value: Int) -> [UInt8] {
            [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }

        static func crc(_ bytes: [UInt8]) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                c ^= UInt32(byte)
                for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return c ^ 0xFFFF_FFFF
        }

        static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + payload
            return be32(payload.count) + body + be32(Int(crc(body)))
        }
    }

    /// An APNG of `frames` frames of one colour each covering the `side` x `side` canvas
    /// (8-bit palette, every index 0: each frame's data is `side` rows of zeros).
    static func apng(side: Int, frames: Int) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += PNGChunks.chunk("IHDR", PNGChunks.be32(side) + PNGChunks.be32(side) + [8, 3, 0, 0, 0])
        bytes += PNGChunks.chunk("PLTE", [0, 128, 255])
        bytes += PNGChunks.chunk("acTL", PNGChunks.be32(frames) + PNGChunks.be32(0))
        let data = zlibZeros(count: side * (side + 1))
        var sequence = 0
        for index in 0..<frames {
            bytes += PNGChunks.chunk("fcTL", PNGChunks.be32(sequence) + PNGChunks.be32(side) + PNGChunks.be32(side)
                + PNGChunks.be32(0) + PNGChunks.be32(0) + [0, 1, 0, 10, 0, 0])
            sequence += 1
            if index == 0 {
                bytes += PNGChunks.chunk("IDAT", data)
            } else {
                bytes += PNGChunks.chunk("fdAT", PNGChunks.be32(sequence) + data)
                sequence += 1
            }
        }
        bytes += PNGChunks.chunk("IEND", [])
        return Data(bytes)
    }

    /// Runs `webimage arguments...` through ``PeakMemoryRunner`` (a grandchild, so that the test
    /// process's own high-water mark is not inherited through `execve`) and returns its exit
    /// status and peak RSS in bytes, from `wait4`.
    static func runMeasured(_ arguments: [String], home: URL) async throws -> (status: Int32, peakBytes: Int) {
        let outcome = try await PeakMemoryRunner.run(arguments, home: home)
        return (outcome.status, outcome.peakBytes)
    }

    @Test(.enabled(if: PeakMemoryRunner.isAvailable, "needs python3 to measure a grandchild's peak RSS (apt-get install python3)"))
    func aGIFThumbnailOfTwo7000SquaredFramesStaysSmall() async throws {
        let data = Self.gif(side: Self.side, frames: 2)
        #expect(data.count < 200_000)
        let input = try workspace.write(data, to: "big.gif")
        let output = workspace.path("thumb.gif")
        let (status, peak) = try await Self.runMeasured(["convert", input, output, "--thumbnail", "100x100"], home: workspace.home)
        #expect(status == 0)
        #expect(FileManager.default.fileExists(atPath: output))
        #expect(peak < Self.peakLimit, "peak RSS \(peak / 1_048_576) MB")
    }

    @Test(.enabled(if: PeakMemoryRunner.isAvailable, "needs python3 to measure a grandchild's peak RSS (apt-get install python3)"))
    func anAPNGThumbnailOfTwo7000SquaredFramesStaysSmall() async throws {
        let data = Self.apng(side: Self.side, frames: 2)
        #expect(data.count < 2_000_000)
        let input = try workspace.write(data, to: "big.png")
        let output = workspace.path("thumb.png")
        let (status, peak) = try await Self.runMeasured(["convert", input, output, "--thumbnail", "100x100"], home: workspace.home)
        #expect(status == 0)
        #expect(FileManager.default.fileExists(atPath: output))
        #expect(peak < Self.peakLimit, "peak RSS \(peak / 1_048_576) MB")
    }

    /// The generated files are what they claim: a small one of each decodes in full to one colour.
    @Test func theGeneratorsMakeValidOneColourAnimations() async throws {
        let gif = try workspace.write(Self.gif(side: 300, frames: 2), to: "small.gif")
        let png = try workspace.write(Self.apng(side: 300, frames: 2), to: "small.png")
        for file in [gif, png] {
            let result = try await CLIRunner.run(["info", file, "--json"], home: workspace.home, in: workspace.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("300"), "\(result.stdout)")
        }
    }
}
