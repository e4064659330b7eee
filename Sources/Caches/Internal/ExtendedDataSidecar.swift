import Foundation
import WebImageCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The content of an extended-data sidecar file (`.ext-<entry>`): a header that names the
/// data file the extended data belongs to, then the extended data.
///
/// A sidecar and its data file are two files, so no rename replaces both at once: a reader
/// can open the data of one write and find the sidecar of another. The header lets it tell:
/// it records the data file's identity (inode, size, modification time, from `fstat` of the
/// file written) and the SHA-256 of its bytes. A sidecar belongs to the data a reader holds
/// when the identity matches the reader's `fstat` of its open file (no hashing on the usual
/// path), or else when the size and digest match the bytes it read (a directory copied to
/// another file system, where inodes and times change, keeps its extended data).
///
/// Layout, little-endian: 8 bytes ``magic``, data size (UInt64), inode (UInt64), modification
/// time seconds (Int64) and nanoseconds (Int64), SHA-256 of the data (32 bytes), then the
/// extended data: ``headerSize`` bytes before it.
struct ExtendedDataSidecar: Equatable {
    /// The first 8 bytes of every sidecar this version writes ("SWIEXT" and format 1).
    static let magic: [UInt8] = Array("SWIEXT".utf8) + [0x00, 0x01]
    /// The bytes before the extended data.
    static let headerSize = 8 + 8 + 8 + 8 + 8 + 32

    /// What identifies a data file while it exists: two files that exist at the same time in
    /// one directory never share an inode, and a file this cache wrote is never modified.
    struct Identity: Equatable {
        var size: UInt64
        var inode: UInt64
        var modificationSeconds: Int64
        var modificationNanoseconds: Int64

        /// The identity of the file `info` describes (`fstat` of an open descriptor).
        init(_ info: stat) {
            size = UInt64(max(0, info.st_size))
            inode = UInt64(info.st_ino)
            #if canImport(Darwin)
            modificationSeconds = Int64(info.st_mtimespec.tv_sec)
            modificationNanoseconds = Int64(info.st_mtimespec.tv_nsec)
            #else
            modificationSeconds = Int64(info.st_mtim.tv_sec)
            modificationNanoseconds = Int64(info.st_mtim.tv_nsec)
            #endif
        }

        init(size: UInt64, inode: UInt64, modificationSeconds: Int64, modificationNanoseconds: Int64) {
            self.size = size
            self.inode = inode
            self.modificationSeconds = modificationSeconds
            self.modificationNanoseconds = modificationNanoseconds
        }
    }

    /// The data file the extended data belongs to.
    var identity: Identity
    /// The SHA-256 of that file's bytes.
    var digest: [UInt8]
    /// The extended data.
    var extendedData: Data

    /// The sidecar of `extendedData` for the data file `info` describes, whose bytes are `data`.
    init(extendedData: Data, dataFile info: stat, data: Data) {
        self.identity = Identity(info)
        self.digest = SHA256.hash(data).bytes
        self.extendedData = extendedData
    }

    init(identity: Identity, digest: [UInt8], extendedData: Data) {
        self.identity = identity
        self.digest = digest
        self.extendedData = extendedData
    }

    /// The file content.
    var encoded: Data {
        var bytes = [UInt8]()
        bytes.reserveCapacity(Self.headerSize + extendedData.count)
        bytes += Self.magic
        Self.append(identity.size, to: &bytes)
        Self.append(identity.inode, to: &bytes)
        Self.append(UInt64(bitPattern: identity.modificationSeconds), to: &bytes)
        Self.append(UInt64(bitPattern: identity.modificationNanoseconds), to: &bytes)
        bytes += digest
        bytes += extendedData
        return Data(bytes)
    }

    /// Parses a sidecar file's content.
    /// - Returns: `nil` when it does not start with this format's header (a sidecar of an
    ///   older version, which held the extended data alone, or a damaged file).
    init?(decoding content: Data) {
        guard content.count >= Self.headerSize else { return nil }
        let bytes = [UInt8](content.prefix(Self.headerSize))
        guard bytes.starts(with: Self.magic) else { return nil }
        let word = { (index: Int) -> UInt64 in
            let start = Self.magic.count + index * 8
            return bytes[start..<start + 8].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        identity = Identity(
            size: word(0),
            inode: word(1),
            modificationSeconds: Int64(bitPattern: word(2)),
            modificationNanoseconds: Int64(bitPattern: word(3))
        )
        digest = Array(bytes[(Self.headerSize - 32)...])
        extendedData = Data(content.dropFirst(Self.headerSize))
    }

    /// Whether this sidecar belongs to the data file `info` describes: the identity matches,
    /// or else the size and the digest of its bytes do (`data` is asked for only then).
    func belongs(toDataFile info: stat, data: () -> Data?) -> Bool {
        let candidate = Identity(info)
        if candidate == identity { return true }
        guard candidate.size == identity.size, let bytes = data(), UInt64(bytes.count) == identity.size else { return false }
        return SHA256.hash(bytes).bytes == digest
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}
