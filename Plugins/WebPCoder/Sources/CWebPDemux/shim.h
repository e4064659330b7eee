// The libwebp headers this system-library target exposes to Swift (from libwebp-dev).
#include <webp/demux.h>
