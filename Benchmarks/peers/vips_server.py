#!/usr/bin/env python3
"""The libvips server peer of scripts/serve-bench (issue 36): a stand-in for the servers users pick
for speed (imgproxy, imagor), which are libvips with shrink-on-load.

    vips_server.py --port PORT [--host 127.0.0.1] [--workers N] [--uncached MARKER]

It answers thumbor's URL scheme as the serve benchmark uses it:

    /unsafe/fit-in/WxH/[filters:format(webp)/]http://host/path
    /healthcheck (200 WORKING)

and does what imgproxy does for it:
- the source is fetched over HTTP (urllib) and its bytes kept in memory by URL (a dict), except
  for URLs that contain MARKER (default `/cold/`: the benchmark's cold case, fetched every time);
- `pyvips.Image.thumbnail_buffer(bytes, W, height=H, size="down")`: shrink-on-load (libjpeg's
  DCT scaling, libwebp's scaled decode) to fit inside WxH, never enlarged, EXIF orientation
  applied, then libvips' own reduce;
- the output as `webimage serve` and thumbor are set up in the benchmark: the source's format
  (JPEG or PNG) unless `filters:format(webp)` asks for WebP; JPEG quality 80 with optimised
  Huffman tables, progressive from 30,000 pixels up (webimage serve's `--progressive-jpeg auto`
  at quality 80); WebP quality 80, effort (method) 4; PNG at zlib level 6;
- one libvips thread per operation (VIPS_CONCURRENCY=1, set before pyvips loads) and libvips'
  operation cache off (cache_set_max(0)), as imgproxy runs it (it calls vips_concurrency_set(1)
  and turns libvips' cache off at start).

Concurrency (why this is a fair stand-in): imgproxy is one process that runs up to
IMGPROXY_WORKERS (default 2 x the cores) images at once, each on one libvips thread. This is the
same: one process, an HTTP thread per connection, and at most --workers (default 2 x the cores)
images in libvips at once (a semaphore). pyvips calls libvips through cffi, which releases the GIL
for the length of each C call, so the decode, resize and encode of several requests run on all
cores at once; only the HTTP parsing and the few Python lines per request hold the GIL (well under
a millisecond of the tens of milliseconds a request costs). One process also makes its peak RSS
comparable with webimage serve's single process. Errors answer 400 (bad URL), 502 (the source
could not be fetched) or 500 (libvips failed), with a short text body.
"""
import argparse
import http.server
import os
import re
import sys
import threading
import urllib.request

# Before pyvips loads libvips: one libvips thread per operation.
os.environ["VIPS_CONCURRENCY"] = "1"
import pyvips  # noqa: E402

pyvips.cache_set_max(0)
pyvips.cache_set_max_mem(0)
pyvips.cache_set_max_files(0)

PATH = re.compile(r"^/unsafe/fit-in/(\d+)x(\d+)/(?:filters:([^/]*)/)?(https?://.+)$")
PROGRESSIVE_FROM_PIXELS = 30_000


class Sources:
    """Source bytes by URL: kept for every URL without the marker, fetched each time otherwise."""

    def __init__(self, uncached_marker):
        self.uncached_marker = uncached_marker
        self.lock = threading.Lock()
        self.kept = {}

    def get(self, url):
        if self.uncached_marker not in url:
            with self.lock:
                data = self.kept.get(url)
            if data is not None:
                return data
        with urllib.request.urlopen(url, timeout=30) as response:
            data = response.read()
        if self.uncached_marker not in url:
            with self.lock:
                self.kept[url] = data
        return data


def render(data, width, height, filters):
    image = pyvips.Image.thumbnail_buffer(data, width, height=height, size="down")
    loader = image.get("vips-loader") if image.get_typeof("vips-loader") else ""
    wants_webp = "format(webp)" in (filters or "")
    if wants_webp:
        return image.webpsave_buffer(Q=80, effort=4), "image/webp"
    if loader.startswith("png"):
        return image.pngsave_buffer(compression=6), "image/png"
    if image.bands == 4 or image.bands == 2:
        image = image.flatten(background=[255, 255, 255])
    progressive = image.width * image.height >= PROGRESSIVE_FROM_PIXELS
    return image.jpegsave_buffer(Q=80, optimize_coding=True, interlace=progressive, strip=True), "image/jpeg"


def main():
    parser = argparse.ArgumentParser(description="a pyvips thumbnail server (serve-bench's libvips peer)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1),
                        help="images in libvips at once (default 2 x the cores, imgproxy's IMGPROXY_WORKERS)")
    parser.add_argument("--uncached", default="/cold/", help="source URLs containing this are fetched every time")
    args = parser.parse_args()
    sources = Sources(args.uncached)
    slots = threading.BoundedSemaphore(args.workers)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def answer(self, status, body, content_type="text/plain"):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            if self.path in ("/healthcheck", "/health"):
                return self.answer(200, b"WORKING")
            match = PATH.match(self.path)
            if not match:
                return self.answer(400, b"not a fit-in URL this server knows")
            width, height, filters, url = int(match.group(1)), int(match.group(2)), match.group(3), match.group(4)
            try:
                data = sources.get(url)
            except Exception as error:  # noqa: BLE001 - any fetch failure is the origin's
                return self.answer(502, f"source {url}: {error}".encode())
            try:
                with slots:
                    body, content_type = render(data, width, height, filters)
            except pyvips.Error as error:
                return self.answer(500, f"libvips: {error}".encode())
            self.answer(200, body, content_type)

        def log_message(self, *arguments):
            pass

    http.server.ThreadingHTTPServer.daemon_threads = True
    server = http.server.ThreadingHTTPServer((args.host, args.port), Handler)
    print(f"vips_server: http://{args.host}:{server.server_address[1]} libvips {pyvips.version(0)}.{pyvips.version(1)}."
          f"{pyvips.version(2)}, {args.workers} workers", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
