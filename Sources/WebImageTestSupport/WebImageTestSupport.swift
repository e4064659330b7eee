// The loopback HTTP server lives in its own module so that the CLI's demo and the benchmark
// can serve images without linking the test support; tests get it through this module.
@_exported import WebImageLoopbackServer
