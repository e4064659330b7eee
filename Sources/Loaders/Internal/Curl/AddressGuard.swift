import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The check behind ``DownloaderConfiguration/refusesNonPublicAddresses``: whether an address
/// libcurl is about to connect to is loopback, private, link-local, shared (CGNAT), multicast,
/// unspecified or otherwise not a public unicast address.
///
/// It runs in libcurl's open-socket callback, on the address actually connected (after DNS,
/// `CURLOPT_RESOLVE` and redirects), so a name that resolves to an inner address cannot slip
/// past it. Environment proxies are not used with the guard; with an explicit proxy, the
/// target is checked before the request by ``TargetCheck`` and the connection (the proxy's)
/// is not judged.
struct AddressGuard: Sendable {
    /// An exempted network: the address bytes (4 or 16) and the prefix length.
    struct Network: Sendable, Equatable {
        let bytes: [UInt8]
        let prefix: Int

        /// Whether `address` (as many bytes as the network's) lies in the network.
        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var left = prefix
            for index in bytes.indices where left > 0 {
                let bits = min(8, left)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if address[index] & mask != bytes[index] & mask { return false }
                left -= bits
            }
            return true
        }
    }

    /// The networks ``DownloaderConfiguration/allowedNonPublicAddresses`` exempts.
    let exemptions: [Network]
    /// The first entry of the allow-list that is not an address or a network, if any: every
    /// connection is then refused, naming it.
    let invalidEntry: String?

    /// A guard that exempts `allowed` (addresses or CIDR networks, IPv4 or IPv6).
    init(allowing allowed: [String] = []) {
        var exemptions: [Network] = []
        var invalid: String?
        for entry in allowed {
            if let network = Self.network(entry) {
                exemptions.append(network)
            } else if invalid == nil {
                invalid = entry
            }
        }
        self.exemptions = exemptions
        invalidEntry = invalid
    }

    /// `192.168.1.0/24`, `10.1.2.3` (a /32), `fd00::/8`, `::1` (a /128); `nil` if malformed.
    static func network(_ entry: String) -> Network? {
        let parts = entry.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let text = String(parts[0])
        var bytes: [UInt8]
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = withUnsafeBytes(of: v6) { Array($0) }
        } else {
            return nil
        }
        let maximum = bytes.count * 8
        var prefix = maximum
        if parts.count == 2 {
            guard let value = Int(parts[1]), (0...maximum).contains(value) else { return nil }
            prefix = value
        }
        return Network(bytes: bytes, prefix: prefix)
    }

    /// Why the address is refused, or `nil` if it is a public one or an exempted one.
    ///
    /// `address` is a socket address with its real length (`curl_sockaddr`'s `addrlen`): it
    /// is copied into a `sockaddr_storage` (zero-filled, 128 bytes) before it is read, so an
    /// IPv6 address (28 bytes) is never read through a 16-byte `sockaddr`.
    func refusal(for address: UnsafeRawBufferPointer) -> String? {
        if let invalidEntry {
            return "an address the guard cannot judge: the allowedNonPublicAddresses entry \"\(invalidEntry)\" is not an IP address or a CIDR network"
        }
        switch Self.addressBytes(of: address) {
        case .success(let bytes): return refusal(address: bytes)
        case .failure(let problem): return problem.description
        }
    }

    /// Why a socket address could not be read as an IP address.
    struct UnreadableAddress: Error, CustomStringConvertible {
        let description: String
    }

    /// The IP address (4 or 16 bytes, network order) of a socket address given with its real
    /// length, read from a zero-filled `sockaddr_storage` copy (never through a type larger
    /// than the bytes given).
    static func addressBytes(of address: UnsafeRawBufferPointer) -> Result<[UInt8], UnreadableAddress> {
        var storage = sockaddr_storage()
        let length = min(address.count, MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: address[0..<length])) }
        guard length >= MemoryLayout<sa_family_t>.size else { return .failure(UnreadableAddress(description: "a malformed socket address (\(address.count) bytes)")) }
        switch Int32(storage.ss_family) {
        case AF_INET:
            guard length >= MemoryLayout<sockaddr_in>.size else { return .failure(UnreadableAddress(description: "a malformed IPv4 address (\(length) bytes)")) }
            let raw = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr } }
            return .success(withUnsafeBytes(of: raw) { Array($0) })
        case AF_INET6:
            guard length >= MemoryLayout<sockaddr_in6>.size else { return .failure(UnreadableAddress(description: "a malformed IPv6 address (\(length) bytes)")) }
            let raw = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr } }
            return .success(withUnsafeBytes(of: raw) { Array($0) })
        default:
            return .failure(UnreadableAddress(description: "an address of family \(storage.ss_family), not IPv4 or IPv6"))
        }
    }

    /// Why an address (4 or 16 bytes, network order) is refused, or `nil` if it is public or
    /// exempted. An IPv4-mapped address (`::ffff:a.b.c.d`) is exempted by a network of its
    /// IPv4 address too: the connection goes to that address.
    func refusal(address bytes: [UInt8]) -> String? {
        if exemptions.contains(where: { $0.contains(bytes) }) { return nil }
        if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF,
           exemptions.contains(where: { $0.contains(Array(bytes[12..<16])) }) {
            return nil
        }
        return Self.classification(of: bytes)
    }

    /// Whether an address (4 or 16 bytes, network order) is a public unicast one: the pure
    /// classification the guard applies, without the allow-list.
    static func isPublic(_ bytes: [UInt8]) -> Bool {
        classification(of: bytes) == nil
    }

    /// The class of a non-public address (4 or 16 bytes, network order), in words with the
    /// address, or `nil` for a public one. Any other length is refused.
    static func classification(of bytes: [UInt8]) -> String? {
        switch bytes.count {
        case 4: refusal(ipv4: UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3]))
        case 16: refusal(ipv6: bytes)
        default: "an address of \(bytes.count) bytes, not IPv4 or IPv6"
        }
    }

    /// The class of an IPv4 address (host byte order) that is refused, or `nil`.
    static func refusal(ipv4 value: UInt32) -> String? {
        let text = "\(value >> 24).\((value >> 16) & 255).\((value >> 8) & 255).\(value & 255)"
        func within(_ base: UInt32, _ bits: UInt32) -> Bool {
            let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << (32 - bits)
            return value & mask == base & mask
        }
        let classes: [(UInt32, UInt32, String)] = [
            (0x0000_0000, 8, "unspecified (0.0.0.0/8)"),
            (0x7F00_0000, 8, "loopback (127.0.0.0/8)"),
            (0x0A00_0000, 8, "private (10.0.0.0/8)"),
            (0xAC10_0000, 12, "private (172.16.0.0/12)"),
            (0xC0A8_0000, 16, "private (192.168.0.0/16)"),
            (0x6440_0000, 10, "shared CGNAT (100.64.0.0/10)"),
            (0xA9FE_0000, 16, "link-local (169.254.0.0/16)"),
            (0xC000_0000, 24, "IETF protocol assignments (192.0.0.0/24)"),
            (0xC000_0200, 24, "documentation (192.0.2.0/24)"),
            (0xC633_6400, 24, "documentation (198.51.100.0/24)"),
            (0xCB00_7100, 24, "documentation (203.0.113.0/24)"),
            (0xC612_0000, 15, "benchmarking (198.18.0.0/15)"),
            (0xE000_0000, 4, "multicast (224.0.0.0/4)"),
            (0xF000_0000, 4, "reserved or broadcast (240.0.0.0/4)"),
        ]
        for (base, bits, name) in classes where within(base, bits) {
            return "\(text), a \(name) address"
        }
        return nil
    }

    /// The class of an IPv6 address that is refused, or `nil`. Addresses that carry an IPv4
    /// address the connection reaches (IPv4-mapped, NAT64 well-known prefix, 6to4) are judged
    /// by that IPv4 address; anything outside global unicast (2000::/3) is refused, and so are
    /// the special ranges inside it that are not globally reachable (Teredo, documentation,
    /// benchmarking, ORCHID).
    static func refusal(ipv6 bytes: [UInt8]) -> String? {
        precondition(bytes.count == 16)
        let text = text(ipv6: bytes)
        func within(_ prefix: [UInt8], _ bits: Int) -> Bool {
            Network(bytes: prefix + [UInt8](repeating: 0, count: 16 - prefix.count), prefix: bits).contains(bytes)
        }
        func ipv4(at offset: Int) -> UInt32 {
            UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
        }
        if within([], 128) { return "\(text), the unspecified address (::)" }
        if within([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128) { return "\(text), the loopback address (::1)" }
        if within([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF], 96) {
            return refusal(ipv4: ipv4(at: 12)).map { "\(text) (IPv4-mapped \($0))" }
        }
        if within([], 96) { return "\(text), an IPv4-compatible address (::/96, deprecated)" }
        if within([0x00, 0x64, 0xFF, 0x9B], 96) {
            return refusal(ipv4: ipv4(at: 12)).map { "\(text) (NAT64 \($0))" }
        }
        if within([0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01], 48) { return "\(text), a local-use NAT64 address (64:ff9b:1::/48)" }
        if within([0x01, 0x00], 64) { return "\(text), a discard-only address (100::/64)" }
        if within([0x20, 0x02], 16) {
            return refusal(ipv4: ipv4(at: 2)).map { "\(text) (6to4 of \($0))" }
        }
        let named: [([UInt8], Int, String)] = [
            ([0x20, 0x01, 0x00, 0x00], 32, "a Teredo (2001::/32)"),
            ([0x20, 0x01, 0x00, 0x02, 0x00, 0x00], 48, "a benchmarking (2001:2::/48)"),
            ([0x20, 0x01, 0x00, 0x10], 28, "an ORCHID (2001:10::/28)"),
            ([0x20, 0x01, 0x00, 0x20], 28, "an ORCHIDv2 (2001:20::/28)"),
            ([0x20, 0x01, 0x0D, 0xB8], 32, "a documentation (2001:db8::/32)"),
            ([0x3F, 0xFF], 20, "a documentation (3fff::/20)"),
            ([0xFC], 7, "a unique local (fc00::/7)"),
            ([0xFE, 0x80], 10, "a link-local (fe80::/10)"),
            ([0xFE, 0xC0], 10, "a site-local (fec0::/10)"),
            ([0xFF], 8, "a multicast (ff00::/8)"),
        ]
        for (prefix, bits, name) in named where within(prefix, bits) {
            return "\(text), \(name) address"
        }
        if !within([0x20], 3) { return "\(text), not a global unicast address (outside 2000::/3)" }
        return nil
    }

    /// An IPv6 address as `inet_ntop` writes it (`::ffff:127.0.0.1`, `2001:db8::1`).
    static func text(ipv6 bytes: [UInt8]) -> String {
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes.prefix(16)) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "(an IPv6 address)" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
