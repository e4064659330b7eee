import CZlib
import Foundation

/// Inflates a body the server compressed with `Content-Encoding: gzip` (or `x-gzip`) or
/// `deflate` although the request did not ask for it (`Accept-Encoding: identity`), as
/// browsers and the curl tool do; libcurl 7.88 decodes only when `CURLOPT_ACCEPT_ENCODING`
/// is set, which the downloader sets only for ``DownloaderConfiguration/acceptedContentEncodings``.
///
/// The output comes in pieces of at most 64 KiB, so the caller counts decoded bytes against
/// its limit as they appear: a compression bomb costs one piece beyond the limit, never the
/// inflated whole. `deflate` is the zlib format (RFC 1950) or, when the first two bytes are
/// not a zlib header, raw deflate (RFC 1951), as browsers accept both; `gzip` also accepts a
/// zlib stream. Bytes after the end of the compressed stream are ignored (as browsers do).
///
/// `@unchecked Sendable`: kept in the transfer's locked state, but used only on the
/// event-loop thread, one decoder per response.
final class ContentDecoder: @unchecked Sendable {
    /// A coding the decoder inflates.
    enum Coding: String, Sendable {
        case gzip
        case deflate
    }

    /// Why the body cannot be decoded.
    struct Failure: Error, Sendable {
        /// zlib's message (or ours).
        let reason: String
    }

    let coding: Coding
    private let stream: UnsafeMutablePointer<z_stream>
    private let output: UnsafeMutableRawBufferPointer
    private var initialized = false
    /// The first bytes of a `deflate` body, held until there are two to tell zlib from raw.
    private var pending: [UInt8] = []
    /// Whether the compressed stream has ended (`Z_STREAM_END`).
    private(set) var isComplete = false
    /// Compressed bytes given so far.
    private(set) var receivedBytes = 0

    /// The size of an output piece.
    static let pieceSize = 64 * 1024

    /// A decoder for a `Content-Encoding` value (lower case, as the head had it), or `nil` if
    /// it names no coding this decoder handles (identity, an unknown coding, or several
    /// codings: the body is then kept as sent).
    init?(contentEncoding: String?) {
        guard let value = contentEncoding?.trimmingCharacters(in: .whitespaces) else { return nil }
        switch value {
        case "gzip", "x-gzip": coding = .gzip
        case "deflate": coding = .deflate
        default: return nil
        }
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        output = .allocate(byteCount: Self.pieceSize, alignment: 16)
    }

    deinit {
        if initialized { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
        output.deallocate()
    }

    /// Inflates `input`, handing each decoded piece to `emit` (which returns `false` to stop).
    /// - Returns: `false` if `emit` stopped.
    /// - Throws: ``Failure`` if the data is not valid for the coding.
    func decode(_ input: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> Bool) throws(Failure) -> Bool {
        receivedBytes += input.count
        guard !isComplete else { return true }
        var rest = input
        if !initialized {
            let windowBits: Int32
            switch coding {
            case .gzip:
                windowBits = 15 + 32  // gzip or zlib, told apart by zlib
            case .deflate:
                // zlib or raw deflate, told apart by the first two bytes: a zlib header has
                // compression method 8 and makes a 16-bit value that is a multiple of 31.
                let taken = min(rest.count, 2 - pending.count)
                pending.append(contentsOf: rest.prefix(taken))
                rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
                guard pending.count == 2 else { return true }
                let isZlib = pending[0] & 0x0F == 8 && (UInt16(pending[0]) << 8 | UInt16(pending[1])) % 31 == 0
                windowBits = isZlib ? 15 : -15
            }
            let status = inflateInit2_(stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
            guard status == Z_OK else { throw Failure(reason: "zlib could not start (status \(status))") }
            initialized = true
            let held = pending
            pending = []
            if !held.isEmpty {
                // withUnsafeBytes rethrows untyped: the outcome comes out as a Result.
                let outcome = held.withUnsafeBytes { bytes in Result { () throws(Failure) in try inflate(bytes, emit: emit) } }
                if try !outcome.get() { return false }
            }
        }
        return try inflate(rest, emit: emit)
    }

    /// Runs zlib over `input` until it is consumed or the stream ends.
    private func inflate(_ input: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> Bool) throws(Failure) -> Bool {
        guard !isComplete, let base = input.baseAddress, !input.isEmpty else { return true }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
        }
        while true {
            stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(output.count)
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            let produced = output.count - Int(stream.pointee.avail_out)
            if produced > 0, !emit(UnsafeRawBufferPointer(rebasing: output[0..<produced])) { return false }
            switch status {
            case Z_STREAM_END:
                isComplete = true
                return true
            case Z_OK:
                // More output may be waiting (the piece was filled), or more input is needed.
                if stream.pointee.avail_in == 0 && stream.pointee.avail_out != 0 { return true }
            case Z_BUF_ERROR:
                // No progress possible: the input is consumed.
                return true
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                throw Failure(reason: message)
            }
        }
    }
}
