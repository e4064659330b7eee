#!/usr/bin/env python3
"""The peers of webimage-bench's HEIC cases: the same work with pillow-heif (its own bundled
libheif and libde265/x265) and libvips (pyvips-binary, one thread), in pillow_bench.py's format.

usage: heif_peer_bench.py INPUT_DIR [--iterations N] [--cases heic-decode,heic-encode,heic-thumbnail]
  heic-decode     photo.heic (4000x3000, made by heif-enc -q 80 -t 320) -> full-size pixels
                  (pillow-heif: RGB; libvips: RGB forced into memory; ours always makes RGBA8)
  heic-encode     encode-src.png pixels (1000x750 RGBA, already decoded) -> HEIC bytes, quality 80
  heic-thumbnail  photo.heic -> a 320x240 thumbnail (pillow-heif: the stored thumbnail decoded;
                  libvips: thumbnail_buffer, which also uses the stored thumbnail when large enough)
pip install pillow-heif pyvips pyvips-binary
pyvips-binary's libvips has libheif without an HEVC codec (patents): its HEIC cases print an
error line instead of a time; a libvips built with libde265/x265 runs them.
"""
import argparse, io, json, os, statistics, time


import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'Benchmarks', 'peers'))
from peer_harness import timed, parse_arguments  # noqa: E402


def main():
    a = parse_arguments('', extra=lambda parser: (parser.add_argument('--threads', type=int, default=1)))
    os.environ['VIPS_CONCURRENCY'] = str(a.threads)
    heic = open(os.path.join(a.inputs, 'photo.heic'), 'rb').read()
    wanted = [c for c in a.cases.split(',') if c] or ['heic-decode', 'heic-encode', 'heic-thumbnail']
    cases = {}
    try:
        import pillow_heif
        from PIL import Image
        src = Image.open(os.path.join(a.inputs, 'encode-src.png')); src.load()

        def decode():
            im = pillow_heif.open_heif(io.BytesIO(heic), convert_hdr_to_8bit=True)
            return im.data

        def encode():
            b = io.BytesIO(); pillow_heif.from_pillow(src).save(b, quality=80); return b.getvalue()

        def thumbnail():
            im = pillow_heif.open_heif(io.BytesIO(heic))
            return im[0].get_thumbnail(0).data

        lib = 'pillow-heif %s (libheif %s)' % (pillow_heif.__version__, pillow_heif.libheif_version())
        cases.update({('heic-decode', lib): decode, ('heic-encode', lib): encode, ('heic-thumbnail', lib): thumbnail})
    except ImportError:
        pass
    try:
        import pyvips
        pyvips.cache_set_max(0)
        rgba = pyvips.Image.new_from_file(os.path.join(a.inputs, 'encode-src.png')).copy_memory()

        def vdecode():
            return pyvips.Image.new_from_buffer(heic, '', access='sequential').write_to_memory()

        def vencode():
            return rgba.heifsave_buffer(Q=80, compression='hevc')

        def vthumbnail():
            return pyvips.Image.thumbnail_buffer(heic, 320).write_to_memory()

        lib = 'libvips %d.%d.%d' % (pyvips.version(0), pyvips.version(1), pyvips.version(2))
        for name, fn in [('heic-decode', vdecode), ('heic-encode', vencode), ('heic-thumbnail', vthumbnail)]:
            try:
                fn()
                cases[(name, lib)] = fn
            except pyvips.Error as error:
                print(json.dumps({'case': name, 'peer': lib, 'error': str(error).splitlines()[0]}), flush=True)
    except ImportError:
        pass
    for (name, lib), fn in cases.items():
        if name not in wanted:
            continue
        med, mn = timed(fn, a.iterations)
        print(json.dumps({'case': name, 'peer': lib, 'median_ms': round(med, 3), 'min_ms': round(mn, 3), 'iterations': a.iterations}), flush=True)


if __name__ == '__main__':
    main()
