#!/usr/bin/env python3
"""The peers of webimage-bench's `tagged-decode` case (issue 31): a 3600x2700 photo in Adobe RGB
(1998), a JPEG with its ICC profile, decoded to sRGB pixels.

usage: tagged_decode.py make INPUT_DIR
       tagged_decode.py pillow|vips INPUT_DIR [--iterations N] [--cases tagged-decode]
`make` writes INPUT_DIR/photo-adobergb.jpg from INPUT_DIR/photo.jpg (../shared/bench/make_inputs.py):
resized to 3600x2700, converted to Adobe RGB by Pillow's ImageCms (lcms2) with colord's
AdobeRGB1998.icc (ghostscript's a98.icc if absent), saved at quality 90 with the profile.
`pillow` and `vips` print one JSON line as ../shared/bench/pillow_bench.py does, so that
../shared/bench/compare.py runs them with --peer (through the two wrappers beside this file):
- pillow: Image.open + load, then ImageCms.profileToProfile(embedded profile -> sRGB,
  relative colorimetric), Pillow's own lcms2;
- vips: new_from_buffer(...).icc_transform('srgb') forced into memory, one thread.
"""
import argparse, io, json, os, statistics, sys, time

PROFILES = ['/usr/share/color/icc/colord/AdobeRGB1998.icc', '/usr/share/color/icc/ghostscript/a98.icc']


from peer_harness import timed, parse_arguments


def make(inputs):
    from PIL import Image, ImageCms
    profile_path = next((p for p in PROFILES if os.path.exists(p)), None)
    if profile_path is None:
        sys.exit('tagged_decode.py: no Adobe RGB profile (apt-get install colord-data or libgs-common)')
    target = ImageCms.getOpenProfile(profile_path)
    src = Image.open(os.path.join(inputs, 'photo.jpg')).convert('RGB').resize((3600, 2700), Image.LANCZOS)
    adobe = ImageCms.profileToProfile(src, ImageCms.createProfile('sRGB'), target, renderingIntent=1, outputMode='RGB')
    adobe.save(os.path.join(inputs, 'photo-adobergb.jpg'), quality=90, icc_profile=target.tobytes())
    print('wrote', os.path.join(inputs, 'photo-adobergb.jpg'))


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == 'make':
        return make(sys.argv[2])
    peer = sys.argv[1]
    a = parse_arguments('tagged-decode', argv=sys.argv[2:])
    if 'tagged-decode' not in a.cases.split(','):
        return
    data = open(os.path.join(a.inputs, 'photo-adobergb.jpg'), 'rb').read()
    if peer == 'pillow':
        from PIL import Image, ImageCms
        srgb = ImageCms.createProfile('sRGB')

        def run():
            im = Image.open(io.BytesIO(data)); im.load()
            embedded = ImageCms.ImageCmsProfile(io.BytesIO(im.info['icc_profile']))
            return ImageCms.profileToProfile(im, embedded, srgb, renderingIntent=1)
    else:
        os.environ['VIPS_CONCURRENCY'] = '1'
        import pyvips
        pyvips.cache_set_max(0)
        pyvips.concurrency_set(1)

        def run():
            return pyvips.Image.new_from_buffer(data, '').icc_transform('srgb').copy_memory()
    med, mn = timed(run, a.iterations)
    print(json.dumps({'case': 'tagged-decode', 'median_ms': round(med, 3), 'min_ms': round(mn, 3), 'iterations': a.iterations}))


if __name__ == '__main__':
    main()
