// See include/wi_jpeg.h. Every exported function that calls into libjpeg sets a setjmp point
// first; error_exit formats the message and longjmps back there.
#include "wi_jpeg.h"

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

struct wi_jpeg_error_manager {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    int warnings;
    int too_large;
    int too_many_scans;
    char message[JMSG_LENGTH_MAX + 64];
};

struct wi_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct wi_jpeg_error_manager error;
    struct jpeg_source_mgr source;
    struct jpeg_progress_mgr progress;
    const uint8_t *data;
    size_t length;
    int max_scans;
    long memory_budget;
    int exhausted;
    int short_data;
    int output_started;
    long exhausted_row;
    JOCTET fake_eoi[2];
    /// The ICC profile assembled from the APP2 ICC_PROFILE segments (malloc'ed by
    /// jpeg_read_icc_profile), or NULL.
    JOCTET *icc;
    /// Output RGB (3 bytes a pixel) instead of RGBA, for a colour conversion that reads RGB.
    int rgb_output;
    /// The reading source (wi_jpeg_decoder_create_reading): NULL for data in memory.
    wi_jpeg_read_function read;
    void *read_context;
    JOCTET *read_buffer;
    size_t read_buffer_size;
    int read_failed;
};

// MARK: errors and warnings

static void wi_error_exit(j_common_ptr cinfo) {
    struct wi_jpeg_error_manager *error = (struct wi_jpeg_error_manager *)cinfo->err;
    if (error->pub.msg_code == JERR_IMAGE_TOO_BIG || error->pub.msg_code == JERR_WIDTH_OVERFLOW ||
        error->pub.msg_code == JERR_NO_BACKING_STORE || error->pub.msg_code == JERR_OUT_OF_MEMORY) {
        // Over libjpeg's own limits, or over the memory cap (max_memory_to_use) we gave it.
        error->too_large = 1;
    }
    (*cinfo->err->format_message)(cinfo, error->message);
    longjmp(error->jump, 1);
}

static void wi_emit_message(j_common_ptr cinfo, int level) {
    struct wi_jpeg_error_manager *error = (struct wi_jpeg_error_manager *)cinfo->err;
    if (level < 0 && cinfo->is_decompressor) {
        struct wi_jpeg_decoder *decoder = (struct wi_jpeg_decoder *)cinfo->client_data;
        if (decoder != NULL && decoder->exhausted && error->pub.msg_code != JWRN_JPEG_EOF) {
            // Entropy-coded data was cut short: the rows from the exhaustion point on are filler.
            decoder->short_data = 1;
        }
    }
    if (level < 0) {
        // A warning: corrupt data libjpeg works around. Keep the first message, never print.
        if (error->warnings == 0) {
            (*cinfo->err->format_message)(cinfo, error->message);
        }
        error->warnings += 1;
    }
    // level >= 0 is trace output: ignored.
}

static void wi_output_message(j_common_ptr cinfo) {
    struct wi_jpeg_error_manager *error = (struct wi_jpeg_error_manager *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, error->message);
}

static void wi_install_error_manager(struct wi_jpeg_error_manager *error) {
    jpeg_std_error(&error->pub);
    error->pub.error_exit = wi_error_exit;
    error->pub.emit_message = wi_emit_message;
    error->pub.output_message = wi_output_message;
    error->warnings = 0;
    error->too_large = 0;
    error->too_many_scans = 0;
    error->message[0] = 0;
}

// MARK: the in-memory source that remembers where the data ran out

static void wi_init_source(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean wi_fill_input_buffer(j_decompress_ptr cinfo) {
    struct wi_jpeg_decoder *decoder = (struct wi_jpeg_decoder *)cinfo->client_data;
    if (decoder->read != NULL && !decoder->exhausted) {
        long got = decoder->read(decoder->read_context, decoder->read_buffer, decoder->read_buffer_size);
        if (got < 0) {
            decoder->read_failed = 1;
            ERREXIT(cinfo, JERR_FILE_READ);
        }
        if (got > 0) {
            cinfo->src->next_input_byte = decoder->read_buffer;
            cinfo->src->bytes_in_buffer = (size_t)got;
            return TRUE;
        }
    }
    if (!decoder->exhausted) {
        decoder->exhausted = 1;
        decoder->exhausted_row = decoder->output_started ? (long)cinfo->output_scanline : -1;
    }
    // Like jpeg_mem_src: insert a fake EOI so that libjpeg finishes with what it has.
    WARNMS(cinfo, JWRN_JPEG_EOF);
    decoder->fake_eoi[0] = (JOCTET)0xFF;
    decoder->fake_eoi[1] = (JOCTET)JPEG_EOI;
    cinfo->src->next_input_byte = decoder->fake_eoi;
    cinfo->src->bytes_in_buffer = 2;
    return TRUE;
}

static void wi_skip_input_data(j_decompress_ptr cinfo, long count) {
    struct jpeg_source_mgr *source = cinfo->src;
    if (count <= 0) return;
    while (count > (long)source->bytes_in_buffer) {
        count -= (long)source->bytes_in_buffer;
        (void)(*source->fill_input_buffer)(cinfo);
    }
    source->next_input_byte += (size_t)count;
    source->bytes_in_buffer -= (size_t)count;
}

static void wi_term_source(j_decompress_ptr cinfo) { (void)cinfo; }

// MARK: scan limit (a crafted progressive file with thousands of scans is a CPU bomb)

static void wi_progress_monitor(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    struct wi_jpeg_decoder *decoder = (struct wi_jpeg_decoder *)dinfo->client_data;
    if (decoder->max_scans > 0 && dinfo->input_scan_number > decoder->max_scans) {
        snprintf(decoder->error.message, sizeof decoder->error.message,
                 "the progressive JPEG has more than %d scans (the limit for %zu bytes of data)",
                 decoder->max_scans, decoder->length);
        decoder->error.too_many_scans = 1;
        longjmp(decoder->error.jump, 1);
    }
}

// MARK: decoder

wi_jpeg_decoder *wi_jpeg_decoder_create(const uint8_t *data, size_t length, int max_scans, long memory_budget) {
    struct wi_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->data = data;
    decoder->length = length;
    decoder->max_scans = max_scans;
    decoder->memory_budget = memory_budget;
    decoder->exhausted_row = -1;
    wi_install_error_manager(&decoder->error);
    decoder->cinfo.err = &decoder->error.pub;
    if (setjmp(decoder->error.jump)) {
        jpeg_destroy_decompress(&decoder->cinfo);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->cinfo.client_data = decoder;
    decoder->source.init_source = wi_init_source;
    decoder->source.fill_input_buffer = wi_fill_input_buffer;
    decoder->source.skip_input_data = wi_skip_input_data;
    decoder->source.resync_to_restart = jpeg_resync_to_restart;
    decoder->source.term_source = wi_term_source;
    decoder->source.next_input_byte = (const JOCTET *)data;
    decoder->source.bytes_in_buffer = length;
    decoder->cinfo.src = &decoder->source;
    decoder->progress.progress_monitor = wi_progress_monitor;
    decoder->cinfo.progress = &decoder->progress;
    if (memory_budget > 0) {
        // A backstop: without a backing store libjpeg-turbo fails (JERR_NO_BACKING_STORE) when
        // its whole-image buffers would pass this. The explicit check on the header
        // (coefficient_bytes) is what refuses hostile files before anything is allocated.
        decoder->cinfo.mem->max_memory_to_use = memory_budget;
    }
    return decoder;
}

wi_jpeg_decoder *wi_jpeg_decoder_create_reading(wi_jpeg_read_function read, void *context, size_t buffer_size,
                                                size_t byte_count, int max_scans, long memory_budget) {
    if (read == NULL || buffer_size == 0) return NULL;
    JOCTET *buffer = malloc(buffer_size);
    if (buffer == NULL) return NULL;
    wi_jpeg_decoder *decoder = wi_jpeg_decoder_create(NULL, byte_count, max_scans, memory_budget);
    if (decoder == NULL) {
        free(buffer);
        return NULL;
    }
    decoder->read = read;
    decoder->read_context = context;
    decoder->read_buffer = buffer;
    decoder->read_buffer_size = buffer_size;
    // Empty: libjpeg's first request for bytes calls the read function.
    decoder->source.next_input_byte = buffer;
    decoder->source.bytes_in_buffer = 0;
    return decoder;
}

void wi_jpeg_decoder_use_rgb_output(wi_jpeg_decoder *decoder) {
    decoder->rgb_output = 1;
}

void wi_jpeg_decoder_destroy(wi_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    if (setjmp(decoder->error.jump) == 0) {
        jpeg_destroy_decompress(&decoder->cinfo);
    }
    free(decoder->icc);
    free(decoder->read_buffer);
    free(decoder);
}

static int wi_failure(wi_jpeg_decoder *decoder) {
    if (decoder->read_failed) return WI_JPEG_READ_FAILED;
    if (decoder->error.too_many_scans) return WI_JPEG_TOO_MANY_SCANS;
    return decoder->error.too_large ? WI_JPEG_TOO_LARGE : WI_JPEG_ERROR;
}

int wi_jpeg_decoder_read_header(wi_jpeg_decoder *decoder, wi_jpeg_info *info) {
    memset(info, 0, sizeof *info);
    if (setjmp(decoder->error.jump)) {
        return decoder->exhausted ? WI_JPEG_TRUNCATED_HEADER : wi_failure(decoder);
    }
    jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 2, 0xFFFF);
    int status = jpeg_read_header(&decoder->cinfo, TRUE);
    if (status != JPEG_HEADER_OK) {
        snprintf(decoder->error.message, sizeof decoder->error.message, "no image in the JPEG stream");
        return decoder->exhausted ? WI_JPEG_TRUNCATED_HEADER : WI_JPEG_ERROR;
    }
    if (decoder->exhausted) {
        // The fake EOI came before the first scan's data.
        return WI_JPEG_TRUNCATED_HEADER;
    }
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    info->width = (int)cinfo->image_width;
    info->height = (int)cinfo->image_height;
    info->components = cinfo->num_components;
    switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE: info->color_space = WI_JPEG_COLOR_GRAY; break;
    case JCS_RGB: info->color_space = WI_JPEG_COLOR_RGB; break;
    case JCS_YCbCr: info->color_space = WI_JPEG_COLOR_YCBCR; break;
    case JCS_CMYK: info->color_space = WI_JPEG_COLOR_CMYK; break;
    case JCS_YCCK: info->color_space = WI_JPEG_COLOR_YCCK; break;
    default: info->color_space = WI_JPEG_COLOR_UNKNOWN; break;
    }
    info->progressive = jpeg_has_multiple_scans(cinfo) ? 1 : 0;
    if (info->progressive) {
        // jdcoefct.c keeps every DCT coefficient of a multi-scan file: per component, the
        // blocks padded to whole MCUs (a multiple of the sampling factors), 64 JCOEFs each.
        uint64_t bytes = 0;
        for (int index = 0; index < cinfo->num_components; index++) {
            const jpeg_component_info *component = &cinfo->comp_info[index];
            uint64_t h = (uint64_t)component->h_samp_factor, v = (uint64_t)component->v_samp_factor;
            uint64_t columns = ((uint64_t)component->width_in_blocks + h - 1) / h * h;
            uint64_t rows = ((uint64_t)component->height_in_blocks + v - 1) / v * v;
            bytes += columns * rows * DCTSIZE2 * sizeof(JCOEF);
        }
        info->coefficient_bytes = bytes;
    }
    info->saw_adobe_marker = cinfo->saw_Adobe_marker ? 1 : 0;
    // The ICC profile: every APP2 "ICC_PROFILE" segment, in sequence order (libjpeg-turbo
    // checks the numbering and refuses gaps or duplicates: then there is no profile).
    JOCTET *icc = NULL;
    unsigned int icc_length = 0;
    if (decoder->icc == NULL && jpeg_read_icc_profile(cinfo, &icc, &icc_length) && icc != NULL) {
        decoder->icc = icc;
        info->icc = icc;
        info->icc_length = icc_length;
    }
    static const char xmp_signature[] = "http://ns.adobe.com/xap/1.0/";  // followed by a NUL
    for (jpeg_saved_marker_ptr marker = cinfo->marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker != JPEG_APP0 + 1) continue;
        if (info->exif == NULL && marker->data_length >= 6 && memcmp(marker->data, "Exif\0\0", 6) == 0) {
            info->exif = marker->data + 6;
            info->exif_length = marker->data_length - 6;
        } else if (info->xmp == NULL && marker->data_length >= sizeof xmp_signature &&
                   memcmp(marker->data, xmp_signature, sizeof xmp_signature) == 0) {
            info->xmp = marker->data + sizeof xmp_signature;
            info->xmp_length = marker->data_length - sizeof xmp_signature;
        }
    }
    return WI_JPEG_OK;
}

int wi_jpeg_decoder_start(wi_jpeg_decoder *decoder, int scale_eighths, int fast, int *out_width, int *out_height) {
    if (setjmp(decoder->error.jump)) {
        return wi_failure(decoder);
    }
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK) {
        cinfo->out_color_space = JCS_CMYK;
    } else {
        cinfo->out_color_space = decoder->rgb_output ? JCS_RGB : JCS_EXT_RGBA;
    }
    if (scale_eighths < 1) scale_eighths = 1;
    if (scale_eighths > 8) scale_eighths = 8;
    cinfo->scale_num = (unsigned int)scale_eighths;
    cinfo->scale_denom = 8;
    if (fast) {
        cinfo->dct_method = JDCT_IFAST;
        cinfo->do_fancy_upsampling = FALSE;
    }
    jpeg_calc_output_dimensions(cinfo);
    *out_width = (int)cinfo->output_width;
    *out_height = (int)cinfo->output_height;
    // For a progressive file this consumes every scan that has arrived.
    (void)jpeg_start_decompress(cinfo);
    decoder->output_started = 1;
    *out_width = (int)cinfo->output_width;
    *out_height = (int)cinfo->output_height;
    return WI_JPEG_OK;
}

int wi_jpeg_decoder_read_rows(wi_jpeg_decoder *decoder, uint8_t *destination, size_t stride, int max_rows, int *rows_read) {
    *rows_read = 0;
    if (setjmp(decoder->error.jump)) {
        return wi_failure(decoder);
    }
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    enum { BATCH = 16 };
    JSAMPROW rows[BATCH];
    int done = 0;
    while (done < max_rows && cinfo->output_scanline < cinfo->output_height) {
        int batch = max_rows - done;
        if (batch > BATCH) batch = BATCH;
        for (int i = 0; i < batch; i++) {
            rows[i] = (JSAMPROW)(destination + (size_t)(done + i) * stride);
        }
        JDIMENSION got = jpeg_read_scanlines(cinfo, rows, (JDIMENSION)batch);
        if (got == 0) break;
        done += (int)got;
        *rows_read = done;
    }
    return WI_JPEG_OK;
}

void wi_jpeg_advise_pixel_buffer(uint8_t *buffer, size_t length) {
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
    // Only a buffer glibc surely gave its own mapping (at least its largest mmap threshold,
    // 32 MiB on 64-bit): that mapping goes away with the buffer. Advising memory of the heap
    // would leave the flag on pages that later small allocations reuse, each fault then
    // clearing 2 MB (measured: 8% of the encode case's time).
    if (length < ((size_t)32 << 20)) return;
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t start = ((uintptr_t)buffer + huge - 1) & ~(huge - 1);
    uintptr_t end = ((uintptr_t)buffer + length) & ~(huge - 1);
    if (end > start) (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)buffer;
    (void)length;
#endif
}

int wi_jpeg_decoder_data_exhausted(const wi_jpeg_decoder *decoder) { return decoder->exhausted; }

long wi_jpeg_decoder_exhausted_row(const wi_jpeg_decoder *decoder) {
    return decoder->short_data ? decoder->exhausted_row : -1;
}

int wi_jpeg_decoder_warning_count(const wi_jpeg_decoder *decoder) { return decoder->error.warnings; }

const char *wi_jpeg_decoder_message(const wi_jpeg_decoder *decoder) { return decoder->error.message; }

// MARK: encoder

struct wi_jpeg_encoder {
    struct jpeg_compress_struct cinfo;
    struct wi_jpeg_error_manager error;
    struct jpeg_destination_mgr destination;
    unsigned char *buffer;
    size_t capacity;
};

// A destination into one malloc'ed buffer that starts with room for what a photo usually needs
// (see wi_jpeg_encode) and grows with realloc (which moves large buffers by remapping pages, not
// copying), instead of jpeg_mem_dest's doubling from 4 KB with a copy each time. The buffer is
// always the encoder's, so it is freed on every path.

static void wi_init_destination(j_compress_ptr cinfo) {
    struct wi_jpeg_encoder *encoder = (struct wi_jpeg_encoder *)cinfo->client_data;
    cinfo->dest->next_output_byte = encoder->buffer;
    cinfo->dest->free_in_buffer = encoder->capacity;
}

static boolean wi_empty_output_buffer(j_compress_ptr cinfo) {
    struct wi_jpeg_encoder *encoder = (struct wi_jpeg_encoder *)cinfo->client_data;
    // libjpeg calls this when the buffer is full: all of it is data.
    size_t used = encoder->capacity;
    size_t capacity = used * 2;
    unsigned char *grown = realloc(encoder->buffer, capacity);
    if (grown == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 11);
    encoder->buffer = grown;
    encoder->capacity = capacity;
    cinfo->dest->next_output_byte = grown + used;
    cinfo->dest->free_in_buffer = capacity - used;
    return TRUE;
}

static void wi_term_destination(j_compress_ptr cinfo) { (void)cinfo; }

int wi_jpeg_encode(const uint8_t *pixels, int width, int height, size_t stride, int quality, int progressive,
                   int optimize_coding, int grayscale, const uint8_t *icc, size_t icc_length,
                   uint8_t **output, size_t *output_length, char *message, size_t message_capacity) {
    *output = NULL;
    *output_length = 0;
    if (message_capacity > 0) message[0] = 0;
    // volatile: read after a longjmp.
    struct wi_jpeg_encoder *volatile encoder = calloc(1, sizeof(struct wi_jpeg_encoder));
    if (encoder == NULL) {
        snprintf(message, message_capacity, "out of memory");
        return WI_JPEG_ERROR;
    }
    // 3/4 byte a pixel is about what quality 95 needs for a photo; pages never written cost
    // nothing, and the tail is given back at the end.
    encoder->capacity = (size_t)width * (size_t)height * 3 / 4 + 16384;
    encoder->buffer = malloc(encoder->capacity);
    if (encoder->buffer == NULL) {
        free(encoder);
        snprintf(message, message_capacity, "out of memory");
        return WI_JPEG_ERROR;
    }
    wi_install_error_manager(&encoder->error);
    encoder->cinfo.err = &encoder->error.pub;
    if (setjmp(encoder->error.jump)) {
        snprintf(message, message_capacity, "%s", encoder->error.message);
        jpeg_destroy_compress(&encoder->cinfo);
        free(encoder->buffer);
        free(encoder);
        return WI_JPEG_ERROR;
    }
    jpeg_create_compress(&encoder->cinfo);
    struct jpeg_compress_struct *cinfo = &encoder->cinfo;
    cinfo->client_data = encoder;
    encoder->destination.init_destination = wi_init_destination;
    encoder->destination.empty_output_buffer = wi_empty_output_buffer;
    encoder->destination.term_destination = wi_term_destination;
    cinfo->dest = &encoder->destination;
    cinfo->image_width = (JDIMENSION)width;
    cinfo->image_height = (JDIMENSION)height;
    cinfo->input_components = 4;
    cinfo->in_color_space = JCS_EXT_RGBX;
    jpeg_set_defaults(cinfo);
    if (grayscale) jpeg_set_colorspace(cinfo, JCS_GRAYSCALE);
    if (quality < 1) quality = 1;
    if (quality > 100) quality = 100;
    jpeg_set_quality(cinfo, quality, TRUE);
    // Huffman tables made for this image's symbols (a second pass over the coefficients,
    // which libjpeg keeps in memory) instead of the standard tables of the JPEG spec's
    // Annex K. libjpeg turns it on by itself for progressive output.
    cinfo->optimize_coding = optimize_coding ? TRUE : FALSE;
    if (progressive) jpeg_simple_progression(cinfo);
    jpeg_start_compress(cinfo, TRUE);
    if (icc != NULL && icc_length > 0 && icc_length <= 0xFFFFFFFFu) jpeg_write_icc_profile(cinfo, icc, (unsigned int)icc_length);
    // The rows straight from the bitmap (JCS_EXT_RGBX reads 4-byte pixels), 16 per call.
    enum { BATCH = 16 };
    JSAMPROW rows[BATCH];
    while (cinfo->next_scanline < cinfo->image_height) {
        JDIMENSION first = cinfo->next_scanline;
        JDIMENSION batch = cinfo->image_height - first;
        if (batch > BATCH) batch = BATCH;
        for (JDIMENSION i = 0; i < batch; i++) {
            rows[i] = (JSAMPROW)(pixels + (size_t)(first + i) * stride);
        }
        (void)jpeg_write_scanlines(cinfo, rows, batch);
    }
    jpeg_finish_compress(cinfo);
    size_t length = encoder->capacity - cinfo->dest->free_in_buffer;
    unsigned char *result = encoder->buffer;
    // Give back the unused tail (in place, or by remapping pages: no copy).
    unsigned char *shrunk = realloc(result, length > 0 ? length : 1);
    if (shrunk != NULL) result = shrunk;
    *output = result;
    *output_length = length;
    jpeg_destroy_compress(cinfo);
    free(encoder);
    return WI_JPEG_OK;
}

void wi_jpeg_free(uint8_t *buffer) { free(buffer); }
