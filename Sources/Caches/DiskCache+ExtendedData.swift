public import Foundation
import WebImageCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Extended data of a ``DiskCache``: an extended attribute of the entry file, or a sidecar file
/// `.ext-<entry>` that names the data it belongs to (``ExtendedDataSidecar``).
///
/// An attribute sits on the file, so it is always read with its own data. A sidecar is another
/// file, so a store and a read can cross: a store puts its sidecar in place before its data
/// and removes an old sidecar only after its data replaced the old data, and a read accepts
/// a sidecar only when it names the data the read holds (else it reads again), and takes "no
/// sidecar" for "no extended data" only when its data is still the entry.
extension DiskCache {
    /// What a read of an open entry's extended data found.
    enum ExtendedDataRead {
        /// The entry's extended data.
        case value(Data)
        /// The entry has none.
        case none
        /// A sidecar of another write (a store in progress), of an older format, or none while
        /// the entry was replaced or removed meanwhile: read the entry again.
        case unsettled
    }

    /// The extended data of the open entry `fd`: its attribute, else its sidecar.
    /// - Parameters:
    ///   - info: `fstat` of `fd`.
    ///   - path: The path `fd` was opened at.
    ///   - data: The entry's bytes, read from `fd` (asked for only when the sidecar's identity
    ///     does not match and its digest must be checked).
    ///   - writable: `true` for the cache's own directory, where stores may be in progress:
    ///     a sidecar that belongs to other data, or of the older format, is
    ///     ``ExtendedDataRead/unsettled``. `false` for a read-only directory, which nothing
    ///     writes: a sidecar of other data is ignored, and one of the older format (the
    ///     extended data alone) is taken as it is.
    func extendedData(ofOpenFile fd: Int32, info: stat, path: String, directory: String, name: String, data: () -> Data?, writable: Bool) -> ExtendedDataRead {
        let (storage, supported) = state.withLock { ($0.config.extendedDataStorage, $0.extendedAttributesSupported) }
        if storage == .automatic, supported != false, SystemCalls.shared.hasExtendedAttributes {
            switch ExtendedAttribute.read(fd) {
            case .value(let value): return .value(value)
            case .unsupported: state.withLock { $0.extendedAttributesSupported = false }
            case .absent: break
            }
        }
        let sidecarPath = directory + "/" + CacheFileName.sidecarName(for: name)
        let content = FileIO.withOpenedFile(sidecarPath) { sidecar, sidecarInfo in
            FileIO.readAll(sidecar, size: Int(sidecarInfo.st_size))
        }
        guard let content else {
            // Stores and removals take a sidecar away only after the data it belonged to is
            // gone: while the file read is still the entry, it has no extended data.
            guard writable else { return .none }
            return FileIO.isFile(at: path, sameAs: info) ? .none : .unsettled
        }
        guard let sidecar = ExtendedDataSidecar(decoding: content) else {
            return writable ? .unsettled : .value(content)
        }
        if sidecar.belongs(toDataFile: info, data: data) { return .value(sidecar.extendedData) }
        return writable ? .unsettled : .none
    }

    /// Replaces the extended data of the entry for `key` (`nil` removes it).
    /// - Throws: ``/WebImageCore/WebImageError/Code/cacheFailure`` when there is no entry for `key` in
    ///   ``directory`` or the write fails.
    public func setExtendedData(_ extendedData: Data?, forKey key: String) throws {
        let name = Self.fileName(forKey: key)
        let path = directoryPath + "/" + name
        let sidecarPath = directoryPath + "/" + CacheFileName.sidecarName(for: name)
        let fd = FileIO.open(path, O_RDONLY)
        guard fd >= 0 else {
            throw failure("set the extended data of", key: key, SystemCallError("open", path))
        }
        defer { FileIO.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw failure("set the extended data of", key: key, SystemCallError("fstat", path))
        }
        guard let extendedData else {
            ExtendedAttribute.remove(fd)
            FileIO.removeFile(sidecarPath)
            return
        }
        do {
            if try storeExtendedAttribute(extendedData, fd: fd, path: path) {
                FileIO.removeFile(sidecarPath)
            } else {
                ExtendedAttribute.remove(fd)
                guard let data = FileIO.readAll(fd, size: Int(info.st_size)) else { throw SystemCallError("read", path) }
                let sidecar = ExtendedDataSidecar(extendedData: extendedData, dataFile: info, data: data)
                try writeSidecar(sidecar.encoded, to: sidecarPath, synchronizes: config.synchronizesWrites)
            }
        } catch {
            throw failure("set the extended data of", key: key, error)
        }
        let sidecarBytes = FileIO.withOpenedFile(sidecarPath) { _, sidecar in Int(sidecar.st_size) } ?? 0
        state.withLock { $0.index?.recordWrite(name, size: Int(info.st_size) + sidecarBytes, time: FileIO.now()) }
    }

    /// Tries to put `value` in the extended attribute of `fd` (only in automatic mode).
    /// - Returns: `true` if stored; `false` if a sidecar must be used.
    func storeExtendedAttribute(_ value: Data, fd: Int32, path: String) throws -> Bool {
        let (storage, supported) = state.withLock { ($0.config.extendedDataStorage, $0.extendedAttributesSupported) }
        guard storage == .automatic, supported != false else { return false }
        switch ExtendedAttribute.write(fd, value) {
        case .stored:
            if supported == nil { state.withLock { $0.extendedAttributesSupported = true } }
            return true
        case .unsupported:
            state.withLock { $0.extendedAttributesSupported = false }
            return false
        case .tooLarge:
            return false
        case .failed(let code):
            throw SystemCallError("fsetxattr", path, code: code)
        }
    }

    /// Writes a sidecar's content to a temporary file and renames it to `path`.
    /// - Parameter synchronizes: Flush it to the device first (``Config/synchronizesWrites``).
    func writeSidecar(_ content: Data, to path: String, synchronizes: Bool) throws {
        let temporary = makeTemporaryPath()
        let fd = FileIO.open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { throw SystemCallError("open", temporary) }
        do {
            try FileIO.writeAll(fd, content, path: temporary)
            if synchronizes, fsync(fd) != 0 { throw SystemCallError("fsync", temporary) }
        } catch {
            FileIO.close(fd)
            FileIO.removeFile(temporary)
            throw error
        }
        FileIO.close(fd)
        guard rename(temporary, path) == 0 else {
            let error = SystemCallError("rename", temporary)
            FileIO.removeFile(temporary)
            throw error
        }
    }
}
