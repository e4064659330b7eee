import Foundation
import WebImageCore

/// The file-system half of a scan: lists the tree (no file is opened) and examines single files
/// (header and fingerprint). ``PhotoLibrary`` decides what to examine and merges the results.
enum LibraryScanner {
    /// The bytes fingerprinted at each end of a file, and the head kept for the header parsers.
    static let fingerprintSpan = 64 * 1024
    /// The domain string that versions the identifier scheme.
    static let identifierDomain = "SwiftWebImage.PhotosLoader.asset.v1"

    /// What listing the tree found.
    struct Listing {
        /// Regular files by relative path, with their size and modification time.
        var files: [String: FileStamp] = [:]
        /// Entries that are not indexed for a reason known without reading them.
        var skipped: [SkippedPhotoFile] = []
    }

    /// Lists the regular files under `root` (sorted names, hidden entries left out unless
    /// `includesHiddenFiles`, symbolic links not followed, at most `maximumDepth` folders deep).
    /// - Throws: ``WebImageError/Code/photoLibraryUnavailable`` if `root` is not a readable folder.
    static func list(root: String, includesHiddenFiles: Bool, maximumDepth: Int) throws -> Listing {
        switch fileStatus(atPath: root) {
        case .failure(let error):
            throw WebImageError(.photoLibraryUnavailable, "The photo library root \(root) cannot be read: \(error)", underlyingError: error)
        case .success(let info):
            // The root itself may be a symbolic link to a folder: that one is followed.
            var isDirectory: ObjCBool = false
            guard FileKind(info) == .directory || (FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) && isDirectory.boolValue) else {
                throw WebImageError(.photoLibraryUnavailable, "The photo library root \(root) is not a folder")
            }
        }
        var listing = Listing()
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: root)
        } catch {
            throw WebImageError(.photoLibraryUnavailable, "The photo library root \(root) cannot be listed: \(error.localizedDescription)", underlyingError: error)
        }
        walk(root: root, relative: "", names: names, depth: 0, includesHiddenFiles: includesHiddenFiles, maximumDepth: maximumDepth, into: &listing)
        return listing
    }

    /// Lists the folder `relative` (whose entries are `names`, when already listed) into `listing`.
    private static func walk(root: String, relative: String, names: [String]? = nil, depth: Int, includesHiddenFiles: Bool, maximumDepth: Int, into listing: inout Listing) {
        let folder = relative.isEmpty ? root : root + "/" + relative
        let unsorted: [String]
        if let names {
            unsorted = names
        } else {
            do {
                unsorted = try FileManager.default.contentsOfDirectory(atPath: folder)
            } catch {
                listing.skipped.append(SkippedPhotoFile(relativePath: relative, reason: "folder cannot be listed: \(error.localizedDescription)"))
                return
            }
        }
        for name in unsorted.sorted() {
            if !includesHiddenFiles, name.hasPrefix(".") { continue }
            let path = relative.isEmpty ? name : relative + "/" + name
            switch fileStatus(atPath: root + "/" + path) {
            case .failure(let error):
                if !error.isNotFound {
                    listing.skipped.append(SkippedPhotoFile(relativePath: path, reason: "cannot be examined: \(error)"))
                }
            case .success(let info):
                switch FileKind(info) {
                case .regular:
                    listing.files[path] = FileStamp(info)
                case .directory:
                    if depth + 1 >= maximumDepth {
                        listing.skipped.append(SkippedPhotoFile(relativePath: path, reason: "folder deeper than the limit of \(maximumDepth) levels"))
                    } else {
                        walk(root: root, relative: path, depth: depth + 1, includesHiddenFiles: includesHiddenFiles, maximumDepth: maximumDepth, into: &listing)
                    }
                case .symbolicLink:
                    listing.skipped.append(SkippedPhotoFile(relativePath: path, reason: "symbolic link (not followed)"))
                case .other:
                    listing.skipped.append(SkippedPhotoFile(relativePath: path, reason: "not a regular file"))
                }
            }
        }
    }

    /// An image file's header and fingerprint.
    struct ExaminedImage: Sendable {
        var header: ImageHeader
        var stamp: FileStamp
        /// 32 hex digits: the plain asset identifier of these contents.
        var fingerprint: String
    }

    /// What examining one file found.
    enum Examination: Sendable {
        case image(ExaminedImage)
        case skipped(reason: String, stamp: FileStamp)
        /// The file disappeared between the listing and the read.
        case vanished
    }

    /// Opens `path`, reads its head (64 KiB), sniffs the format from the magic bytes, reads the
    /// header and fingerprints the file (size, head, tail).
    static func examine(root: String, relativePath: String) -> Examination {
        let path = root + "/" + relativePath
        let reader: FileReader
        let stamp: FileStamp
        do {
            reader = try FileReader(path: path)
            stamp = try reader.stamp()
        } catch let error as SystemCallError where error.isNotFound {
            return .vanished
        } catch {
            return .skipped(reason: "cannot be read: \(error)", stamp: FileStamp(size: -1, modificationSeconds: 0, modificationNanoseconds: 0))
        }
        do {
            let size = Int(stamp.size)
            guard size > 0 else { return .skipped(reason: "empty file", stamp: stamp) }
            let head = try reader.read(at: 0, count: min(size, fingerprintSpan))
            let format = ImageFormat.detect(Data(head))
            guard format != .undefined else {
                return .skipped(reason: "not an image (no known image signature in its first bytes)", stamp: stamp)
            }
            let header: ImageHeader
            do {
                header = try ImageHeaderReader.read(format, from: HeadedFile(reader: reader, head: head, count: size))
            } catch let problem as HeaderProblem {
                return .skipped(reason: "unreadable \(format) header: \(problem.reason)", stamp: stamp)
            }
            var hasher = SHA256()
            hasher.update(identifierDomain.utf8)
            hasher.update(littleEndian: UInt64(size))
            hasher.update(head)
            if size > fingerprintSpan {
                let tailStart = max(fingerprintSpan, size - fingerprintSpan)
                hasher.update(try reader.read(at: tailStart, count: size - tailStart))
            }
            let fingerprint = hasher.finalize().identifier
            return .image(ExaminedImage(header: header, stamp: stamp, fingerprint: fingerprint))
        } catch {
            return .skipped(reason: "cannot be read: \(error)", stamp: stamp)
        }
    }

    /// The identifier of a further copy of `fingerprint`, at `relativePath`.
    static func duplicateIdentifier(_ fingerprint: String, relativePath: String, attempt: Int) -> String {
        var hasher = SHA256()
        hasher.update((identifierDomain + ".copy").utf8)
        hasher.update(fingerprint.utf8)
        hasher.update([0])
        hasher.update(relativePath.utf8)
        hasher.update(littleEndian: UInt64(attempt))
        return hasher.finalize().identifier
    }
}

extension SHA256 {
    /// Feeds the 8 bytes of `value`, least significant first.
    fileprivate mutating func update(littleEndian value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { update($0) }
    }
}

extension SHA256Digest {
    /// An asset identifier: the first 16 bytes in lowercase hex (32 digits).
    fileprivate var identifier: String {
        String(hexString.prefix(32))
    }
}
