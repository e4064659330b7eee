// System libdeflate (Debian: libdeflate-dev): whole-buffer inflate for complete PNG image data.
#include <libdeflate.h>
