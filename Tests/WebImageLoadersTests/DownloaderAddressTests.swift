import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

/// Host names and addresses: IDN hosts, and the address guard on every hop with its allow-list.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct DownloaderAddressTests {
    let server: LoopbackHTTPServer
    let image = Fixtures.wiraw()

    init() throws {
        server = try LoopbackHTTPServer()
        server.route("/image", .data(image, contentType: Fixtures.wirawType))
    }

    @Test func aUnicodeHostReachesTheServerAsItsPunycodeName() async throws {
        defer { server.stop() }
        let port = try #require(server.baseURL.port)
        let url = try #require(URL(string: "http://bücher.example:\(port)/image"))
        // The name libcurl resolves (and the override must name) is the ASCII one.
        let (downloader, _) = Fixtures.downloader { $0.resolveOverrides = ["xn--bcher-kva.example:\(port):127.0.0.1"] }
        #expect(try await downloader.requestImage(with: url).data == image)
        let request = try #require(server.requests.first)
        #expect(request.header("Host") == "xn--bcher-kva.example:\(port)")
        #expect(request.path == "/image")
    }

    @Test func anAllowListedAddressIsLetThroughTheGuard() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader {
            $0.refusesNonPublicAddresses = true
            $0.allowedNonPublicAddresses = ["10.0.0.0/8", "127.0.0.1"]
        }
        #expect(try await downloader.requestImage(with: server.url(for: "/image")).data == image)
        // A network allows every address in it.
        let (network, _) = Fixtures.downloader {
            $0.refusesNonPublicAddresses = true
            $0.allowedNonPublicAddresses = ["127.0.0.0/30"]
        }
        #expect(try await network.requestImage(with: server.url(for: "/image")).data == image)
        #expect(server.totalRequestCount == 2)
    }

    @Test func theGuardRefusesARedirectHopToAnotherInnerAddress() async throws {
        defer { server.stop() }
        let port = try #require(server.baseURL.port)
        // The first hop (127.0.0.1, allowed) redirects to an inner address that is not allowed.
        server.route("/inward", .redirect(to: "http://127.0.0.2:\(port)/image"))
        // ...and to a public-looking name that resolves to the allowed address's neighbour.
        server.route("/renamed", .redirect(to: "http://inner.example.com:\(port)/image"))
        let (downloader, _) = Fixtures.downloader {
            $0.refusesNonPublicAddresses = true
            $0.allowedNonPublicAddresses = ["127.0.0.1/32"]
            $0.resolveOverrides = ["inner.example.com:\(port):127.0.0.3"]
        }
        let inward = server.url(for: "/inward")
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, inward)))
        #expect(error.code == .invalidDownloadResponse)
        #expect(error.message.contains("http://127.0.0.2:\(port)/image refused: it would connect to 127.0.0.2, a loopback (127.0.0.0/8) address"))
        #expect(error.url == inward)
        let renamed = try #require(await Fixtures.error(of: Fixtures.request(downloader, server.url(for: "/renamed"))))
        #expect(renamed.message.contains("it would connect to 127.0.0.3, a loopback (127.0.0.0/8) address"))
        // Only the allowed first hops reached a server.
        #expect(server.requests.map(\.path) == ["/inward", "/renamed"])
    }

    @Test func anIPv6ConnectionIsJudgedOnItsWholeAddress() async throws {
        defer { server.stop() }
        let port = try #require(server.baseURL.port)
        // libcurl hands the open-socket callback a 28-byte sockaddr_in6: ::1 and :: differ
        // only in its last bytes, past a 16-byte sockaddr.
        let (downloader, _) = Fixtures.downloader {
            $0.refusesNonPublicAddresses = true
            $0.resolveOverrides = ["six.example:\(port):[::1]", "mapped.example:\(port):[::ffff:10.9.8.7]"]
        }
        let sixURL = try #require(URL(string: "http://six.example:\(port)/image"))
        let mappedURL = try #require(URL(string: "http://mapped.example:\(port)/image"))
        let six = try #require(await Fixtures.error(of: Fixtures.request(downloader, sixURL)))
        #expect(six.message.contains("it would connect to ::1, the loopback address (::1)"))
        let mapped = try #require(await Fixtures.error(of: Fixtures.request(downloader, mappedURL)))
        #expect(mapped.message.contains("it would connect to ::ffff:10.9.8.7 (IPv4-mapped 10.9.8.7, a private (10.0.0.0/8) address)"))
        #expect(server.totalRequestCount == 0)
    }

    @Test func aMalformedAllowListEntryFailsEveryGuardedDownloadNamingIt() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader {
            $0.refusesNonPublicAddresses = true
            $0.allowedNonPublicAddresses = ["127.0.0.1", "10.0.0.0/33"]
        }
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, server.url(for: "/image"))))
        #expect(error.message.contains("the allowedNonPublicAddresses entry \"10.0.0.0/33\" is not an IP address or a CIDR network"))
        #expect(server.totalRequestCount == 0)
    }
}
