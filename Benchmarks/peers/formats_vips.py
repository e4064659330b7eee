#!/usr/bin/env python3
"""The libvips peer of webimage-bench's TIFF and SVG cases (issue 37), with the interface of
../shared/bench/vips_bench.py, so that ../shared/bench/compare.py runs it with --peer:

- `tiff-decode`: photo.tiff, a 3600x2700 8-bit RGB TIFF (deflate, horizontal predictor, strips)
  made from photo.jpg, decoded to full-size pixels. Ours: TIFFCoder().decode(data) to RGBA8;
  libvips: new_from_buffer(data, '') forced into memory.
- `svg-render-icon`: icons.svg, an icon set (a 4x4 grid of 32 px glyphs: rounded rectangles,
  circles, stroked paths, a few gradients; declared 128x128) drawn at 256x256.
- `svg-render-illustration`: illustration.svg, a generated illustration (400 elements: cubic
  Bezier paths, linear and radial gradients, opacity, strokes, transformed groups; no text, so
  no font differs; declared 512x512) drawn at 1024x1024.
  Ours: SVGCoder().decode with thumbnailPixelSize 256x256 / 1024x1024; libvips:
  svgload_buffer(data, scale=2), the same size, forced into memory. Both draw with librsvg and
  cairo (ours the system's, libvips the one it was built with).
libvips runs on one thread (VIPS_CONCURRENCY=1, concurrency_set(1)) with its cache off.

usage: formats_vips.py make INPUT_DIR
       formats_vips.py INPUT_DIR [--iterations N] [--cases tiff-decode,svg-render-icon,...]
`make` writes INPUT_DIR/photo.tiff, icons.svg and illustration.svg (photo.jpg is made by
../shared/bench/make_inputs.py; the SVGs are generated from a fixed seed, nothing third-party);
scripts/bench runs it when they are absent. Each case prints one JSON line as
../shared/bench/pillow_bench.py does.
"""
import json, math, os, random, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_harness import timed, parse_arguments

CASES = ['tiff-decode', 'svg-render-icon', 'svg-render-illustration']
# The file, and for SVG the scale from its declared size to the size drawn (128 -> 256, 512 -> 1024).
SVG_INPUTS = {'svg-render-icon': ('icons.svg', 2.0, 256), 'svg-render-illustration': ('illustration.svg', 2.0, 1024)}


def icon_set_svg():
    """A 4x4 grid of 32x32 icons, as an icon font's sprite sheet would hold them (128x128)."""
    rnd = random.Random(37)
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">',
             '<defs>',
             '<linearGradient id="g0" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#4f9cf9"/><stop offset="1" stop-color="#1c4fa8"/></linearGradient>',
             '<linearGradient id="g1" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffd25e"/><stop offset="1" stop-color="#f28b23"/></linearGradient>',
             '<radialGradient id="g2" cx="0.4" cy="0.35" r="0.7"><stop offset="0" stop-color="#b6f5c5"/><stop offset="1" stop-color="#1f8a4c"/></radialGradient>',
             '</defs>']
    for index in range(16):
        x, y = (index % 4) * 32, (index // 4) * 32
        fill = ['url(#g0)', 'url(#g1)', 'url(#g2)', '#e0455a', '#6a5acd', '#2f3b4c'][index % 6]
        parts.append(f'<g transform="translate({x} {y})">')
        kind = index % 4
        if kind == 0:
            parts.append(f'<rect x="3" y="3" width="26" height="26" rx="6" fill="{fill}"/>')
            parts.append('<path d="M9 16 L14 21 L23 11" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>')
        elif kind == 1:
            parts.append(f'<circle cx="16" cy="16" r="13" fill="{fill}"/>')
            parts.append('<path d="M16 8 V17 M16 21 V23" stroke="#fff" stroke-width="3" stroke-linecap="round"/>')
        elif kind == 2:
            points = ' '.join(f'{16 + 13 * math.cos(math.pi / 2 + k * math.pi / 5) * (1 if k % 2 == 0 else 0.45):.2f},'
                              f'{16 - 13 * math.sin(math.pi / 2 + k * math.pi / 5) * (1 if k % 2 == 0 else 0.45):.2f}' for k in range(10))
            parts.append(f'<polygon points="{points}" fill="{fill}" stroke="#2f3b4c" stroke-width="1" stroke-linejoin="round"/>')
        else:
            parts.append(f'<path d="M16 28 C6 20 3 15 3 10 C3 6 6 3 10 3 C13 3 15 5 16 7 C17 5 19 3 22 3 C26 3 29 6 29 10 C29 15 26 20 16 28 Z" fill="{fill}"/>')
            a, b = rnd.uniform(7, 11), rnd.uniform(7, 11)
            parts.append(f'<ellipse cx="{a:.1f}" cy="{b:.1f}" rx="2.5" ry="1.5" fill="#fff" opacity="0.6"/>')
        parts.append('</g>')
    parts.append('</svg>')
    return '\n'.join(parts) + '\n'


def illustration_svg(elements=400):
    """A landscape-like illustration: gradients, blobs of cubic Beziers, strokes, groups (512x512)."""
    rnd = random.Random(1037)
    color = lambda: '#%02x%02x%02x' % (rnd.randrange(256), rnd.randrange(256), rnd.randrange(256))
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">', '<defs>']
    gradients = 24
    for g in range(gradients):
        stops = ''.join(f'<stop offset="{o:.2f}" stop-color="{color()}" stop-opacity="{rnd.uniform(0.5, 1):.2f}"/>' for o in sorted(rnd.random() for _ in range(3)))
        if g % 2 == 0:
            parts.append(f'<linearGradient id="l{g}" x1="{rnd.random():.2f}" y1="{rnd.random():.2f}" x2="{rnd.random():.2f}" y2="{rnd.random():.2f}">{stops}</linearGradient>')
        else:
            parts.append(f'<radialGradient id="l{g}" cx="{rnd.random():.2f}" cy="{rnd.random():.2f}" r="{rnd.uniform(0.3, 0.9):.2f}">{stops}</radialGradient>')
    parts.append('</defs>')
    parts.append('<rect width="512" height="512" fill="url(#l0)"/>')
    count = 1
    while count < elements:
        tx, ty, rot = rnd.uniform(-40, 512), rnd.uniform(-40, 512), rnd.uniform(0, 360)
        parts.append(f'<g transform="translate({tx:.1f} {ty:.1f}) rotate({rot:.1f})" opacity="{rnd.uniform(0.6, 1):.2f}">')
        for _ in range(rnd.randint(3, 8)):
            kind = rnd.random()
            if kind < 0.55:
                # A closed blob of 4-7 cubic segments around the group's origin.
                n = rnd.randint(4, 7)
                radius = rnd.uniform(8, 70)
                pts = [(radius * rnd.uniform(0.6, 1.2) * math.cos(2 * math.pi * k / n), radius * rnd.uniform(0.6, 1.2) * math.sin(2 * math.pi * k / n)) for k in range(n)]
                d = f'M{pts[0][0]:.1f} {pts[0][1]:.1f}'
                for k in range(n):
                    (x0, y0), (x1, y1) = pts[k], pts[(k + 1) % n]
                    d += f' C{x0 + rnd.uniform(-20, 20):.1f} {y0 + rnd.uniform(-20, 20):.1f} {x1 + rnd.uniform(-20, 20):.1f} {y1 + rnd.uniform(-20, 20):.1f} {x1:.1f} {y1:.1f}'
                fill = f'url(#l{rnd.randrange(1, gradients)})' if rnd.random() < 0.5 else color()
                stroke = f' stroke="{color()}" stroke-width="{rnd.uniform(0.5, 3):.1f}"' if rnd.random() < 0.4 else ''
                parts.append(f'<path d="{d} Z" fill="{fill}" fill-opacity="{rnd.uniform(0.4, 1):.2f}"{stroke}/>')
            elif kind < 0.8:
                # An open stroked curve (a stem, a hair, a contour line).
                d = f'M{rnd.uniform(-60, 60):.1f} {rnd.uniform(-60, 60):.1f}'
                for _ in range(rnd.randint(2, 5)):
                    d += ' Q' + ' '.join(f'{rnd.uniform(-90, 90):.1f}' for _ in range(4))
                parts.append(f'<path d="{d}" fill="none" stroke="{color()}" stroke-width="{rnd.uniform(1, 6):.1f}" stroke-linecap="round" stroke-opacity="{rnd.uniform(0.5, 1):.2f}"/>')
            elif kind < 0.92:
                parts.append(f'<ellipse cx="{rnd.uniform(-40, 40):.1f}" cy="{rnd.uniform(-40, 40):.1f}" rx="{rnd.uniform(3, 40):.1f}" ry="{rnd.uniform(3, 40):.1f}" fill="url(#l{rnd.randrange(1, gradients)})"/>')
            else:
                parts.append(f'<rect x="{rnd.uniform(-50, 20):.1f}" y="{rnd.uniform(-50, 20):.1f}" width="{rnd.uniform(5, 60):.1f}" height="{rnd.uniform(5, 60):.1f}" rx="{rnd.uniform(0, 8):.1f}" fill="{color()}" fill-opacity="{rnd.uniform(0.3, 0.9):.2f}"/>')
            count += 1
        parts.append('</g>')
    parts.append('</svg>')
    return '\n'.join(parts) + '\n'


def make(inputs):
    from PIL import Image
    import pyvips
    src = Image.open(os.path.join(inputs, 'photo.jpg')).convert('RGB').resize((3600, 2700), Image.LANCZOS)
    # Written by libvips (Pillow cannot ask for the predictor): deflate with the horizontal
    # predictor, 8-bit RGB in strips, as cameras and scanners write them.
    image = pyvips.Image.new_from_memory(src.tobytes(), 3600, 2700, 3, 'uchar')
    tiff = os.path.join(inputs, 'photo.tiff')
    image.tiffsave(tiff, compression='deflate', predictor='horizontal')
    print('wrote', tiff)
    for name, text in (('icons.svg', icon_set_svg()), ('illustration.svg', illustration_svg())):
        with open(os.path.join(inputs, name), 'w') as f:
            f.write(text)
        print('wrote', os.path.join(inputs, name))


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == 'make':
        return make(sys.argv[2])
    a = parse_arguments(','.join(CASES))
    os.environ['VIPS_CONCURRENCY'] = '1'
    import pyvips
    pyvips.cache_set_max(0)
    pyvips.concurrency_set(1)
    for name in [c for c in a.cases.split(',') if c in CASES]:
        if name == 'tiff-decode':
            data = open(os.path.join(a.inputs, 'photo.tiff'), 'rb').read()
            run = lambda: pyvips.Image.new_from_buffer(data, '').copy_memory()
        else:
            file, scale, side = SVG_INPUTS[name]
            data = open(os.path.join(a.inputs, file), 'rb').read()
            run = lambda: pyvips.Image.svgload_buffer(data, scale=scale).copy_memory()
        out = run()
        expected = (3600, 2700) if name == 'tiff-decode' else (side, side)
        if (out.width, out.height) != expected:
            sys.exit(f'formats_vips.py: {name} gave {out.width}x{out.height}, not {expected[0]}x{expected[1]}')
        med, mn = timed(run, a.iterations)
        print(json.dumps({'case': name, 'median_ms': round(med, 3), 'min_ms': round(mn, 3), 'iterations': a.iterations}), flush=True)


if __name__ == '__main__':
    main()
