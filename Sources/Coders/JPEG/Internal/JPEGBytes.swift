/// Random access to a JPEG's bytes for the marker walks (``JPEGMarkerWalk``,
/// ``JPEGDecoding/lastMarkerOffset(_:)``): data in memory, or the first bytes of a file read a
/// window at a time (``FileBytes``).
protocol JPEGBytes {
    var count: Int { get }
    subscript(_ index: Int) -> UInt8 { get }
}

extension UnsafeRawBufferPointer: JPEGBytes {}

/// The first ``count`` bytes of a file, as ``JPEGBytes``.
struct FilePrefix: JPEGBytes {
    let file: FileBytes
    let count: Int

    subscript(_ index: Int) -> UInt8 { file[index] }
}
