import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

/// TLS against a local HTTPS server with a certificate the test makes (``LocalTLSServer``):
/// verification on by default, a CA file, `allowInvalidSSLCertificates`, and the https -> http
/// downgrade rule.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds, .enabled(if: LocalTLSServer.isAvailable, "needs python3 and openssl (apt-get install python3 openssl)"))
struct DownloaderTLSTests {
    let plain: LoopbackHTTPServer
    let tls: LocalTLSServer
    let image = Fixtures.wiraw()

    init() async throws {
        plain = try LoopbackHTTPServer()
        plain.route("/image", .data(image, contentType: Fixtures.wirawType))
        tls = try await LocalTLSServer(body: image, downgradeTarget: plain.url(for: "/image").absoluteString)
    }

    private func stop() {
        plain.stop()
        tls.stop()
    }

    @Test func anUntrustedCertificateIsRefusedByDefault() async throws {
        defer { stop() }
        let (downloader, _) = Fixtures.downloader()
        let url = tls.url("/image.wiraw")
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, url)))
        #expect(error.code == .invalidDownloadResponse)
        #expect(Fixtures.urlError(in: error)?.code == .serverCertificateUntrusted)
        #expect(downloader.shouldBlockFailedURL(url, error: error))
    }

    @Test func aCAFileMakesTheCertificateTrusted() async throws {
        defer { stop() }
        let (downloader, events) = Fixtures.downloader { $0.caCertificateFile = tls.certificate.path }
        #expect(try await downloader.requestImage(with: tls.url("/image.wiraw")).data == image)
        // By name too (the certificate names localhost).
        #expect(try await downloader.requestImage(with: tls.url("/named.wiraw", host: "localhost")).data == image)
        #expect(events.events.contains { if case .receivedResponse = $0 { true } else { false } })
    }

    @Test func aCADirectoryWithoutTheCertificateStillRefuses() async throws {
        defer { stop() }
        let empty = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: empty) }
        let (downloader, _) = Fixtures.downloader {
            $0.caCertificateDirectory = empty.path
            $0.caCertificateFile = "/nonexistent/ca.pem"
        }
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, tls.url("/image.wiraw"))))
        #expect(error.code == .invalidDownloadResponse)
    }

    @Test func allowInvalidSSLCertificatesSkipsVerification() async throws {
        defer { stop() }
        let (downloader, _) = Fixtures.downloader()
        let result = try await downloader.requestImage(with: tls.url("/image.wiraw"), options: [.allowInvalidSSLCertificates], context: WebImageContext(), progress: nil)
        #expect(result.data == image)
    }

    @Test func anHTTPSToHTTPRedirectIsRefusedUnlessAllowed() async throws {
        defer { stop() }
        let (strict, _) = Fixtures.downloader { $0.caCertificateFile = tls.certificate.path }
        let error = try #require(await Fixtures.error(of: Fixtures.request(strict, tls.url("/down"))))
        #expect(error.code == .invalidDownloadResponse)
        #expect(error.message.contains("redirect from https to http"))
        #expect(plain.totalRequestCount == 0)
        let (lenient, _) = Fixtures.downloader {
            $0.caCertificateFile = tls.certificate.path
            $0.allowsHTTPSDowngrade = true
        }
        #expect(try await lenient.requestImage(with: tls.url("/down")).data == image)
        #expect(plain.requests.map(\.path) == ["/image"])
    }
}
