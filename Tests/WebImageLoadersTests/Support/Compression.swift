import CZlib
import Foundation

/// gzip, zlib and raw deflate streams made in process with zlib (no `gzip` child), and the
/// pieces of a compression bomb.
enum Compression {
    /// The window bits of each format (zlib's `deflateInit2` convention).
    enum Format: Int32 {
        case gzip = 31
        case zlib = 15
        case raw = -15
    }

    /// `data` compressed whole in `format`.
    static func compress(_ data: Data, _ format: Format) -> Data {
        let stream = Stream(format)
        return stream.deflate(data, flush: Z_FINISH)
    }

    /// The start of a gzip stream of `pieces` x `pieceSize` zero bytes without its end: the
    /// first piece (after the gzip header) and the next one, each ended by a full flush (byte
    /// aligned, no reference back), so `first + next * (pieces - 1)` decodes to
    /// `pieces * pieceSize` zeros. A bomb whose end is never reached needs no trailer.
    static func zeroBombPieces(pieceSize: Int) -> (first: Data, next: Data) {
        let stream = Stream(.gzip)
        let zeros = Data(count: pieceSize)
        let first = stream.deflate(zeros, flush: Z_FULL_FLUSH)
        let next = stream.deflate(zeros, flush: Z_FULL_FLUSH)
        return (first, next)
    }

    /// A gzip bomb: `inflatedSize` zero bytes (a multiple of 1 MiB) in about a thousandth of it.
    static func gzipBomb(inflatedSize: Int) -> Data {
        let pieceSize = 1 << 20
        let (first, next) = zeroBombPieces(pieceSize: pieceSize)
        var bomb = first
        for _ in 1..<(inflatedSize / pieceSize) { bomb.append(next) }
        return bomb
    }

    /// A deflate stream at a fixed address (zlib keeps a pointer back to it), ended on deinit.
    private final class Stream {
        let pointer: UnsafeMutablePointer<z_stream>

        init(_ format: Format) {
            pointer = .allocate(capacity: 1)
            pointer.initialize(to: z_stream())
            let status = deflateInit2_(pointer, 9, Z_DEFLATED, format.rawValue, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
            precondition(status == Z_OK, "deflateInit2 failed: \(status)")
        }

        deinit {
            deflateEnd(pointer)
            pointer.deinitialize(count: 1)
            pointer.deallocate()
        }

        func deflate(_ data: Data, flush: Int32) -> Data {
            var output = Data()
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            data.withUnsafeBytes { input in
                pointer.pointee.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                pointer.pointee.avail_in = uInt(input.count)
                repeat {
                    buffer.withUnsafeMutableBufferPointer { out in
                        pointer.pointee.next_out = out.baseAddress
                        pointer.pointee.avail_out = uInt(out.count)
                        _ = CZlib.deflate(pointer, flush)
                        output.append(out.baseAddress!, count: out.count - Int(pointer.pointee.avail_out))
                    }
                } while pointer.pointee.avail_out == 0
            }
            return output
        }
    }
}
