#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import WebImageCore

/// The cookies of `handleCookies` requests: a caller's `HTTPCookieStorage` (from the
/// `sessionConfiguration` given to the downloader), or else a jar in memory that lives as long
/// as the downloader. Nothing is written to disk either way by the downloader (a caller's
/// shared storage may persist itself).
///
/// Decision: not swift-corelibs-foundation's ephemeral storage, whose only public way in
/// (`URLSessionConfiguration.ephemeral`) makes a URL cache that creates a directory under
/// `~/.cache`; and not libcurl's cookie engine, so that a caller's storage keeps working.
final class CookieStore: Sendable {
    private let storage: HTTPCookieStorage?
    private let jar = Locked<[HTTPCookie]>([])

    /// - Parameter storage: The caller's storage; `nil` for the in-memory jar.
    init(storage: HTTPCookieStorage?) {
        self.storage = storage
    }

    /// The `Cookie` header value for a request to `url`, if any cookie applies.
    func header(for url: URL) -> String? {
        let cookies = storage.map { $0.cookies(for: url) ?? [] } ?? matching(url)
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }

    /// Stores the cookies of `Set-Cookie` lines received from `url`.
    func store(_ lines: [String], from url: URL) {
        guard !lines.isEmpty else { return }
        let cookies = lines.flatMap { HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": $0], for: url) }
        guard !cookies.isEmpty else { return }
        if let storage {
            storage.setCookies(cookies, for: url, mainDocumentURL: nil)
            return
        }
        let now = Date()
        jar.withLock { jar in
            for cookie in cookies {
                jar.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                if let expiry = cookie.expiresDate, expiry <= now { continue }
                jar.append(cookie)
            }
        }
    }

    /// The in-memory jar's cookies for `url`: domain, path, `Secure` and expiry rules.
    private func matching(_ url: URL) -> [HTTPCookie] {
        guard let host = url.host?.lowercased() else { return [] }
        let path = url.path.isEmpty ? "/" : url.path
        let secure = url.scheme?.lowercased() == "https"
        let now = Date()
        return jar.withLock { jar in
            jar.removeAll { ($0.expiresDate.map { $0 <= now }) ?? false }
            return jar.filter { cookie in
                let domain = cookie.domain.lowercased()
                let domainMatches = domain.hasPrefix(".")
                    ? host == domain.dropFirst() || host.hasSuffix(domain)
                    : host == domain
                let cookiePath = cookie.path.isEmpty ? "/" : cookie.path
                let pathMatches = path == cookiePath || path.hasPrefix(cookiePath.hasSuffix("/") ? cookiePath : cookiePath + "/")
                return domainMatches && pathMatches && (!cookie.isSecure || secure)
            }
        }
    }
}
