// libtiff 4.5+ for the TIFFCoder plug-in, with small inline helpers that Swift cannot write
// itself: libtiff's tag accessors are C variadic functions (TIFFGetField, TIFFSetField), its
// error handlers take a va_list, and its client I/O is a table of C callbacks.
//
// Errors and warnings: every TIFF the plug-in opens gets handlers of its own
// (TIFFOpenOptionsSetErrorHandlerExtR) that record the first error in a wi_tiff_messages and
// return 1, so libtiff prints nothing. Messages libtiff reports without a TIFF handle go to the
// process-wide handlers; wi_tiff_install_global_handlers chains in handlers that record them
// for the thread inside a plug-in call (a thread-local pointer) and pass every other thread's
// messages on to the handlers that were there before (an app's own use of libtiff is untouched).
#include <tiffio.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <pthread.h>

/// The latest error and the counts of errors and warnings libtiff reported for one TIFF.
typedef struct {
    char error[512];
    int error_count;
    int warning_count;
} wi_tiff_messages;

static inline void wi_tiff_record(wi_tiff_messages *messages, const char *module, const char *fmt, va_list ap) {
    if (messages == NULL) return;
    messages->error_count++;
    int used = 0;
    if (module != NULL) {
        used = snprintf(messages->error, sizeof messages->error, "%s: ", module);
        if (used < 0 || used >= (int)sizeof messages->error) used = 0;
    }
    vsnprintf(messages->error + used, sizeof messages->error - (size_t)used, fmt, ap);
}

static inline int wi_tiff_error_handler(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif;
    wi_tiff_record((wi_tiff_messages *)user, module, fmt, ap);
    return 1;
}

static inline int wi_tiff_warning_handler(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)module; (void)fmt; (void)ap;
    if (user != NULL) ((wi_tiff_messages *)user)->warning_count++;
    return 1;
}

// MARK: Process-wide handlers (messages without a TIFF handle)

// The state lives in function-local statics: Swift's importer emits the inline functions it
// calls, with their locals, but not file-scope variables of a header.
static inline wi_tiff_messages **wi_tiff_thread_slot(void) { static _Thread_local wi_tiff_messages *slot; return &slot; }
static inline TIFFErrorHandler *wi_tiff_previous_error_slot(void) { static TIFFErrorHandler handler; return &handler; }
static inline TIFFErrorHandler *wi_tiff_previous_warning_slot(void) { static TIFFErrorHandler handler; return &handler; }
static inline pthread_once_t *wi_tiff_once_slot(void) { static pthread_once_t once = PTHREAD_ONCE_INIT; return &once; }

static inline void wi_tiff_global_error(const char *module, const char *fmt, va_list ap) {
    wi_tiff_messages *messages = *wi_tiff_thread_slot();
    if (messages != NULL) { wi_tiff_record(messages, module, fmt, ap); return; }
    TIFFErrorHandler previous = *wi_tiff_previous_error_slot();
    if (previous != NULL) previous(module, fmt, ap);
}

static inline void wi_tiff_global_warning(const char *module, const char *fmt, va_list ap) {
    wi_tiff_messages *messages = *wi_tiff_thread_slot();
    if (messages != NULL) { messages->warning_count++; return; }
    TIFFErrorHandler previous = *wi_tiff_previous_warning_slot();
    if (previous != NULL) previous(module, fmt, ap);
}

static inline void wi_tiff_install_once(void) {
    *wi_tiff_previous_error_slot() = TIFFSetErrorHandler(wi_tiff_global_error);
    *wi_tiff_previous_warning_slot() = TIFFSetWarningHandler(wi_tiff_global_warning);
}

/// Chains the process-wide handlers in (once), then makes `messages` (or NULL) the calling
/// thread's recipient.
static inline void wi_tiff_capture_thread_messages(wi_tiff_messages *messages) {
    pthread_once(wi_tiff_once_slot(), wi_tiff_install_once);
    *wi_tiff_thread_slot() = messages;
}

// MARK: Memory I/O

/// A TIFF in memory: read-only over caller-owned bytes, or a growing malloc'd buffer to write.
typedef struct {
    uint8_t *base;
    uint64_t size;
    uint64_t capacity;
    uint64_t position;
    int writable;
    int failed;
} wi_tiff_stream;

static inline tmsize_t wi_tiff_stream_read(thandle_t handle, void *buffer, tmsize_t count) {
    wi_tiff_stream *s = (wi_tiff_stream *)handle;
    if (count <= 0 || s->position >= s->size) return 0;
    uint64_t available = s->size - s->position;
    uint64_t n = (uint64_t)count < available ? (uint64_t)count : available;
    memcpy(buffer, s->base + s->position, (size_t)n);
    s->position += n;
    return (tmsize_t)n;
}

static inline tmsize_t wi_tiff_stream_write(thandle_t handle, void *buffer, tmsize_t count) {
    wi_tiff_stream *s = (wi_tiff_stream *)handle;
    if (!s->writable || count < 0) return -1;
    uint64_t end = s->position + (uint64_t)count;
    if (end < s->position || end > ((uint64_t)1 << 40)) { s->failed = 1; return -1; }
    if (end > s->capacity) {
        uint64_t capacity = s->capacity < 4096 ? 4096 : s->capacity;
        while (capacity < end) capacity *= 2;
        uint8_t *grown = (uint8_t *)realloc(s->base, (size_t)capacity);
        if (grown == NULL) { s->failed = 1; return -1; }
        if (s->position > s->size) memset(grown + s->size, 0, (size_t)(s->position - s->size));
        s->base = grown;
        s->capacity = capacity;
    } else if (s->position > s->size) {
        memset(s->base + s->size, 0, (size_t)(s->position - s->size));
    }
    memcpy(s->base + s->position, buffer, (size_t)count);
    s->position = end;
    if (end > s->size) s->size = end;
    return count;
}

static inline toff_t wi_tiff_stream_seek(thandle_t handle, toff_t offset, int whence) {
    wi_tiff_stream *s = (wi_tiff_stream *)handle;
    uint64_t base = whence == SEEK_CUR ? s->position : whence == SEEK_END ? s->size : 0;
    uint64_t target = base + offset;
    if (target > ((uint64_t)1 << 40)) return (toff_t)-1;
    s->position = target;
    return target;
}

static inline int wi_tiff_stream_close(thandle_t handle) { (void)handle; return 0; }
static inline toff_t wi_tiff_stream_size(thandle_t handle) { return ((wi_tiff_stream *)handle)->size; }

static inline int wi_tiff_stream_map(thandle_t handle, void **base, toff_t *size) {
    wi_tiff_stream *s = (wi_tiff_stream *)handle;
    if (s->writable) return 0;
    *base = s->base;
    *size = s->size;
    return 1;
}

static inline void wi_tiff_stream_unmap(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

/// Opens the TIFF in `stream` ("r": `stream` reads caller-owned bytes; "w": it grows) with
/// handlers that record into `messages` and libtiff's single allocations capped at `max_alloc`.
static inline TIFF *wi_tiff_open(wi_tiff_stream *stream, const char *mode, wi_tiff_messages *messages, tmsize_t max_alloc) {
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (options == NULL) return NULL;
    TIFFOpenOptionsSetErrorHandlerExtR(options, wi_tiff_error_handler, messages);
    TIFFOpenOptionsSetWarningHandlerExtR(options, wi_tiff_warning_handler, messages);
    if (max_alloc > 0) TIFFOpenOptionsSetMaxSingleMemAlloc(options, max_alloc);
    TIFF *tif = TIFFClientOpenExt("memory", mode, (thandle_t)stream, wi_tiff_stream_read, wi_tiff_stream_write,
                                  wi_tiff_stream_seek, wi_tiff_stream_close, wi_tiff_stream_size,
                                  wi_tiff_stream_map, wi_tiff_stream_unmap, options);
    TIFFOpenOptionsFree(options);
    return tif;
}

// MARK: Tags (TIFFGetField and TIFFSetField are variadic)

static inline int wi_tiff_get_u16(TIFF *tif, uint32_t tag, uint16_t *value) { return TIFFGetField(tif, tag, value); }
static inline int wi_tiff_get_u16_defaulted(TIFF *tif, uint32_t tag, uint16_t *value) { return TIFFGetFieldDefaulted(tif, tag, value); }
static inline int wi_tiff_get_u32(TIFF *tif, uint32_t tag, uint32_t *value) { return TIFFGetField(tif, tag, value); }
static inline int wi_tiff_get_u32_defaulted(TIFF *tif, uint32_t tag, uint32_t *value) { return TIFFGetFieldDefaulted(tif, tag, value); }
static inline int wi_tiff_get_icc(TIFF *tif, uint32_t *count, void **data) { return TIFFGetField(tif, TIFFTAG_ICCPROFILE, count, data); }
static inline int wi_tiff_get_extra_samples(TIFF *tif, uint16_t *count, uint16_t **values) { return TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, count, values); }
static inline int wi_tiff_get_sub_ifds(TIFF *tif, uint16_t *count, uint64_t **offsets) { return TIFFGetField(tif, TIFFTAG_SUBIFD, count, offsets); }
static inline int wi_tiff_set_u16(TIFF *tif, uint32_t tag, uint16_t value) { return TIFFSetField(tif, tag, (int)value); }
static inline int wi_tiff_set_u32(TIFF *tif, uint32_t tag, uint32_t value) { return TIFFSetField(tif, tag, value); }
static inline int wi_tiff_set_extra_samples(TIFF *tif, uint16_t count, const uint16_t *values) { return TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, (int)count, values); }
static inline int wi_tiff_set_icc(TIFF *tif, uint32_t count, const void *data) { return TIFFSetField(tif, TIFFTAG_ICCPROFILE, count, data); }
