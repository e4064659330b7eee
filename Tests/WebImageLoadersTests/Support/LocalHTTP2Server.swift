import Foundation
import WebImageTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/2 server over TLS on 127.0.0.1 for the HTTP/2 tests: nghttp2's `nghttpd` (Debian
/// `nghttp2-server`) serving files from a directory, with a self-signed certificate for
/// `127.0.0.1` and `localhost` that `openssl req` makes for it. `nghttpd` speaks only HTTP/2
/// (offered by ALPN).
///
/// The tests that use it are skipped (with a message) when `nghttpd` or `openssl` is missing.
final class LocalHTTP2Server {
    /// `nghttpd`'s path, if installed (it lives in /usr/sbin, often not on a user's PATH).
    static let nghttpd: String? = {
        let path = ProcessInfo.processInfo.environment["PATH", default: "/usr/bin:/bin"].split(separator: ":").map(String.init)
        return (path + ["/usr/sbin", "/usr/local/sbin", "/sbin"]).map { "\($0)/nghttpd" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether the tools are installed.
    static let isAvailable = nghttpd != nil && LocalTLSServer.isAvailable

    let port: Int
    /// The certificate (PEM), to pass as a CA file.
    let certificate: URL
    private let directory: URL
    private let process: SpawnedProcess
    private let drain: Thread

    /// Writes `files` (name -> bytes) into a document root, makes the certificate and starts
    /// the server; returns once it listens.
    init(files: [String: Data]) async throws {
        directory = try Fixtures.temporaryDirectory()
        let root = directory.appendingPathComponent("htdocs", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (name, data) in files { try data.writeWithoutSync(to: root.appendingPathComponent(name)) }
        certificate = directory.appendingPathComponent("cert.pem")
        let key = directory.appendingPathComponent("key.pem")
        try await LocalTLSServer.makeCertificate(key: key, certificate: certificate)
        // nghttpd reports the port it was given, not the one the kernel chose for port 0:
        // take a free port, and try another if someone else took it meanwhile.
        var started: (SpawnedProcess, Int32, Int)?
        for _ in 0..<5 where started == nil {
            let port = try Self.freePort()
            let output = try SpawnedProcess.pipe()
            let process: SpawnedProcess
            do {
                process = try await SpawnedProcess.start(Self.nghttpd ?? "nghttpd", arguments: ["--verbose", "--address=127.0.0.1", "--htdocs=\(root.path)", String(port), key.path, certificate.path],
                                                         standardOutput: output.write, standardError: output.write)
            } catch {
                close(output.read)
                close(output.write)
                throw error
            }
            close(output.write)
            // `--verbose` prints "IPv4: listen 127.0.0.1:PORT" once the socket listens (and an
            // error, then exits, when the port is taken): the readiness gate.
            let text = await OwnThread.run { () -> String in
                var text = ""
                while !text.contains("\n") {
                    let chunk = SpawnedProcess.readSome(output.read)  // blocking: own thread
                    if chunk.isEmpty { break }
                    text += String(decoding: chunk, as: UTF8.self)
                }
                return text
            }
            if text.contains("listen 127.0.0.1:\(port)") {
                started = (process, output.read, port)
            } else {
                process.send(SIGKILL)
                close(output.read)
            }
        }
        guard let (process, output, port) = started else { throw CocoaError(.fileReadUnknown) }
        self.process = process
        self.port = port
        // The verbose log of every frame goes on: read it so that the pipe never fills.
        drain = Thread {
            while !SpawnedProcess.readSome(output).isEmpty {}  // blocking: own thread
            close(output)
        }
        drain.start()
    }

    func url(_ path: String, host: String = "127.0.0.1") -> URL {
        URL(string: "https://\(host):\(port)\(path)")!
    }

    /// Kills the server (SIGKILL, as ``LocalTLSServer/stop()`` explains; nothing waits for it).
    func stop() {
        process.send(SIGKILL)
        try? FileManager.default.removeItem(at: directory)
    }

    /// A port no socket listens on now: bound to 127.0.0.1:0, read, released.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard named else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
