// poppler's GLib API (Debian 12: libpoppler-glib-dev 22.12; headers through pkg-config's -I)
// and cairo, the image surface pages are rendered into.
#include <poppler.h>
#include <cairo.h>
#include <glib.h>
