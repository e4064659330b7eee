#!/usr/bin/env python3
"""The peers of webimage-bench's JPEG XL cases (jxl-decode, jxl-decode-threads, jxl-encode).

usage: jxl_peer_bench.py INPUT_DIR [--iterations N] [--threads N]
INPUT_DIR holds photo.png from ../shared/bench/make_inputs.py; photo.jxl is made from it with
`cjxl -d 1 -e 7` when absent (webimage-bench reads the same file).
Prints one JSON object per peer and case, as ../shared/bench/vips_bench.py does:
- pillow-jxl: pillow-jxl-plugin's Decoder/Encoder (Rust bindings, its own libjxl 0.12), called
  directly (no PIL.Image wrapping), num_threads 0 (no parallelism) for --threads 1, else N;
- djxl: the reference decoder of the system libjxl (0.7, the coder's), --num_reps, its own
  MP/s converted to ms per image (--num_threads=N; djxl has no thread-free mode).
libvips is not a peer here: pyvips-binary's libvips is built without JPEG XL.
"""
import argparse, json, os, re, statistics, subprocess, time


import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'Benchmarks', 'peers'))
from peer_harness import timed, parse_arguments  # noqa: E402


def emit(case, peer, med, mn, n, threads):
    print(json.dumps({'case': case, 'peer': peer, 'median_ms': round(med, 3), 'min_ms': round(mn, 3),
                      'iterations': n, 'threads': threads}), flush=True)


def main():
    a = parse_arguments('', extra=lambda parser: (parser.add_argument('--threads', type=int, default=1)))
    png = os.path.join(a.inputs, 'photo.png')
    jxl = os.path.join(a.inputs, 'photo.jxl')
    if not os.path.exists(jxl):
        subprocess.run(['cjxl', png, jxl, '-d', '1', '-e', '7', '--quiet'], check=True)
    data = open(jxl, 'rb').read()
    case = 'jxl-decode' if a.threads == 1 else 'jxl-decode-threads'

    from pillow_jxl import Decoder, Encoder
    from PIL import Image
    decoder = Decoder(num_threads=0 if a.threads == 1 else a.threads)
    med, mn = timed(lambda: decoder(data), a.iterations)
    emit(case, 'pillow-jxl', med, mn, a.iterations, a.threads)

    out = subprocess.run(['djxl', jxl, '--num_reps=%d' % a.iterations, '--num_threads=%d' % a.threads],
                         capture_output=True, text=True, check=True)
    m = re.search(r'(\d+) x (\d+), (?:geomean: )?([\d.]+) MP/s', out.stdout + out.stderr)
    if m:
        w, h, mps = int(m.group(1)), int(m.group(2)), float(m.group(3))
        ms = w * h / (mps * 1e6) * 1000
        emit(case, 'djxl', ms, ms, a.iterations, a.threads)

    if a.threads == 1:
        im = Image.open(png).convert('RGB')
        raw = im.tobytes()
        encoder = Encoder(mode='RGB', lossless=False, quality=90, decoding_speed=0, effort=7,
                          use_container=False, use_original_profile=False, num_threads=0)
        n = max(3, a.iterations // 2)
        med, mn = timed(lambda: encoder(raw, im.width, im.height, jpeg_encode=False), n)
        emit('jxl-encode', 'pillow-jxl', med, mn, n, 1)


if __name__ == '__main__':
    main()
