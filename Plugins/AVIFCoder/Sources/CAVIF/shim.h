// libavif (Debian 12: libavif-dev 0.11.1). The coder is written against that version's API:
// no avifDecoder.repetitionCount, no avifEncoder.quality (quantizers instead), and irot/imir
// are reported in avifImage.transformFlags but not applied to the pixels.
#include <avif/avif.h>
