// A small C layer over libjpeg-turbo for WebImageCoders.
//
// libjpeg reports fatal errors by calling error_exit, which must not return; the only safe way
// out from Swift's point of view is a longjmp back into C. Every function here sets its own
// setjmp point before it calls libjpeg, so a corrupt file becomes an error code and a message,
// never an exit() or a jump through Swift frames. Warnings are counted and kept (the last
// message) instead of being printed to stderr.
#ifndef WI_JPEG_H
#define WI_JPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Result codes of the decoder functions.
enum {
    WI_JPEG_OK = 0,
    /// libjpeg raised an error; see wi_jpeg_decoder_message.
    WI_JPEG_ERROR = -1,
    /// The data ended before the image data started (header incomplete).
    WI_JPEG_TRUNCATED_HEADER = -2,
    /// The image's dimensions are over libjpeg's own limit (65500 per side).
    WI_JPEG_TOO_LARGE = -3,
    /// A progressive file has more scans than the decoder's max_scans.
    WI_JPEG_TOO_MANY_SCANS = -4,
    /// The read function of wi_jpeg_decoder_create_reading failed.
    WI_JPEG_READ_FAILED = -5,
};

/// The colour model of the file's pixels (jpeg_color_space).
enum {
    WI_JPEG_COLOR_UNKNOWN = 0,
    WI_JPEG_COLOR_GRAY = 1,
    WI_JPEG_COLOR_RGB = 2,
    WI_JPEG_COLOR_YCBCR = 3,
    WI_JPEG_COLOR_CMYK = 4,
    WI_JPEG_COLOR_YCCK = 5,
};

/// What the header says.
typedef struct wi_jpeg_info {
    int width;
    int height;
    int components;
    int color_space;
    /// Whether the file is progressive (multi-scan).
    int progressive;
    /// For a progressive (multi-scan) file, the bytes of the whole-image DCT coefficient buffer
    /// libjpeg allocates in wi_jpeg_decoder_start (0 for a single-scan file, which needs none).
    uint64_t coefficient_bytes;
    /// Whether an Adobe APP14 marker was seen (CMYK data is then stored inverted).
    int saw_adobe_marker;
    /// The first APP1 "Exif\0\0" marker's payload after the 6-byte signature, or NULL.
    const uint8_t *exif;
    size_t exif_length;
    /// The first APP1 XMP packet (after "http://ns.adobe.com/xap/1.0/\0"), or NULL.
    const uint8_t *xmp;
    size_t xmp_length;
    /// The ICC profile of the APP2 ICC_PROFILE segments, assembled (owned by the decoder), or NULL.
    const uint8_t *icc;
    size_t icc_length;
} wi_jpeg_info;

/// One decode of one JPEG stream, held in memory or read through a function. Not thread-safe;
/// use one per decode.
typedef struct wi_jpeg_decoder wi_jpeg_decoder;

/// A new decoder over `length` bytes at `data`. The bytes must stay valid until destroy.
/// Progressive files with more than `max_scans` scans fail with WI_JPEG_TOO_MANY_SCANS (0: no
/// limit). `memory_budget` (> 0) caps libjpeg's memory manager (max_memory_to_use); over it
/// libjpeg fails with WI_JPEG_TOO_LARGE. Returns NULL if memory is short.
wi_jpeg_decoder *wi_jpeg_decoder_create(const uint8_t *data, size_t length, int max_scans, long memory_budget);

/// Reads up to `capacity` bytes of the JPEG stream into `buffer`: returns how many (0 at the
/// end of the stream, negative when reading failed). Called from inside libjpeg, so it must
/// return (never longjmp or throw through C).
typedef long (*wi_jpeg_read_function)(void *context, uint8_t *buffer, size_t capacity);

/// A new decoder that pulls the stream through `read` into one buffer of `buffer_size` bytes
/// (allocated here, freed by destroy), so that the compressed data is never held whole: a
/// file read a piece at a time, or a stream. The end of the stream is treated as the end of
/// the in-memory data is (a fake EOI; wi_jpeg_decoder_data_exhausted). A negative return from
/// `read` fails the decode with WI_JPEG_READ_FAILED. `byte_count` is the stream's size, for
/// messages (0 if unknown). Other arguments as wi_jpeg_decoder_create. NULL if memory is short.
wi_jpeg_decoder *wi_jpeg_decoder_create_reading(wi_jpeg_read_function read, void *context, size_t buffer_size,
                                                size_t byte_count, int max_scans, long memory_budget);
void wi_jpeg_decoder_destroy(wi_jpeg_decoder *decoder);

/// Reads the header (and keeps the first EXIF marker).
int wi_jpeg_decoder_read_header(wi_jpeg_decoder *decoder, wi_jpeg_info *info);

/// Starts decompression at scale `scale_eighths`/8 (1...8). `fast` trades quality for speed
/// (fast integer IDCT, no fancy upsampling): used when the output is resampled afterwards.
/// Output is 4 bytes per pixel: RGBA (alpha 255) or, for CMYK and YCCK files, CMYK.
/// `out_width`/`out_height` receive the output size.
/// Makes wi_jpeg_decoder_start ask for RGB (3 bytes a pixel) instead of RGBA for a non-CMYK
/// image: for a colour conversion that reads RGB rows (lcms2 is faster on RGB than on RGBA input).
void wi_jpeg_decoder_use_rgb_output(wi_jpeg_decoder *decoder);
int wi_jpeg_decoder_start(wi_jpeg_decoder *decoder, int scale_eighths, int fast, int *out_width, int *out_height);

/// Reads up to `max_rows` rows into `destination` (rows `stride` bytes apart).
/// `rows_read` receives how many were read.
int wi_jpeg_decoder_read_rows(wi_jpeg_decoder *decoder, uint8_t *destination, size_t stride, int max_rows, int *rows_read);

/// Asks the kernel to back the whole 2 MB pages inside a freshly allocated, not yet written
/// pixel buffer of at least 32 MiB with huge pages (glibc's own mapping for such a buffer,
/// MADV_HUGEPAGE; smaller buffers and other platforms: nothing): a 48 MB bitmap then takes
/// about 24 page faults instead of 12,000, about a tenth of a full-size decode's CPU time.
void wi_jpeg_advise_pixel_buffer(uint8_t *buffer, size_t length);

/// Whether the data ran out (libjpeg was given a fake end-of-image marker).
int wi_jpeg_decoder_data_exhausted(const wi_jpeg_decoder *decoder);
/// The output row from which rows are filler because the entropy-coded data was cut short while
/// rows were being produced; -1 if the data did not run out during output (a progressive file
/// whose scans were consumed before output: every row holds the scans received), or if only
/// markers after the last scan (such as EOI) were missing.
long wi_jpeg_decoder_exhausted_row(const wi_jpeg_decoder *decoder);
/// How many warnings libjpeg raised (corrupt data it worked around).
int wi_jpeg_decoder_warning_count(const wi_jpeg_decoder *decoder);
/// The last error or warning message ("" if none). Valid until the next call.
const char *wi_jpeg_decoder_message(const wi_jpeg_decoder *decoder);

/// Resamples straight RGBA8 pixels (`source_stride` bytes a row) to `width` x `height`
/// (tightly packed) with Lanczos-3, exactly as WebImageCore's `Bitmap.resampled(to:filter:
/// .lanczos3)` defines it: separable, support scaled by the reduction, edges clamped, weights
/// normalized, colours filtered premultiplied by alpha, output alpha rounding to 0 gives
/// (0, 0, 0, 0). Results match it within float rounding (at most 1 level). The JPEG coder's
/// thumbnails and scale-downs use it because, being C, it stays fast in a debug build (a
/// user's `swift test`), where Swift's SIMD code is about 100 times slower than in release.
/// Returns WI_JPEG_OK, or WI_JPEG_ERROR for an empty size or when memory is short.
int wi_resample_lanczos3(const uint8_t *source, int source_width, int source_height, size_t source_stride,
                         uint8_t *destination, int width, int height);

/// Encodes `height` rows of 4-byte RGBX pixels (the fourth byte is ignored) as a baseline
/// (or progressive) JPEG with 4:2:0 chroma subsampling at `quality` (1...100), with Huffman
/// tables optimised for the image when `optimize_coding` is non-zero (libjpeg's
/// `optimize_coding`: smaller files for a second pass over the coefficients; progressive
/// output is always optimised) or the standard tables otherwise.
/// The rows are read straight from `pixels`, no copy. On success returns WI_JPEG_OK and a
/// malloc'ed buffer of exactly `*output_length` bytes in `*output` (free with wi_jpeg_free or
/// free); on failure WI_JPEG_ERROR and a message in `message`. An ICC profile of `icc_length`
/// bytes at `icc` (none when NULL or 0) is written in APP2 markers (split as the ICC spec says).
int wi_jpeg_encode(const uint8_t *pixels, int width, int height, size_t stride, int quality, int progressive,
                   int optimize_coding, int grayscale, const uint8_t *icc, size_t icc_length,
                   uint8_t **output, size_t *output_length, char *message, size_t message_capacity);

/// Frees a buffer from wi_jpeg_encode.
void wi_jpeg_free(uint8_t *buffer);

#ifdef __cplusplus
}
#endif

#endif
