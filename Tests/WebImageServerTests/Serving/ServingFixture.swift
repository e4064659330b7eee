import Foundation
import SwiftWebImage
import WebImageTestSupport
import WebImageLoopbackServer
import WebPCoder
import AVIFCoder
import HEIFCoder
@testable import WebImageServer

/// What the serving tests share: a file root with generated images, a loopback origin that
/// counts its requests, a manager over a memory cache, and an ``ImageServer`` over them.
final class ServingFixture: Sendable {
    let root: URL
    let origin: LoopbackHTTPServer
    let manager: ImageManager
    let server: ImageServer
    let log = Locked<[ImageServerAccessLogEntry]>([])

    /// A coders manager with the built-in coders plus WebP, HEIF (not AVIF: AVIFCoder reads that)
    /// and AVIF (not the shared one: tests in the same process must not see each other's
    /// registrations).
    static let coders: CodersManager = {
        let coders = CodersManager(BuiltInCoders.all)
        coders.add(WebPCoder())
        coders.add(HEIFCoder(decodesAVIF: false))
        coders.add(AVIFCoder(speed: 10))
        return coders
    }()

    /// A gradient JPEG of `width` x `height`.
    static func jpeg(width: Int = 64, height: Int = 48, quality: Double = 0.9) -> Data {
        made.value(for: "jpeg \(width)x\(height) \(quality)") {
            try! JPEGCoder().encode(WebImage(bitmap: TestImages.gradient(width: width, height: height)), as: .jpeg, options: ImageEncodeOptions(compressionQuality: quality))
        }
    }

    /// A gradient PNG with alpha.
    static func png(width: Int = 40, height: Int = 30) -> Data {
        made.value(for: "png \(width)x\(height)") {
            try! PNGCoder().encode(WebImage(bitmap: TestImages.gradient(width: width, height: height, alpha: true)), as: .png)
        }
    }

    /// An animated GIF of `frames` frames.
    static func animatedGIF(frames: Int = 3) -> Data {
        made.value(for: "gif \(frames)") {
            try! GIFCoder().encode(TestImages.animated(frames: frames, width: 20, height: 10), as: .gif)
        }
    }

    /// The generated images made so far: every fixture writes the same three files and serves
    /// two of them, and encoding them for each of the hundreds of serving tests was seconds of
    /// CPU on the shared test pool.
    private static let made = FixtureCache<Data>()

    /// A noisy JPEG (compresses badly: for `max_bytes`).
    static func noisyJPEG(width: Int = 256, height: Int = 256) -> Data {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for index in stride(from: 0, to: bytes.count, by: 4) {
            bytes[index] = UInt8.random(in: 0...255, using: &generator)
            bytes[index + 1] = UInt8.random(in: 0...255, using: &generator)
            bytes[index + 2] = UInt8.random(in: 0...255, using: &generator)
        }
        let bitmap = try! Bitmap(width: width, height: height, bytes: bytes, hasAlpha: false)
        return try! JPEGCoder().encode(WebImage(bitmap: bitmap), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 1))
    }

    /// A PNG of a few hundred bytes whose header declares `width` x `height` pixels.
    static func declaredHugePNG(width: UInt32 = 30000, height: UInt32 = 30000) -> Data {
        func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let typeBytes = Array(type.utf8)
            var out = withUnsafeBytes(of: UInt32(payload.count).bigEndian, Array.init)
            out += typeBytes + payload
            out += withUnsafeBytes(of: crc32(typeBytes + payload).bigEndian, Array.init)
            return out
        }
        var ihdr = withUnsafeBytes(of: width.bigEndian, Array.init) + withUnsafeBytes(of: height.bigEndian, Array.init)
        ihdr += [8, 6, 0, 0, 0]
        let idat: [UInt8] = [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", [])
        return Data(bytes)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// A fixture; `configure` adjusts the configuration (unsigned URLs and private sources are
    /// allowed unless it says otherwise, so tests reach the loopback origin).
    init(resultCache: (any ImageCache)? = nil, originalsCache: (any ImageCache)? = nil, routes: [String: LoopbackHTTPServer.Route] = [:], _ configure: (inout ImageServerConfiguration) -> Void = { _ in }) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("photos"), withIntermediateDirectories: true)
        try Self.jpeg().writeWithoutSync(to: root.appendingPathComponent("photos/a.jpg"))
        try Self.png().writeWithoutSync(to: root.appendingPathComponent("b.png"))
        try Self.animatedGIF().writeWithoutSync(to: root.appendingPathComponent("anim.gif"))
        origin = try LoopbackHTTPServer(routes: [
            "/a.jpg": .data(Self.jpeg(), contentType: "image/jpeg"),
            "/b.png": .data(Self.png(), contentType: "image/png"),
        ].merging(routes) { $1 })
        var configuration = ImageServerConfiguration()
        configuration.allowsUnsigned = true
        configuration.allowsPrivateSources = true
        configuration.fileRoot = root
        configuration.securityKey = "secret"
        let log = log
        configuration.accessLog = { entry in log.withLock { $0.append(entry) } }
        // A deadline and an origin idle timeout no test's own pace can reach: a full parallel
        // run may keep a request's tasks waiting a minute for a pool thread. Tests of the
        // deadline set their own.
        configuration.requestTimeout = .seconds(600)
        configuration.downloaderConfiguration.downloadTimeout = 600
        configure(&configuration)
        server = ImageServer(configuration: configuration, originalsCache: originalsCache ?? MemoryCache(), resultCache: resultCache, coder: Self.coders)
        manager = server.manager
    }

    deinit {
        origin.stop()
        try? FileManager.default.removeItem(at: root)
    }

    /// The origin URL of `path`, as a source.
    func originSource(_ path: String) -> String {
        origin.url(for: path).absoluteString
    }

    /// Serves `thumbor` (hand-built) under `path`.
    func get(_ thumbor: ThumborRequest, path: String? = nil, headers: [(name: String, value: String)] = [], method: String = "GET") async -> ServerResponse {
        let requestPath = path ?? "/unsafe/" + (thumbor.signedPart.isEmpty ? thumbor.source : thumbor.signedPart)
        return await server.handle(ServerRequest(method: method, path: requestPath, headers: headers), parsed: thumbor)
    }

    /// Serves the raw path (parsed by the server).
    func get(path: String, headers: [(name: String, value: String)] = [], method: String = "GET") async -> ServerResponse {
        await server.respond(to: ServerRequest(method: method, path: path, headers: headers))
    }

    /// The access log so far.
    var entries: [ImageServerAccessLogEntry] { log.withLock { $0 } }

    /// Decodes a response body.
    static func decode(_ response: ServerResponse) throws -> WebImage {
        try coders.decode(response.body, options: ImageDecodeOptions())
    }
}

extension ServerResponse {
    /// The body as text.
    var text: String { String(decoding: body, as: UTF8.self) }
}
