// CCurl: its header includes <sys/socket.h> first, so the whole-module (release) build finds
// SOCK_STREAM through it, not through Glibc.
import CCurl
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The address guard's check of a hop's target before a request that goes through an explicit
/// proxy (``DownloaderConfiguration/proxy`` with ``DownloaderConfiguration/refusesNonPublicAddresses``):
/// the connection libcurl opens is the proxy's, so the open-socket callback never sees the
/// target's address. The host is resolved here (the configuration's `CURLOPT_RESOLVE`
/// overrides first, else `getaddrinfo`), every address is judged, and the request is pinned to
/// the first one (`CURLOPT_CONNECT_TO`, which libcurl uses as the `CONNECT` target): the proxy
/// connects to the address that was checked, never to what a second lookup of the name
/// returns (DNS rebinding).
///
/// Runs off the event-loop thread (`getaddrinfo` blocks).
enum TargetCheck {
    /// What the check found.
    enum Outcome: Sendable, Equatable {
        /// Every address is allowed: the `CURLOPT_CONNECT_TO` entry that pins the first one.
        case pinned(String)
        /// An address the guard refuses, as it names it.
        case refused(String)
        /// The host did not resolve: why.
        case unresolved(String)
    }

    /// Checks the host and port of `url` with `addressGuard`.
    static func run(url: URL, addressGuard: AddressGuard, resolveOverrides: [String]) -> Outcome {
        guard var host = url.host, !host.isEmpty else { return .unresolved("the URL has no host") }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        let addresses: [[UInt8]]
        if let overridden = override(host: host, port: port, in: resolveOverrides) {
            addresses = overridden
        } else {
            switch resolve(host) {
            case .success(let resolved): addresses = resolved
            case .failure(let reason): return .unresolved("could not resolve \(host): \(reason)")
            }
        }
        guard let first = addresses.first else { return .unresolved("could not resolve \(host): no address") }
        for address in addresses {
            if let refusal = addressGuard.refusal(address: address) { return .refused(refusal) }
        }
        let text = first.count == 4 ? first.map(String.init).joined(separator: ".") : "[\(AddressGuard.text(ipv6: first))]"
        let name = host.contains(":") ? "[\(host)]" : host
        return .pinned("\(name):\(port):\(text):\(port)")
    }

    /// The addresses a `HOST:PORT:ADDRESS[,ADDRESS]...` entry (curl's `--resolve`, a leading
    /// `+` allowed) gives `host` and `port`, if one does.
    static func override(host: String, port: Int, in entries: [String]) -> [[UInt8]]? {
        for entry in entries {
            var text = Substring(entry)
            if text.hasPrefix("+") { text = text.dropFirst() }
            guard !text.hasPrefix("-") else { continue }
            // HOST:PORT:ADDRESSES, where a bracketed IPv6 host or address may hold colons.
            guard let (name, afterName) = field(text), let (portText, list) = field(afterName),
                  name.caseInsensitiveCompare(host) == .orderedSame, Int(portText) == port else { continue }
            let addresses = list.split(separator: ",").compactMap { item -> [UInt8]? in
                var item = item.trimmingCharacters(in: .whitespaces)
                if item.hasPrefix("["), item.hasSuffix("]") { item = String(item.dropFirst().dropLast()) }
                guard let network = AddressGuard.network(item), network.prefix == network.bytes.count * 8 else { return nil }
                return network.bytes
            }
            return addresses
        }
        return nil
    }

    /// The text up to the first colon outside brackets (brackets removed), and what follows it.
    private static func field(_ text: Substring) -> (String, Substring)? {
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let after = text[text.index(after: close)...]
            guard after.hasPrefix(":") else { return nil }
            return (String(text[text.index(after: text.startIndex)..<close]), after.dropFirst())
        }
        guard let colon = text.firstIndex(of: ":") else { return nil }
        return (String(text[..<colon]), text[text.index(after: colon)...])
    }

    /// Why a name did not resolve.
    struct ResolveFailure: Error {
        let reason: String
    }

    /// `getaddrinfo` of `host`: its IPv4 and IPv6 addresses, in the resolver's order.
    static func resolve(_ host: String) -> Result<[[UInt8]], ResolveFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else { return .failure(ResolveFailure(reason: String(cString: gai_strerror(status)))) }
        defer { freeaddrinfo(list) }
        var addresses: [[UInt8]] = []
        var next = list
        while let info = next {
            if let address = info.pointee.ai_addr,
               case .success(let bytes) = AddressGuard.addressBytes(of: UnsafeRawBufferPointer(start: UnsafeRawPointer(address), count: Int(info.pointee.ai_addrlen))) {
                addresses.append(bytes)
            }
            next = info.pointee.ai_next
        }
        var seen = Set<[UInt8]>()
        return .success(addresses.filter { seen.insert($0).inserted })
    }
}
