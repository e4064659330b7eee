#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `lstat` of `path`, or `nil` with the error.
func fileStatus(atPath path: String) -> Result<stat, SystemCallError> {
    var info = stat()
    guard lstat(path, &info) == 0 else { return .failure(SystemCallError(operation: "lstat", path: path, code: errno)) }
    return .success(info)
}

/// What kind of directory entry `info` describes.
enum FileKind {
    case regular, directory, symbolicLink, other

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        default: self = .other
        }
    }
}
