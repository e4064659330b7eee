import Foundation
import WebImageTestSupport

/// An HTTPS server on 127.0.0.1 for the TLS tests: Python's `http.server` behind `ssl`, with a
/// self-signed certificate for `127.0.0.1` and `localhost` that `openssl req` makes for it.
/// `/down` redirects to `downgradeTarget`; any other path serves `body`.
///
/// The tests that use it are skipped (with a message) when `python3` or `openssl` is missing.
final class LocalTLSServer {
    /// Whether the tools are installed.
    static let isAvailable: Bool = ["python3", "openssl"].allSatisfy { tool in
        ProcessInfo.processInfo.environment["PATH", default: "/usr/bin:/bin"].split(separator: ":").contains { directory in
            FileManager.default.isExecutableFile(atPath: "\(directory)/\(tool)")
        }
    }

    let port: Int
    /// The certificate (PEM), to pass as a CA file.
    let certificate: URL
    private let directory: URL
    private let process: SpawnedProcess

    private static let script = """
    import http.server, ssl, sys
    cert, key, body_path, target = sys.argv[1:5]
    body = open(body_path, "rb").read()
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *args): pass
        def do_GET(self):
            if self.path == "/down":
                self.send_response(302)
                self.send_header("Location", target)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "image/x-wiraw")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """

    /// Makes the certificate and starts the server; returns once it listens. The tools run,
    /// and the port line is read, on threads of their own (``ChildProcess``, ``OwnThread``).
    init(body: Data, downgradeTarget: String) async throws {
        directory = try Fixtures.temporaryDirectory()
        certificate = directory.appendingPathComponent("cert.pem")
        let key = directory.appendingPathComponent("key.pem")
        let bodyFile = directory.appendingPathComponent("body")
        try body.writeWithoutSync(to: bodyFile)
        try await Self.makeCertificate(key: key, certificate: certificate)
        let output = try SpawnedProcess.pipe()
        do {
            process = try await SpawnedProcess.start("python3", arguments: ["-c", Self.script, certificate.path, key.path, bodyFile.path, downgradeTarget], standardOutput: output.write)
        } catch {
            close(output.read)
            close(output.write)
            throw error
        }
        close(output.write)
        // The port line is the readiness gate: the server listens before printing it.
        let line = await OwnThread.run { () -> Data in
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = SpawnedProcess.readSome(output.read)  // blocking: own thread
                if chunk.isEmpty { break }
                line.append(chunk)
            }
            close(output.read)  // the server prints nothing more
            return line
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.send(SIGKILL)
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    func url(_ path: String, host: String = "127.0.0.1") -> URL {
        URL(string: "https://\(host):\(port)\(path)")!
    }

    /// Kills the server (its reaper thread collects it; nothing here waits for that).
    func stop() {
        process.send(SIGKILL)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Writes a self-signed certificate for `127.0.0.1` and `localhost`, valid a day, and its
    /// key. Every server of the test process gets the same pair, made once (`openssl req`): an
    /// RSA key for each server was CPU beside the tests that start at the same moment, and no
    /// test needs a certificate of its own (each says whether it trusts it with the CA file).
    static func makeCertificate(key: URL, certificate: URL) async throws {
        let pair = try await sharedCertificate.value
        try pair.key.writeWithoutSync(to: key)
        try pair.certificate.writeWithoutSync(to: certificate)
    }

    /// The key and certificate (PEM) every server uses, made at the first use.
    private static let sharedCertificate = Task { () async throws -> (key: Data, certificate: Data) in
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("key.pem"), certificate = directory.appendingPathComponent("cert.pem")
        try await ChildProcess.output(of: "openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                                                      "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", key.path, "-out", certificate.path])
        return (try Data(contentsOf: key), try Data(contentsOf: certificate))
    }
}
