#!/usr/bin/env python3
"""The peers of webimage-bench's AVIF cases: the same work with Pillow (native AVIF, Pillow >= 11.3)
or libvips (pyvips; its AVIF goes through libheif), in shared/bench/pillow_bench.py's JSON format,
so that shared/bench/compare.py can run it with --peer.

usage: pillow_avif_bench.py INPUT_DIR [--iterations N] [--cases avif-decode,avif-encode] [--peer pillow|vips]
  avif-decode  photo.avif -> full-size RGB(A) pixels in memory, one thread
  avif-encode  encode-src.png pixels (already decoded) -> lossy AVIF, quality 80 (quantizer 13),
               speed 6, 4:2:0, one thread
INPUT_DIR is made by shared/bench/make_inputs.py; photo.avif is made here from photo.png when it is
absent (avifenc -s 8 -y 420 --min 13 --max 13, or Pillow without avifenc).
"""
import argparse, io, json, os, shutil, statistics, subprocess, time


import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'Benchmarks', 'peers'))
from peer_harness import timed, parse_arguments  # noqa: E402


def ensure_photo_avif(inputs):
    path = os.path.join(inputs, 'photo.avif')
    if os.path.exists(path):
        return path
    src = os.path.join(inputs, 'photo.png')
    if shutil.which('avifenc'):
        subprocess.run(['avifenc', '-s', '8', '-j', '2', '-y', '420', '--min', '13', '--max', '13', src, path],
                       check=True, capture_output=True)
    else:
        from PIL import Image
        Image.open(src).save(path, 'AVIF', quality=80, speed=8, subsampling='4:2:0')
    return path


def pillow_cases(inputs):
    from PIL import Image, AvifImagePlugin
    AvifImagePlugin.DEFAULT_MAX_THREADS = 1
    avif = open(ensure_photo_avif(inputs), 'rb').read()
    src = Image.open(os.path.join(inputs, 'encode-src.png')); src.load()

    def decode():
        im = Image.open(io.BytesIO(avif)); im.load(); return im

    def encode():
        b = io.BytesIO(); src.save(b, 'AVIF', quality=80, speed=6, subsampling='4:2:0', max_threads=1); return b.getvalue()

    return {'avif-decode': decode, 'avif-encode': encode}


def vips_cases(inputs):
    os.environ['VIPS_CONCURRENCY'] = '1'
    import pyvips
    pyvips.cache_set_max(0)
    pyvips.concurrency_set(1)
    avif = open(ensure_photo_avif(inputs), 'rb').read()
    src = pyvips.Image.new_from_file(os.path.join(inputs, 'encode-src.png')).copy_memory()

    def decode():
        return pyvips.Image.new_from_buffer(avif, '').copy_memory()

    def encode():
        return src.heifsave_buffer(Q=80, effort=3, compression='av1', subsample_mode='on')

    return {'avif-decode': decode, 'avif-encode': encode}


def main():
    a = parse_arguments('', extra=lambda parser: (parser.add_argument('--peer', choices=['pillow', 'vips'], default='pillow')))
    cases = (pillow_cases if a.peer == 'pillow' else vips_cases)(a.inputs)
    for name in [c for c in a.cases.split(',') if c] or list(cases):
        n = a.iterations if name != 'avif-encode' else max(3, a.iterations // 2)
        med, mn = timed(cases[name], n)
        print(json.dumps({'case': name, 'median_ms': round(med, 3), 'min_ms': round(mn, 3), 'iterations': n}), flush=True)


if __name__ == '__main__':
    main()
