// WebImageCaches: MemoryCache, DiskCache and ImageCache (memory + disk): issue 5.
// Depends on WebImageCore only. This file keeps the module buildable until its issue lands.
import WebImageCore
