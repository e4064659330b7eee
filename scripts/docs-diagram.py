#!/usr/bin/env python3
"""Draws the load-path picture of the DocC catalog (Sources/SwiftWebImage/SwiftWebImage.docc/Resources/load-path.png).

usage: scripts/docs-diagram.py OUTPUT.png   (needs Pillow; run again when the load path changes)
"""
import sys
from PIL import Image, ImageDraw, ImageFont

W, H = 1200, 860
img = Image.new('RGB', (W, H), (255, 255, 255))
d = ImageDraw.Draw(img)
font_path = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'
bold_path = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'
f = ImageFont.truetype(font_path, 17)
fb = ImageFont.truetype(bold_path, 19)
fs = ImageFont.truetype(font_path, 15)

stages = [
    ('ImageManager.loadImage(url, options, context)', 'options processor, blocked URLs, cache key, work key: join a running load?', 'caller'),
    ('cache.queryImage', 'memory hit: returned at once (shaped to the request)\ndisk hit: bytes -> decode stage', 'CachesManager / context.imageCache'),
    ('loader.requestImage', 'bytes from the Downloader (libcurl), file, data URL or a plug-in loader\nprogressive: partial images as events', 'LoadersManager / context.imageLoader'),
    ('decode stage (ImageDecodeRequest)', 'picks the coder, limits, thumbnail / scale-down, first frame\none decode shared by requesters of one download', 'BlockingWorkExecutor.processing'),
    ('transformer.transform', 'the transformer key is part of the cache key', 'BlockingWorkExecutor.processing'),
    ('cache.store', 'original under its key, the result under the request\'s key', 'disk writes: BlockingWorkExecutor.fileIO'),
    ('result to every requester', 'completion exactly once each; events to observers', 'callbackQueue'),
]
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
# the short cut of a memory hit
y1 = top + 1 * (bh + gap) + bh // 2
y6 = top + 6 * (bh + gap) + bh // 2
d.line([x0 - 30, y1, x0, y1], fill=(170, 60, 60), width=3)
d.line([x0 - 30, y1, x0 - 30, y6], fill=(170, 60, 60), width=3)
d.line([x0 - 30, y6, x0 - 2, y6], fill=(170, 60, 60), width=3)
d.polygon([(x0 - 12, y6 - 7), (x0 - 12, y6 + 7), (x0, y6)], fill=(170, 60, 60))
d.text((x0 - 52, (y1 + y6) // 2 - 60), 'hit', font=f, fill=(170, 60, 60))
img.save(sys.argv[1], optimize=True)
