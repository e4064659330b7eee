// cairo (image surfaces) and GLib (the log handler) for CairoGLibSupport, the code SVGCoder and
// PDFCoder share. Found through cairo-gobject.pc (cairo's and GLib's include paths; librsvg's
// and poppler-glib's own .pc files are not needed here), as CRSVG is.
#include <cairo.h>
#include <glib.h>
