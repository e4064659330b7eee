#!/usr/bin/env python3
"""Draws the pictures of the DocC catalog's "The load path" article
(Sources/SwiftWebImage/SwiftWebImage.docc/Resources/load-path.png and serve-path.png).

usage: scripts/docs-diagram.py OUTPUT.png           the manager's load path
       scripts/docs-diagram.py --serve OUTPUT.png   the serving path (webimage serve)
(needs Pillow; run again when a path changes)
"""
import sys
from PIL import Image, ImageDraw, ImageFont

SERVE = sys.argv[1] == '--serve'
OUTPUT = sys.argv[2] if SERVE else sys.argv[1]

W, H = 1200, 860
img = Image.new('RGB', (W, H), (255, 255, 255))
d = ImageDraw.Draw(img)
font_path = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'
bold_path = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'
f = ImageFont.truetype(font_path, 17)
fb = ImageFont.truetype(bold_path, 19)
fs = ImageFont.truetype(font_path, 15)

load_stages = [
    ('ImageManager.loadImage(url, options, context)', 'options processor, blocked URLs, cache key, work key: join a running load?', 'caller'),
    ('cache.queryImage', 'memory hit: returned at once (shaped to the request)\ndisk hit: bytes -> decode stage', 'CachesManager / context.imageCache'),
    ('loader.requestImage', 'bytes from the Downloader (libcurl), file, data URL or a plug-in loader\nprogressive: partial images as events', 'LoadersManager / context.imageLoader'),
    ('decode stage (ImageDecodeRequest)', 'picks the coder, limits, thumbnail / scale-down, first frame\none decode shared by requesters of one download', 'BlockingWorkExecutor.processing'),
    ('transformer.transform', 'the transformer key is part of the cache key', 'BlockingWorkExecutor.processing'),
    ('cache.store', 'original under its key, the result under the request\'s key', 'disk writes: BlockingWorkExecutor.fileIO'),
    ('result to every requester', 'completion exactly once each; events to observers', 'callbackQueue'),
]
serve_stages = [
    ('HTTPServer -> ImageServer.respond', 'GET/HEAD, URL length; /healthcheck, /metrics', 'libmicrohttpd threads'),
    ('result memory tier', 'key: the path as received + what Accept allows\nhit: answered at once, no parse', 'ImageServer'),
    ('parse, signature, limits, result cache', 'thumbor URL -> ThumborRequest; output format chosen\nkey: the result key (signed part + format choice)', 'result cache: memory, disk, Redis'),
    ('one production per result key', 'identical misses join one flight (SharedWork)\nruns to its end and is cached even if all requesters left', 'a task of its own'),
    ('ImageManager: the original', 'the load path: original key, originals cache, coalescing,\nthe server\'s loaders (guarded downloader, files, schemes)', 'the manager'),
    ('render stage (ResultRenderStage)', 'format and quality, transform queue admission, trim + plan,\ncrop / resize (halved copies) / filters, encode', 'TransformAdmission'),
    ('store and answer', 'result cache (background) and result memory tier;\nContent-Type, ETag, Cache-Control, Vary', 'every waiting requester'),
]
stages = serve_stages if SERVE else load_stages
x0, bw, bh, gap, top = 60, 700, 86, 26, 30
for i, (title, detail, where) in enumerate(stages):
    y = top + i * (bh + gap)
    fill = (232, 241, 252) if i not in (0, 6) else (240, 240, 240)
    d.rounded_rectangle([x0, y, x0 + bw, y + bh], radius=12, fill=fill, outline=(60, 90, 140), width=2)
    d.text((x0 + 16, y + 10), title, font=fb, fill=(20, 30, 60))
    d.multiline_text((x0 + 16, y + 38), detail, font=fs, fill=(40, 40, 40), spacing=3)
    d.text((x0 + bw + 24, y + bh // 2 - 10), where, font=f, fill=(90, 90, 90))
    if i < len(stages) - 1:
        cx = x0 + bw // 2
        d.line([cx, y + bh, cx, y + bh + gap], fill=(60, 90, 140), width=3)
        d.polygon([(cx - 7, y + bh + gap - 10), (cx + 7, y + bh + gap - 10), (cx, y + bh + gap)], fill=(60, 90, 140))
# the short cuts of a hit: the memory hit of a load; the two result tiers of a request
for start in ([1, 2] if SERVE else [1]):
    y1 = top + start * (bh + gap) + bh // 2
    y6 = top + 6 * (bh + gap) + bh // 2
    x = x0 - 30 + (start - 1) * 14
    d.line([x, y1, x0, y1], fill=(170, 60, 60), width=3)
    d.line([x, y1, x, y6], fill=(170, 60, 60), width=3)
    d.line([x, y6, x0 - 2, y6], fill=(170, 60, 60), width=3)
d.polygon([(x0 - 12, y6 - 7), (x0 - 12, y6 + 7), (x0, y6)], fill=(170, 60, 60))
d.text((x0 - 52, (top + bh + gap + y6) // 2 - 60), 'hit', font=f, fill=(170, 60, 60))
img.save(OUTPUT, optimize=True)
