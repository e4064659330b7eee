// librsvg's C API (Debian 12: librsvg2-dev 2.54, the Rust librsvg), cairo for the image
// surface it renders into, and GIO's memory input stream the document is read from.
//
// The few librsvg declarations the coder uses are written here, as librsvg's own rsvg.h
// declares them (stable since 2.52), instead of including rsvg.h: that header needs
// gdk-pixbuf's include path, which only librsvg-2.0.pc (through gio-2.0.pc) gives, and those
// cflags carry -pthread, which SwiftPM refuses with a warning on every build. The module is
// found through cairo-gobject.pc (cairo and GLib's include paths, nothing else) and links
// librsvg itself (module.modulemap). The coder is written against 2.54's API.
#include <cairo.h>
#include <glib.h>
#include <glib-object.h>
#include <gio/gio.h>

typedef struct _RsvgHandle RsvgHandle;

typedef enum {
    RSVG_HANDLE_FLAGS_NONE = 0,
    RSVG_HANDLE_FLAG_UNLIMITED = 1 << 0,
    RSVG_HANDLE_FLAG_KEEP_IMAGE_DATA = 1 << 1
} RsvgHandleFlags;

typedef struct {
    double x;
    double y;
    double width;
    double height;
} RsvgRectangle;

typedef enum {
    RSVG_UNIT_PERCENT,
    RSVG_UNIT_PX,
    RSVG_UNIT_EM,
    RSVG_UNIT_EX,
    RSVG_UNIT_IN,
    RSVG_UNIT_CM,
    RSVG_UNIT_MM,
    RSVG_UNIT_PT,
    RSVG_UNIT_PC
} RsvgUnit;

typedef struct {
    double length;
    RsvgUnit unit;
} RsvgLength;

extern const guint rsvg_major_version;
extern const guint rsvg_minor_version;
extern const guint rsvg_micro_version;

RsvgHandle *rsvg_handle_new_from_stream_sync(GInputStream *input_stream, GFile *base_file, RsvgHandleFlags flags, GCancellable *cancellable, GError **error);
void rsvg_handle_set_dpi(RsvgHandle *handle, double dpi);
gboolean rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, gdouble *out_width, gdouble *out_height);
void rsvg_handle_get_intrinsic_dimensions(RsvgHandle *handle, gboolean *out_has_width, RsvgLength *out_width, gboolean *out_has_height, RsvgLength *out_height, gboolean *out_has_viewbox, RsvgRectangle *out_viewbox);
gboolean rsvg_handle_render_document(RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport, GError **error);
