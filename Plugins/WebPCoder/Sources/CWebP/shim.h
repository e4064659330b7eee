// Every libwebp header the plug-in uses, in ONE Clang module: demux.h and mux.h include
// decode.h and mux_types.h, so splitting the headers over several modules would give the same C
// declarations two owners (and an optimized build then fails to find them in one of them).
// The CWebPDemux and CWebPMux targets only link their libraries (and check them with pkg-config).
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>
