#!/usr/bin/env python3
"""The Pillow peer of webimage-bench's `tiff-decode` case (issue 37), with the interface of
../shared/bench/pillow_bench.py, so that ../shared/bench/compare.py runs it with --peer (the
libvips peer of the same case, and of the SVG cases, is formats_vips.py; Pillow draws no SVG):

- `tiff-decode`: photo.tiff, the 3600x2700 8-bit RGB TIFF (deflate, horizontal predictor,
  strips) that `formats_vips.py make` writes from photo.jpg, decoded to full-size pixels.
  Ours: TIFFCoder().decode(data) to RGBA8; Pillow: Image.open on the bytes, then load() (RGB,
  as its jpeg-decode case: Pillow hands compressed TIFF strips to libtiff, one thread).

usage: formats_pillow.py INPUT_DIR [--iterations N] [--cases tiff-decode]
Each case prints one JSON line as ../shared/bench/pillow_bench.py does.
"""
import io, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_harness import timed, parse_arguments

CASES = ['tiff-decode']


def main():
    a = parse_arguments(','.join(CASES))
    from PIL import Image
    for name in [c for c in a.cases.split(',') if c in CASES]:
        path = os.path.join(a.inputs, 'photo.tiff')
        if not os.path.exists(path):
            sys.exit(f'formats_pillow.py: {path} is absent: run formats_vips.py make {a.inputs} first')
        data = open(path, 'rb').read()

        def decode():
            image = Image.open(io.BytesIO(data))
            image.load()
            return image

        out = decode()
        if out.size != (3600, 2700):
            sys.exit(f'formats_pillow.py: {name} gave {out.size[0]}x{out.size[1]}, not 3600x2700')
        med, mn = timed(decode, a.iterations)
        print(json.dumps({'case': name, 'median_ms': round(med, 3), 'min_ms': round(mn, 3), 'iterations': a.iterations}), flush=True)


if __name__ == '__main__':
    main()
