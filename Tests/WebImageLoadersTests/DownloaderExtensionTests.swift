import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

/// Request and response modifiers, decryptor, credentials, cookies, URL cache revalidation.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct DownloaderExtensionTests {
    let server: LoopbackHTTPServer
    let image = Fixtures.wiraw()

    init() throws {
        server = try LoopbackHTTPServer()
        server.route("/image", .data(image, contentType: Fixtures.wirawType))
    }

    @Test func contextRequestModifierWinsOverTheConfigurations() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader { $0.requestModifier = .headers(["X-Source": "configuration"]) }
        _ = try await downloader.requestImage(with: server.url(for: "/image?1"))
        let context = WebImageContext { $0.downloadRequestModifier = .headers(["X-Source": "context"]) }
        _ = try await downloader.requestImage(with: server.url(for: "/image?2"), options: [], context: context, progress: nil)
        #expect(server.requests.map { $0.header("X-Source") } == ["configuration", "context"])
    }

    @Test func requestModifierCanRedirectTheRequest() async throws {
        defer { server.stop() }
        server.route("/other", .data(Fixtures.wiraw(width: 3, height: 2), contentType: Fixtures.wirawType))
        let other = server.url(for: "/other")
        let (downloader, _) = Fixtures.downloader()
        let context = WebImageContext { $0.downloadRequestModifier = .closure { _ in URLRequest(url: other) } }
        let result = try await downloader.requestImage(with: server.url(for: "/image"), options: [], context: context, progress: nil)
        #expect(result.image?.pixelSize == PixelSize(width: 3, height: 2))
    }

    @Test func vetoingRequestModifierFailsWithoutNetwork() async throws {
        defer { server.stop() }
        let (downloader, events) = Fixtures.downloader()
        let context = WebImageContext { $0.downloadRequestModifier = .closure { _ in nil } }
        let url = server.url(for: "/image")
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, url, context: context)))
        #expect(error.code == .invalidDownloadOperation)
        #expect(error.message.contains("request modifier returned nil"))
        #expect(server.totalRequestCount == 0)
        #expect(events.events.isEmpty)
        #expect(downloader.currentDownloadCount == 0)
    }

    @Test func responseModifierRewritesTheResponseBeforeValidation() async throws {
        defer { server.stop() }
        server.route("/teapot", .data(image, contentType: Fixtures.wirawType, status: 418))
        let (downloader, _) = Fixtures.downloader()
        let fix = WebImageContext {
            $0.downloadResponseModifier = .closure { response in
                HTTPURLResponse(url: response.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "image/x-wiraw", "Content-Length": "\(response.expectedContentLength)"])
            }
        }
        let result = try await downloader.requestImage(with: server.url(for: "/teapot"), options: [], context: fix, progress: nil)
        #expect(result.statusCode == 200)
        #expect(result.image != nil)
    }

    @Test func vetoingResponseModifierFails() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader { $0.responseModifier = .closure { _ in nil } }
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, server.url(for: "/image"))))
        #expect(error.code == .invalidDownloadResponse)
        #expect(error.message.contains("response modifier returned nil"))
    }

    @Test func decryptorTransformsTheBodyBeforeDecoding() async throws {
        defer { server.stop() }
        server.route("/base64", .data(image.base64EncodedData(), contentType: "text/plain"))
        let (downloader, _) = Fixtures.downloader()
        let url = server.url(for: "/base64")
        let result = try await downloader.requestImage(with: url, options: [], context: WebImageContext { $0.downloadDecryptor = .base64 }, progress: nil)
        #expect(result.image?.pixelSize == PixelSize(width: 16, height: 12))
        #expect(result.data == image)
        // From the configuration, too.
        let (configured, _) = Fixtures.downloader { $0.decryptor = .base64 }
        #expect(try await configured.requestImage(with: url).data == image)
    }

    @Test func decryptorReturningNilIsBadImageData() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader { $0.decryptor = .closure { _, _ in nil } }
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, server.url(for: "/image"))))
        #expect(error.code == .badImageData)
        #expect(error.message.contains("decryptor returned nil"))
    }

    private func routeBasicAuth() {
        let expected = "Basic " + Data("user:secret".utf8).base64EncodedString()
        let image = image
        server.route("/private", LoopbackHTTPServer.Route { request in
            if request.header("Authorization") == expected {
                return [.head(status: 200, headers: [("Content-Type", Fixtures.wirawType), ("Content-Length", "\(image.count)")]), .body(image)]
            }
            return [.head(status: 401, headers: [("WWW-Authenticate", "Basic realm=\"test\""), ("Content-Length", "0")])]
        })
    }

    @Test func basicAuthWithUsernameAndPassword() async throws {
        defer { server.stop() }
        routeBasicAuth()
        let (downloader, _) = Fixtures.downloader {
            $0.username = "user"
            $0.password = "secret"
        }
        #expect(try await downloader.requestImage(with: server.url(for: "/private")).data == image)
    }

    @Test func basicAuthWithACredential() async throws {
        defer { server.stop() }
        routeBasicAuth()
        let (downloader, _) = Fixtures.downloader { $0.urlCredential = URLCredential(user: "user", password: "secret", persistence: .forSession) }
        #expect(try await downloader.requestImage(with: server.url(for: "/private")).data == image)
    }

    @Test func wrongOrMissingCredentialsGiveThe401() async throws {
        defer { server.stop() }
        routeBasicAuth()
        let (anonymous, _) = Fixtures.downloader()
        #expect(await Fixtures.error(of: Fixtures.request(anonymous, server.url(for: "/private")))?.statusCode == 401)
        let (wrong, _) = Fixtures.downloader {
            $0.username = "user"
            $0.password = "wrong"
        }
        #expect(await Fixtures.error(of: Fixtures.request(wrong, server.url(for: "/private")))?.statusCode == 401)
    }

    /// swift-corelibs-foundation hangs on `.performDefaultHandling` and stops on Digest: every
    /// challenge the downloader does not answer with Basic credentials ends as the 401.
    @Test(arguments: ["Bearer", "Digest realm=\"x\", nonce=\"abc\"", "Basic realm=\"x\""])
    func challengesEndAsThe401WithoutHangOrCrash(header: String) async throws {
        defer { server.stop() }
        server.route("/refused", .steps([.head(status: 401, headers: [("WWW-Authenticate", header), ("Content-Length", "0")])]))
        let (withCredential, _) = Fixtures.downloader {
            $0.username = "user"
            $0.password = "secret"
        }
        let (anonymous, _) = Fixtures.downloader()
        for downloader in [withCredential, anonymous] {
            let error = await Fixtures.error(of: Fixtures.request(downloader, server.url(for: "/refused")))
            #expect(error?.code == .invalidDownloadStatusCode)
            #expect(error?.statusCode == 401)
        }
    }

    @Test func cookiesAreSentAndStoredOnlyWithHandleCookies() async throws {
        defer { server.stop() }
        server.route("/login", .data(image, contentType: Fixtures.wirawType, headers: [("Set-Cookie", "session=abc; Path=/")]))
        let (downloader, _) = Fixtures.downloader()
        _ = try await downloader.requestImage(with: server.url(for: "/login"), options: [.handleCookies], context: WebImageContext(), progress: nil)
        _ = try await downloader.requestImage(with: server.url(for: "/image?with"), options: [.handleCookies], context: WebImageContext(), progress: nil)
        _ = try await downloader.requestImage(with: server.url(for: "/image?without"))
        let cookies = server.requests.filter { $0.path == "/image" }.map { $0.header("Cookie") }
        #expect(cookies == ["session=abc", nil])
    }

    @Test func refreshCachedRevalidatesWithTheStoredETag() async throws {
        defer { server.stop() }
        let image = image
        server.route("/tagged", LoopbackHTTPServer.Route { request in
            if request.header("If-None-Match") == "\"v1\"" { return [.head(status: 304, headers: [("ETag", "\"v1\"")])] }
            return [.head(status: 200, headers: [("Content-Type", Fixtures.wirawType), ("Content-Length", "\(image.count)"), ("ETag", "\"v1\"")]), .body(image)]
        })
        let cache = URLCache(memoryCapacity: 1 << 20, diskCapacity: 0, diskPath: nil)
        let (downloader, _) = Fixtures.downloader { $0.urlCache = cache }
        let url = server.url(for: "/tagged")
        // Without refreshCached the URL cache is bypassed: nothing stored, no conditional header.
        _ = try await downloader.requestImage(with: url)
        #expect(cache.cachedResponse(for: URLRequest(url: url)) == nil)
        // The first refreshCached download stores the response...
        let first = try await downloader.requestImage(with: url, options: [.refreshCached], context: WebImageContext(), progress: nil)
        #expect(first.data == image)
        #expect(cache.cachedResponse(for: URLRequest(url: url))?.data == image)
        // ...the next one sends If-None-Match and ends with "not modified".
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, url, options: [.refreshCached])))
        #expect(error.code == .cacheNotModified)
        #expect(!downloader.shouldBlockFailedURL(url, error: error))
        // A plain request still bypasses the stored response.
        #expect(try await downloader.requestImage(with: url).data == image)
        #expect(server.requests.map { $0.header("If-None-Match") } == [nil, nil, "\"v1\"", nil])
    }

    @Test func refreshCachedWithAnIdenticalBodyIsNotModified() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader()
        let url = server.url(for: "/image")
        _ = try await downloader.requestImage(with: url, options: [.refreshCached], context: WebImageContext(), progress: nil)
        let error = await Fixtures.error(of: Fixtures.request(downloader, url, options: [.refreshCached]))
        #expect(error?.code == .cacheNotModified)
        #expect(error?.message.contains("not modified") == true)
    }
}
