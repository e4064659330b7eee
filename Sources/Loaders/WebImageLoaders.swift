// WebImageLoaders: the URLSession Downloader, the file and data URL loaders: issue 6.
// Depends on WebImageCore only. This file keeps the module buildable until its issue lands.
import WebImageCore
