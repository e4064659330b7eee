#!/usr/bin/env python3
"""The peer of WebPBench: the same WebP cases with Pillow, in pillow_bench.py's format.

usage: pillow_webp_bench.py INPUT_DIR [--iterations N] [--cases webp-decode,webp-encode]
  webp-decode  photo.webp -> full-size RGB(A) pixels (Image.load, as pillow_bench.py's decode cases;
               ours always makes RGBA8)
  webp-encode  encode-src.png pixels (already decoded) -> lossy WebP bytes, quality 80, method 4
"""
import argparse, io, json, os, statistics, time
from PIL import Image


import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'Benchmarks', 'peers'))
from peer_harness import timed, parse_arguments  # noqa: E402


def main():
    a = parse_arguments('')
    webp = open(os.path.join(a.inputs, 'photo.webp'), 'rb').read()
    enc_src = Image.open(os.path.join(a.inputs, 'encode-src.png')); enc_src.load()

    def decode():
        im = Image.open(io.BytesIO(webp)); im.load(); return im

    def encode():
        b = io.BytesIO(); enc_src.save(b, 'WEBP', quality=80, method=4); return b.getvalue()

    cases = {'webp-decode': decode, 'webp-encode': encode}
    for name in [c for c in a.cases.split(',') if c] or list(cases):
        med, mn = timed(cases[name], a.iterations)
        print(json.dumps({'case': name, 'median_ms': round(med, 3), 'min_ms': round(mn, 3), 'iterations': a.iterations}), flush=True)


if __name__ == '__main__':
    main()
