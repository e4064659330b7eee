// See wi_resample_lanczos3 in include/wi_jpeg.h. The same resampler as WebImageCore's
// ResamplingEngine (horizontal pass into a ring of rows, then the vertical window), written in C
// so that a JPEG thumbnail or scale-down of a large photo takes a second, not a minute, in a
// debug build. Pixels are filtered as four floats, premultiplied and scaled by 255:
// (r * a, g * a, b * a, 255 * a) for straight RGBA8 (r, g, b, a).
#include "wi_jpeg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef float wi_v4 __attribute__((vector_size(16)));

/// The weights of one direction: for each output index, a window of source indices.
typedef struct wi_weights {
    int stride;
    int *first;
    int *count;
    float *weights;
} wi_weights;

static double wi_lanczos3(double x) {
    static const double pi = 3.14159265358979323846;
    double t = fabs(x);
    if (t < 1e-12) return 1;
    if (t >= 3) return 0;
    double px = pi * t;
    return 3 * sin(px) * sin(px / 3) / (px * px);
}

static void wi_weights_free(wi_weights *w) {
    free(w->first);
    free(w->count);
    free(w->weights);
}

/// Fills `w` for `in` source samples to `out`; 0 when memory is short.
static int wi_weights_init(wi_weights *w, int in, int out) {
    memset(w, 0, sizeof *w);
    double scale = (double)in / (double)out;
    double filter_scale = scale > 1 ? scale : 1;
    double support = 3 * filter_scale;
    int max_taps = (int)ceil(2 * support) + 3;
    if (max_taps > in) max_taps = in;
    if (in == out) max_taps = 1;
    w->stride = max_taps;
    w->first = malloc(sizeof(int) * (size_t)out);
    w->count = malloc(sizeof(int) * (size_t)out);
    w->weights = calloc((size_t)out * (size_t)max_taps, sizeof(float));
    double *window = malloc(sizeof(double) * (size_t)max_taps);
    if (w->first == NULL || w->count == NULL || w->weights == NULL || window == NULL) {
        free(window);
        wi_weights_free(w);
        return 0;
    }
    for (int i = 0; i < out; i++) {
        if (in == out) {
            // Every kernel interpolates: the identity.
            w->first[i] = i;
            w->count[i] = 1;
            w->weights[i] = 1;
            continue;
        }
        double center = ((double)i + 0.5) * scale;
        int low = (int)floor(center - support);
        int high = (int)ceil(center + support);
        int clamped_low = low < 0 ? 0 : (low > in - 1 ? in - 1 : low);
        int clamped_high = high < 0 ? 0 : (high > in - 1 ? in - 1 : high);
        int span = clamped_high - clamped_low + 1;
        for (int k = 0; k < span; k++) window[k] = 0;
        double total = 0;
        for (int j = low; j <= high; j++) {
            double weight = wi_lanczos3(((double)j + 0.5 - center) / filter_scale);
            if (weight == 0) continue;
            int index = j < 0 ? 0 : (j > in - 1 ? in - 1 : j);
            window[index - clamped_low] += weight;
            total += weight;
        }
        if (total == 0) {
            int nearest = (int)center;
            w->first[i] = nearest < 0 ? 0 : (nearest > in - 1 ? in - 1 : nearest);
            w->count[i] = 1;
            w->weights[(size_t)i * (size_t)max_taps] = 1;
            continue;
        }
        int start = 0, end = span;
        while (start < end && window[start] == 0) start++;
        while (end > start && window[end - 1] == 0) end--;
        w->first[i] = clamped_low + start;
        w->count[i] = end - start;
        for (int k = start; k < end; k++) {
            w->weights[(size_t)i * (size_t)max_taps + (size_t)(k - start)] = (float)(window[k] / total);
        }
    }
    free(window);
    return 1;
}

static void wi_premultiply_row(const uint8_t *src, int count, wi_v4 *dst) {
    for (int x = 0; x < count; x++) {
        const uint8_t *p = src + (size_t)x * 4;
        float alpha = (float)p[3];
        wi_v4 v = {(float)p[0], (float)p[1], (float)p[2], 255.0f};
        dst[x] = v * alpha;
    }
}

static void wi_filter_row(const wi_v4 *row, const wi_weights *h, int out, wi_v4 *dst) {
    for (int i = 0; i < out; i++) {
        const wi_v4 *s = row + h->first[i];
        const float *w = h->weights + (size_t)i * (size_t)h->stride;
        int taps = h->count[i];
        wi_v4 a0 = {0, 0, 0, 0}, a1 = {0, 0, 0, 0};
        int k = 0;
        for (; k + 2 <= taps; k += 2) {
            a0 += s[k] * w[k];
            a1 += s[k + 1] * w[k + 1];
        }
        if (k < taps) a0 += s[k] * w[k];
        dst[i] = a0 + a1;
    }
}

/// Rounds a float in 0...255 to nearest, ties to even (as the Swift resampler does).
static inline uint8_t wi_round(float v) {
    if (v < 0) v = 0;
    if (v > 255) v = 255;
    union { float f; uint32_t u; } bits;
    bits.f = v + 12582912.0f;
    return (uint8_t)bits.u;
}

static void wi_unpremultiply_row(const wi_v4 *row, int count, uint8_t *dst) {
    for (int x = 0; x < count; x++) {
        wi_v4 v = row[x];
        uint8_t *p = dst + (size_t)x * 4;
        float alpha = v[3];
        if (alpha >= 127.5f) {  // alpha / 255 rounds to at least 1
            wi_v4 c = v * (255 / alpha);
            p[0] = wi_round(c[0]);
            p[1] = wi_round(c[1]);
            p[2] = wi_round(c[2]);
            p[3] = wi_round(alpha * (1.0f / 255));
        } else {
            p[0] = p[1] = p[2] = p[3] = 0;
        }
    }
}

int wi_resample_lanczos3(const uint8_t *source, int source_width, int source_height, size_t source_stride,
                         uint8_t *destination, int width, int height) {
    if (source_width < 1 || source_height < 1 || width < 1 || height < 1) return WI_JPEG_ERROR;
    wi_weights h, v;
    if (!wi_weights_init(&h, source_width, width)) return WI_JPEG_ERROR;
    if (!wi_weights_init(&v, source_height, height)) {
        wi_weights_free(&h);
        return WI_JPEG_ERROR;
    }
    // The ring holds every row of a vertical window: output y needs rows first..first+count-1,
    // and the rows of earlier windows that reach further down are already in it.
    int ring_rows = 1, furthest = 0;
    for (int y = 0; y < height; y++) {
        int last = v.first[y] + v.count[y] - 1;
        if (last > furthest) furthest = last;
        if (furthest - v.first[y] + 1 > ring_rows) ring_rows = furthest - v.first[y] + 1;
    }
    wi_v4 *premultiplied = malloc(sizeof(wi_v4) * (size_t)source_width);
    wi_v4 *ring = malloc(sizeof(wi_v4) * (size_t)ring_rows * (size_t)width);
    wi_v4 *accumulator = malloc(sizeof(wi_v4) * (size_t)width);
    int *slot_row = malloc(sizeof(int) * (size_t)ring_rows);
    int status = WI_JPEG_ERROR;
    if (premultiplied == NULL || ring == NULL || accumulator == NULL || slot_row == NULL) goto done;
    for (int slot = 0; slot < ring_rows; slot++) slot_row[slot] = -1;

    for (int y = 0; y < height; y++) {
        int first = v.first[y], count = v.count[y];
        for (int row = first; row < first + count; row++) {
            int slot = row % ring_rows;
            if (slot_row[slot] == row) continue;
            wi_v4 *target = ring + (size_t)slot * (size_t)width;
            const uint8_t *src = source + (size_t)row * source_stride;
            if (source_width == width) {
                wi_premultiply_row(src, source_width, target);
            } else {
                wi_premultiply_row(src, source_width, premultiplied);
                wi_filter_row(premultiplied, &h, width, target);
            }
            slot_row[slot] = row;
        }
        const float *weights = v.weights + (size_t)y * (size_t)v.stride;
        const wi_v4 *row0 = ring + (size_t)(first % ring_rows) * (size_t)width;
        float w0 = weights[0];
        for (int x = 0; x < width; x++) accumulator[x] = row0[x] * w0;
        for (int k = 1; k < count; k++) {
            const wi_v4 *rowk = ring + (size_t)((first + k) % ring_rows) * (size_t)width;
            float wk = weights[k];
            for (int x = 0; x < width; x++) accumulator[x] += rowk[x] * wk;
        }
        wi_unpremultiply_row(accumulator, width, destination + (size_t)y * (size_t)width * 4);
    }
    status = WI_JPEG_OK;
done:
    free(premultiplied);
    free(ring);
    free(accumulator);
    free(slot_row);
    wi_weights_free(&h);
    wi_weights_free(&v);
    return status;
}
