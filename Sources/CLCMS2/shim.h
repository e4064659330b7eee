// Little CMS 2 (Debian liblcms2-dev, 2.14 on Debian 12): the colour management of the coders
// (ICC profiles of decoded images to sRGB).
#include <lcms2.h>

// The pixel formats the coders use, as functions: lcms2's TYPE_* macros are built from
// shifts that Swift does not import.
static inline unsigned int wi_lcms_type_rgba_8(void) { return TYPE_RGBA_8; }
static inline unsigned int wi_lcms_type_rgb_8(void) { return TYPE_RGB_8; }
static inline unsigned int wi_lcms_type_gray_8(void) { return TYPE_GRAY_8; }
static inline unsigned int wi_lcms_type_graya_8(void) { return TYPE_GRAYA_8; }
static inline unsigned int wi_lcms_type_cmyk_8(void) { return TYPE_CMYK_8; }
static inline unsigned int wi_lcms_type_cmyk_8_rev(void) { return TYPE_CMYK_8_REV; }
static inline unsigned int wi_lcms_type_cmyka_8(void) { return COLORSPACE_SH(PT_CMYK)|CHANNELS_SH(4)|BYTES_SH(1)|EXTRA_SH(0); }
