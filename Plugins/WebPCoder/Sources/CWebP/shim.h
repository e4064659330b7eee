// The libwebp headers this system-library target exposes to Swift (from libwebp-dev).
#include <webp/decode.h>
#include <webp/encode.h>
