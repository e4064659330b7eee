import Foundation

extension ServeOptions {
    /// The proxy URL `value` names, for `--proxy`: `http://` or `https://` (the proxies that
    /// tunnel: the downloader sends `CONNECT` to the address it checked, so the address guard
    /// still judges the target), with a host, and no path, query or fragment (libcurl would
    /// ignore them). A user and password may be in it.
    /// - Throws: ``CLIError`` (usage) naming the value (its password hidden) and what is wrong.
    static func proxy(_ value: String, command: String) throws(CLIError) -> URL {
        func refuse(_ problem: String, _ shown: String) -> CLIError {
            .usage("\(command): --proxy needs an http:// or https:// proxy URL (http://proxy.internal:3128), not '\(shown)': \(problem)")
        }
        guard let url = URL(string: value), let scheme = url.scheme?.lowercased() else {
            throw refuse("it is not a URL", value)
        }
        let shown = proxyText(url)
        guard scheme == "http" || scheme == "https" else {
            throw refuse("its scheme must be http or https (a CONNECT tunnel keeps the address guard on the target)", shown)
        }
        guard let host = url.host, !host.isEmpty else { throw refuse("it has no host", shown) }
        guard url.path.isEmpty || url.path == "/", url.query == nil, url.fragment == nil else {
            throw refuse("a proxy URL has no path, query or fragment", shown)
        }
        return url
    }

    /// `proxy` as `webimage serve` shows it: without its password (`http://user:***@host:3128`).
    static func proxyText(_ proxy: URL) -> String {
        guard proxy.password != nil, var components = URLComponents(url: proxy, resolvingAgainstBaseURL: false) else {
            return proxy.absoluteString
        }
        components.password = "***"
        return components.string ?? proxy.absoluteString
    }
}
