// libheif's C API (Debian 12: libheif-dev 1.15.1, header in /usr/include/<triplet>/libheif,
// found through pkg-config's -I). The coder is written against 1.15's API.
#include <libheif/heif.h>
