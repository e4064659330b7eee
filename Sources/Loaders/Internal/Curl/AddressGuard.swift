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
/// past it. With a proxy, the address checked is the proxy's.
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
    func refusal(for address: UnsafePointer<sockaddr>, length: Int) -> String? {
        if let invalidEntry {
            return "an address the guard cannot judge: the allowedNonPublicAddresses entry \"\(invalidEntry)\" is not an IP address or a CIDR network"
        }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            guard length >= MemoryLayout<sockaddr_in>.size else { return "a malformed IPv4 address" }
            let raw = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            if exemptions.contains(where: { $0.contains(withUnsafeBytes(of: raw) { Array($0) }) }) { return nil }
            let value = UInt32(bigEndian: raw)
            return Self.refusal(ipv4: value)
        case AF_INET6:
            guard length >= MemoryLayout<sockaddr_in6>.size else { return "a malformed IPv6 address" }
            var bytes = [UInt8](repeating: 0, count: 16)
            address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { bytes = Array($0) }
            }
            if exemptions.contains(where: { $0.contains(bytes) }) { return nil }
            return Self.refusal(ipv6: bytes)
        default:
            return "an address of family \(address.pointee.sa_family), not IPv4 or IPv6"
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
            (0xC612_0000, 15, "benchmarking (198.18.0.0/15)"),
            (0xE000_0000, 4, "multicast (224.0.0.0/4)"),
            (0xF000_0000, 4, "reserved or broadcast (240.0.0.0/4)"),
        ]
        for (base, bits, name) in classes where within(base, bits) {
            return "\(text), a \(name) address"
        }
        return nil
    }

    /// The class of an IPv6 address that is refused, or `nil`. IPv4-mapped and NAT64
    /// addresses are checked as the IPv4 address inside.
    static func refusal(ipv6 bytes: [UInt8]) -> String? {
        let text = stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(separator: ":")
        if bytes[0..<15].allSatisfy({ $0 == 0 }) {
            return bytes[15] == 1 ? "\(text), the loopback address (::1)" : bytes[15] == 0 ? "\(text), the unspecified address (::)" : "\(text), a reserved address (::/96)"
        }
        let embedded = UInt32(bytes[12]) << 24 | UInt32(bytes[13]) << 16 | UInt32(bytes[14]) << 8 | UInt32(bytes[15])
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return refusal(ipv4: embedded).map { "\(text) (IPv4-mapped \($0))" }
        }
        if bytes[0] == 0x00 && bytes[1] == 0x64 && bytes[2] == 0xFF && bytes[3] == 0x9B && bytes[4..<12].allSatisfy({ $0 == 0 }) {
            return refusal(ipv4: embedded).map { "\(text) (NAT64 \($0))" }
        }
        if bytes[0] & 0xFE == 0xFC { return "\(text), a unique local address (fc00::/7)" }
        if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return "\(text), a link-local address (fe80::/10)" }
        if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0xC0 { return "\(text), a site-local address (fec0::/10)" }
        if bytes[0] == 0xFF { return "\(text), a multicast address (ff00::/8)" }
        if bytes[0] == 0x20 && bytes[1] == 0x01 && bytes[2] == 0x0D && bytes[3] == 0xB8 { return "\(text), a documentation address (2001:db8::/32)" }
        return nil
    }
}
