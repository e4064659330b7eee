import Foundation
import Testing
@testable import WebImageLoaders

/// The address guard's classification as a pure function (no socket, no libcurl): every
/// special IPv4 and IPv6 range, the addresses that carry an IPv4 address, the allow-list, and
/// the socket address read with its real length.
@Suite struct AddressGuardTests {
    /// The bytes of an IPv4 or IPv6 address in text form.
    static func bytes(_ text: String) throws -> [UInt8] {
        try #require(AddressGuard.network(text)).bytes
    }

    @Test(arguments: [
        ("0.0.0.0", "unspecified (0.0.0.0/8)"),
        ("0.1.2.3", "unspecified (0.0.0.0/8)"),
        ("127.0.0.1", "loopback (127.0.0.0/8)"),
        ("127.255.255.254", "loopback (127.0.0.0/8)"),
        ("10.0.0.1", "private (10.0.0.0/8)"),
        ("172.16.0.1", "private (172.16.0.0/12)"),
        ("172.31.255.255", "private (172.16.0.0/12)"),
        ("192.168.1.1", "private (192.168.0.0/16)"),
        ("100.64.0.1", "shared CGNAT (100.64.0.0/10)"),
        ("100.127.255.255", "shared CGNAT (100.64.0.0/10)"),
        ("169.254.169.254", "link-local (169.254.0.0/16)"),
        ("192.0.0.8", "IETF protocol assignments (192.0.0.0/24)"),
        ("192.0.2.1", "documentation (192.0.2.0/24)"),
        ("198.51.100.7", "documentation (198.51.100.0/24)"),
        ("203.0.113.9", "documentation (203.0.113.0/24)"),
        ("198.18.0.1", "benchmarking (198.18.0.0/15)"),
        ("198.19.255.255", "benchmarking (198.18.0.0/15)"),
        ("224.0.0.1", "multicast (224.0.0.0/4)"),
        ("239.255.255.250", "multicast (224.0.0.0/4)"),
        ("240.0.0.1", "reserved or broadcast (240.0.0.0/4)"),
        ("255.255.255.255", "reserved or broadcast (240.0.0.0/4)"),
    ])
    func nonPublicIPv4IsRefusedNamingItsRange(address: String, range: String) throws {
        let verdict = try #require(AddressGuard.classification(of: try Self.bytes(address)))
        #expect(verdict == "\(address), a \(range) address")
        #expect(!AddressGuard.isPublic(try Self.bytes(address)))
    }

    @Test(arguments: ["8.8.8.8", "1.1.1.1", "93.184.216.34", "172.15.255.255", "172.32.0.0", "100.63.255.255", "100.128.0.0", "198.17.255.255", "198.20.0.0", "223.255.255.255", "192.0.1.255", "192.88.98.1"])
    func publicIPv4IsLetThrough(address: String) throws {
        #expect(AddressGuard.classification(of: try Self.bytes(address)) == nil)
        #expect(AddressGuard.isPublic(try Self.bytes(address)))
    }

    @Test(arguments: [
        ("::", "::, the unspecified address (::)"),
        ("::1", "::1, the loopback address (::1)"),
        // IPv4-compatible (deprecated): refused whatever the IPv4 address.
        ("::8.8.8.8", "::8.8.8.8, an IPv4-compatible address (::/96, deprecated)"),
        // IPv4-mapped, NAT64 (well-known prefix) and 6to4: the IPv4 address inside decides.
        ("::ffff:127.0.0.1", "::ffff:127.0.0.1 (IPv4-mapped 127.0.0.1, a loopback (127.0.0.0/8) address)"),
        ("::ffff:10.1.2.3", "::ffff:10.1.2.3 (IPv4-mapped 10.1.2.3, a private (10.0.0.0/8) address)"),
        ("64:ff9b::a9fe:a9fe", "64:ff9b::a9fe:a9fe (NAT64 169.254.169.254, a link-local (169.254.0.0/16) address)"),
        ("64:ff9b::c0a8:101", "64:ff9b::c0a8:101 (NAT64 192.168.1.1, a private (192.168.0.0/16) address)"),
        ("2002:7f00:1::", "2002:7f00:1:: (6to4 of 127.0.0.1, a loopback (127.0.0.0/8) address)"),
        ("2002:a00:1:1::5", "2002:a00:1:1::5 (6to4 of 10.0.0.1, a private (10.0.0.0/8) address)"),
        // Non-public whatever follows.
        ("64:ff9b:1::808:808", "64:ff9b:1::808:808, a local-use NAT64 address (64:ff9b:1::/48)"),
        ("100::1", "100::1, a discard-only address (100::/64)"),
        ("2001::1", "2001::1, a Teredo (2001::/32) address"),
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001:0:4136:e378:8000:63bf:3fff:fdd2, a Teredo (2001::/32) address"),
        ("2001:2::1", "2001:2::1, a benchmarking (2001:2::/48) address"),
        ("2001:10::1", "2001:10::1, an ORCHID (2001:10::/28) address"),
        ("2001:20::1", "2001:20::1, an ORCHIDv2 (2001:20::/28) address"),
        ("2001:db8::1", "2001:db8::1, a documentation (2001:db8::/32) address"),
        ("3fff::1", "3fff::1, a documentation (3fff::/20) address"),
        ("fc00::1", "fc00::1, a unique local (fc00::/7) address"),
        ("fd12:3456::1", "fd12:3456::1, a unique local (fc00::/7) address"),
        ("fe80::1", "fe80::1, a link-local (fe80::/10) address"),
        ("febf::1", "febf::1, a link-local (fe80::/10) address"),
        ("fec0::1", "fec0::1, a site-local (fec0::/10) address"),
        ("ff02::1", "ff02::1, a multicast (ff00::/8) address"),
        ("ff0e::1", "ff0e::1, a multicast (ff00::/8) address"),
        // Outside global unicast (2000::/3): reserved space.
        ("::1:2:3:4", "::1:2:3:4, not a global unicast address (outside 2000::/3)"),
        ("5f00::1", "5f00::1, not a global unicast address (outside 2000::/3)"),
        ("4000::1", "4000::1, not a global unicast address (outside 2000::/3)"),
    ])
    func nonPublicIPv6IsRefusedNamingItsRange(address: String, verdict: String) throws {
        #expect(AddressGuard.classification(of: try Self.bytes(address)) == verdict)
        #expect(!AddressGuard.isPublic(try Self.bytes(address)))
    }

    @Test(arguments: [
        "2606:4700:4700::1111", "2a00:1450:4001:82a::200e", "2001:4860:4860::8888",
        // Just outside the special ranges inside 2001::/16.
        "2001:1::1", "2001:3::1", "2001:db7:ffff::1", "2001:db9::1", "2001:30::1",
        // Carrying a public IPv4 address.
        "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1",
        "3ffe::1", "3fff:1000::1",
    ])
    func publicIPv6IsLetThrough(address: String) throws {
        #expect(AddressGuard.classification(of: try Self.bytes(address)) == nil)
        #expect(AddressGuard.isPublic(try Self.bytes(address)))
    }

    @Test func anAddressOfAnotherLengthIsRefused() {
        #expect(AddressGuard.classification(of: [1, 2, 3]) == "an address of 3 bytes, not IPv4 or IPv6")
    }

    @Test func theAllowListExemptsAddressesAndTheIPv4InsideAMappedAddress() throws {
        let guard_ = AddressGuard(allowing: ["10.20.0.0/16", "fd00::/8"])
        #expect(guard_.refusal(address: try Self.bytes("10.20.3.4")) == nil)
        #expect(guard_.refusal(address: try Self.bytes("::ffff:10.20.3.4")) == nil)
        #expect(guard_.refusal(address: try Self.bytes("fd00::7")) == nil)
        #expect(guard_.refusal(address: try Self.bytes("10.21.0.1")) == "10.21.0.1, a private (10.0.0.0/8) address")
        #expect(guard_.refusal(address: try Self.bytes("fc00::7")) == "fc00::7, a unique local (fc00::/7) address")
    }

    // MARK: Socket addresses

    /// A `sockaddr_in6` as bytes, with its real length (28).
    static func socketAddress(ipv6 text: String) throws -> [UInt8] {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = UInt16(443).bigEndian
        let bytes = try Self.bytes(text)
        withUnsafeMutableBytes(of: &address.sin6_addr) { $0.copyBytes(from: bytes) }
        return withUnsafeBytes(of: address) { Array($0) }
    }

    @Test func anIPv6SocketAddressIsReadWithItsRealLength() throws {
        let guard_ = AddressGuard()
        // The address's last bytes lie past a 16-byte sockaddr: ::1 differs from :: only there.
        let loopback = try Self.socketAddress(ipv6: "::1")
        #expect(loopback.count == 28)
        #expect(loopback.withUnsafeBytes { guard_.refusal(for: $0) } == "::1, the loopback address (::1)")
        let mapped = try Self.socketAddress(ipv6: "::ffff:192.168.0.1")
        #expect(mapped.withUnsafeBytes { guard_.refusal(for: $0) } == "::ffff:192.168.0.1 (IPv4-mapped 192.168.0.1, a private (192.168.0.0/16) address)")
        let global = try Self.socketAddress(ipv6: "2606:4700::1")
        #expect(global.withUnsafeBytes { guard_.refusal(for: $0) } == nil)
        // Cut to the size of a sockaddr (16 bytes): too short for an IPv6 address, refused.
        #expect(global.prefix(16).withUnsafeBytes { guard_.refusal(for: $0) } == "a malformed IPv6 address (16 bytes)")
    }

    @Test func anIPv4SocketAddressIsRead() throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        withUnsafeMutableBytes(of: &address.sin_addr) { $0.copyBytes(from: [169, 254, 169, 254]) }
        let bytes = withUnsafeBytes(of: address) { Array($0) }
        #expect(bytes.withUnsafeBytes { AddressGuard().refusal(for: $0) } == "169.254.169.254, a link-local (169.254.0.0/16) address")
        #expect(bytes.prefix(8).withUnsafeBytes { AddressGuard().refusal(for: $0) } == "a malformed IPv4 address (8 bytes)")
    }

    @Test func theOpenSocketCallbacksSocketIsCloseOnExec() throws {
        let socket = CurlExchange.openSocket(family: AF_INET, type: Int32(SOCK_STREAM.rawValue), protocol: 0)
        try #require(socket >= 0)
        defer { close(socket) }
        #expect(fcntl(socket, F_GETFD) & FD_CLOEXEC != 0)
    }
}
