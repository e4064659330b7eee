#!/usr/bin/env python3
"""The peer of WebPBench: the same WebP cases with Pillow, in pillow_bench.py's format.

usage: pillow_webp_bench.py INPUT_DIR [--iterations N] [--cases webp-decode,webp-encode]
  webp-decode  photo.webp -> full-size RGB(A) pixels (Image.load, as pillow_bench.py's decode cases;
               ours always makes RGBA8)
  webp-encode  encode-src.png pixels (already decoded) -> lossy WebP bytes, quality 80, method 4
"""
import argparse, io, json, os, statistics, time
from PIL import Image


def timed(fn, n):
    fn()
    ts = []
    for _ in range(n):
        t = time.perf_counter(); fn(); ts.append((time.perf_counter() - t) * 1000)
    return statistics.median(ts), min(ts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('inputs')
    ap.add_argument('--iterations', type=int, default=7)
    ap.add_argument('--cases', default='')
    a = ap.parse_args()
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
