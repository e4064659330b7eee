// glibc's allocator controls (mallopt, malloc_trim): part of libc, nothing to link.
#include <malloc.h>
