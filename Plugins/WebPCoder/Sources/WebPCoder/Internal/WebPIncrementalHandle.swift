import CWebP
import WebImageCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One libwebp incremental decoder (`WebPIDecoder`) with the memory it needs kept alive: its
/// configuration (libwebp keeps pointers into it for the decoder's lifetime) and the output
/// pixels, which the caller owns, zeroed so that rows not decoded yet are transparent.
///
/// `@unchecked Sendable`: the handle is only ever used by ``WebPIncrementalDecoder`` inside its
/// `Locked` state, so one thread at a time touches the C objects; they are freed in `deinit`.
final class WebPIncrementalHandle: @unchecked Sendable {
    /// The output size (the bitstream's size, or the thumbnail size libwebp rescales to).
    let size: PixelSize
    /// How many bytes of the file have been given to libwebp.
    private(set) var appended = 0
    private let decoder: OpaquePointer
    private let config: UnsafeMutablePointer<WebPDecoderConfig>
    private let pixels: UnsafeMutableBufferPointer<UInt8>

    /// A decoder for a still image whose bitstream is `header.size`, decoding at `size`.
    ///
    /// The pixels come from `calloc`: zeroed pages the system maps on first touch, so a file that
    /// claims a large image but never sends its data costs address space, not memory.
    /// - Returns: `nil` if libwebp cannot create one (version mismatch, out of memory).
    init?(header: WebPHeader, size: PixelSize) {
        let count = size.width * size.height * 4
        guard let memory = calloc(count, 1) else { return nil }
        config = .allocate(capacity: 1)
        config.initialize(to: WebPDecoderConfig())
        guard WebPInitDecoderConfig(config) != 0 else {
            free(memory)
            config.deinitialize(count: 1)
            config.deallocate()
            return nil
        }
        if size != header.size {
            config.pointee.options.use_scaling = 1
            config.pointee.options.scaled_width = Int32(size.width)
            config.pointee.options.scaled_height = Int32(size.height)
        }
        pixels = UnsafeMutableBufferPointer(start: memory.assumingMemoryBound(to: UInt8.self), count: count)
        WebPStillDecoding.configureOutput(&config.pointee.output, buffer: pixels, width: size.width, height: size.height)
        guard let decoder = WebPIDecode(nil, 0, config) else {
            free(memory)
            config.deinitialize(count: 1)
            config.deallocate()
            return nil
        }
        self.decoder = decoder
        self.size = size
    }

    deinit {
        WebPIDelete(decoder)
        free(pixels.baseAddress)
        config.deinitialize(count: 1)
        config.deallocate()
    }

    /// Gives libwebp the bytes of `raw` past those it already has (libwebp copies them).
    /// - Returns: `VP8_STATUS_OK` when the image is complete, `VP8_STATUS_SUSPENDED` when it
    ///   needs more, an error status otherwise.
    func append(_ raw: UnsafeRawBufferPointer) -> VP8StatusCode {
        guard raw.count > appended, let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return VP8_STATUS_SUSPENDED
        }
        let status = WebPIAppend(decoder, base + appended, raw.count - appended)
        appended = raw.count
        return status
    }

    /// The rows decoded so far (0 before the first row).
    var decodedRows: Int {
        var lastY: Int32 = 0
        var width: Int32 = 0, height: Int32 = 0, stride: Int32 = 0
        guard WebPIDecGetRGB(decoder, &lastY, &width, &height, &stride) != nil else { return 0 }
        return max(0, min(Int(lastY), size.height))
    }

    /// A copy of the output pixels: the decoded rows, transparent below them.
    func snapshot(hasAlpha: Bool) throws -> Bitmap {
        try Bitmap(width: size.width, height: size.height, bytes: Array(pixels), hasAlpha: hasAlpha)
    }
}
