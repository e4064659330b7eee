// WebImageCoders: the built-in coders (JPEG on libjpeg-turbo, PNG + APNG, GIF, BMP): issue 4.
// Depends on WebImageCore only. This file keeps the module buildable until its issue lands.
import WebImageCore
