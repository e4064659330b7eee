// The libjxl headers the JPEG XL plug-in uses (libjxl 0.7 API), in one Clang module. libjxl and
// libjxl_threads come from one package (Debian: libjxl-dev; Homebrew: jpeg-xl) and share one
// include directory, so the module links both; pkg-config checks for libjxl.
#include <jxl/decode.h>
#include <jxl/encode.h>
#include <jxl/thread_parallel_runner.h>
