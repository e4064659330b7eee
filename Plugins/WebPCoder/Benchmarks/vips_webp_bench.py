#!/usr/bin/env python3
"""The libvips peer of WebPBench (pyvips, one thread), in pillow_bench.py's JSON format, so that
shared/bench/compare.py can run it with --peer next to pillow_webp_bench.py.

usage: vips_webp_bench.py INPUT_DIR [--iterations N] [--cases webp-decode,webp-encode]
  webp-decode  photo.webp -> full-size RGB(A) pixels in memory (copy_memory forces the decode)
  webp-encode  encode-src.png pixels (already in memory) -> lossy WebP bytes, quality 80, effort 4
               (libwebp's method 4)
photo.webp is made by bench.sh (Pillow, quality 80, method 4), so every side decodes the same file.
pip install pyvips pyvips-binary
"""
import argparse, json, os, statistics, time

os.environ['VIPS_CONCURRENCY'] = '1'
import pyvips


import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'Benchmarks', 'peers'))
from peer_harness import timed, parse_arguments  # noqa: E402


def main():
    a = parse_arguments('')
    pyvips.cache_set_max(0)
    pyvips.concurrency_set(1)
    webp = open(os.path.join(a.inputs, 'photo.webp'), 'rb').read()
    src = pyvips.Image.new_from_file(os.path.join(a.inputs, 'encode-src.png')).copy_memory()

    def decode():
        return pyvips.Image.new_from_buffer(webp, '').copy_memory()

    def encode():
        return src.webpsave_buffer(Q=80, effort=4)

    cases = {'webp-decode': decode, 'webp-encode': encode}
    for name in [c for c in a.cases.split(',') if c] or list(cases):
        med, mn = timed(cases[name], a.iterations)
        print(json.dumps({'case': name, 'median_ms': round(med, 3), 'min_ms': round(mn, 3), 'iterations': a.iterations}), flush=True)


if __name__ == '__main__':
    main()
