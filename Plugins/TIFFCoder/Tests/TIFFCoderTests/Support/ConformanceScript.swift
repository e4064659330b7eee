/// The Python (Pillow) script ``ConformanceTests`` runs in a temporary folder: it writes one
/// TIFF per kind the coder reads, each with its reference pixels (`<name>.rgba`: raw RGBA8,
/// straight alpha, as the image shows), and a manifest line per file (CMYK with an ICC
/// profile when ghostscript's `default_cmyk.icc`, Debian's libgs-common, is installed):
/// `name width height pages tolerance note`. Tiled and separate-plane files are made from strip
/// files with libtiff's `tiffcp`, 16-bit RGB and associated alpha with ImageMagick's `convert`,
/// when they are installed (the manifest then lacks those lines, and the test says so).
enum ConformanceScript {
    static let source = #"""
import os, shutil, subprocess, sys
from PIL import Image, ImageOps

W, H = 61, 47
manifest = []

def gradient(alpha):
    im = Image.new("RGBA", (W, H))
    px = im.load()
    for y in range(H):
        for x in range(W):
            a = (128 + (x * 5 + y * 3) % 128) if alpha == "high" else ((x * 7 + y * 11) % 256 if alpha else 255)
            px[x, y] = ((x * 4) % 256, (y * 5) % 256, (x * y) % 256, a)
    return im

def ref(name, im, pages=1, tolerance=0, note="-"):
    im.convert("RGBA").save(name + ".rgba.png")
    with open(name + ".rgba", "wb") as f:
        f.write(im.convert("RGBA").tobytes())
    manifest.append(f"{name} {im.width} {im.height} {pages} {tolerance} {note}")

rgba = gradient(True)
rgb = gradient(False).convert("RGB")
grey = rgb.convert("L")

rgb.save("rgb8_deflate.tif", compression="tiff_adobe_deflate"); ref("rgb8_deflate", rgb)
rgb.save("rgb8_lzw.tif", compression="tiff_lzw"); ref("rgb8_lzw", rgb)
rgb.save("rgb8_none.tif"); ref("rgb8_none", rgb)
rgb.save("rgb8_packbits.tif", compression="packbits"); ref("rgb8_packbits", rgb)
rgba.save("rgba8_unassociated.tif", compression="tiff_adobe_deflate"); ref("rgba8_unassociated", rgba)
grey.save("grey8.tif", compression="tiff_lzw"); ref("grey8", grey)
la = Image.merge("LA", (grey, rgba.getchannel("A")))
la.save("greyalpha8.tif"); ref("greyalpha8", la)
bilevel = grey.convert("1")
bilevel.save("bilevel1.tif"); ref("bilevel1", bilevel)
bilevel.save("bilevel1_g4.tif", compression="group4"); ref("bilevel1_g4", bilevel)
palette = rgb.convert("P", palette=Image.ADAPTIVE, colors=200)
palette.save("palette8.tif"); ref("palette8", palette)
palette16 = rgb.convert("P", palette=Image.ADAPTIVE, colors=16)
palette16.save("palette4.tif", bits=4) if False else None
grey16 = Image.frombytes("I;16", (W, H), bytes(b for v in grey.tobytes() for b in ((v * 257) & 0xFF, (v * 257) >> 8)))
grey16.save("grey16.tif"); ref("grey16", grey)
rgb.save("jpeg_ycbcr.tif", compression="jpeg", quality=95); ref("jpeg_ycbcr", Image.open("jpeg_ycbcr.tif").convert("RGB"), tolerance=3)
# CMYK: the reference is the plain formula of the stored inks, written by the test itself.
cmyk = rgb.convert("CMYK")
cmyk.save("cmyk8.tif", compression="tiff_lzw")
with open("cmyk8.cmyk", "wb") as f:
    f.write(cmyk.tobytes())
manifest.append(f"cmyk8 {W} {H} 1 1 cmyk")
# CMYK with ghostscript's CMYK profile embedded (libgs-common): the reference is lcms2's
# relative colorimetric conversion to sRGB through Pillow's ImageCms.
cmyk_profile = "/usr/share/color/icc/ghostscript/default_cmyk.icc"
if os.path.exists(cmyk_profile):
    from PIL import ImageCms
    with open(cmyk_profile, "rb") as f:
        icc = f.read()
    cmyk.save("cmyk8_icc.tif", compression="tiff_lzw", icc_profile=icc)
    srgb = ImageCms.profileToProfile(cmyk, ImageCms.ImageCmsProfile(cmyk_profile), ImageCms.createProfile("sRGB"),
                                     renderingIntent=1, outputMode="RGB")
    ref("cmyk8_icc", srgb, tolerance=3, note="icc")
# Orientations 2...8 (tag 274): the reference is the picture as it shows, by the TIFF/EXIF
# table itself (Pillow 9.4's exif_transpose left a TIFF of orientation 8 as stored).
shows = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
         5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE, 8: Image.Transpose.ROTATE_90}
for orientation in range(2, 9):
    name = f"orientation{orientation}"
    rgb.save(name + ".tif", tiffinfo={274: orientation})
    ref(name, rgb.transpose(shows[orientation]), note="oriented")
# Three pages.
pages = [rgb, rgb.transpose(Image.FLIP_LEFT_RIGHT), rgb.transpose(Image.FLIP_TOP_BOTTOM)]
pages[0].save("pages3.tif", save_all=True, append_images=pages[1:], compression="tiff_lzw")
for index, page in enumerate(pages):
    page.convert("RGBA").save(f"pages3.{index}.rgba.png")
    with open(f"pages3.{index}.rgba", "wb") as f:
        f.write(page.convert("RGBA").tobytes())
ref("pages3", rgb, pages=3)

tiffcp = shutil.which("tiffcp")
if tiffcp:
    subprocess.run([tiffcp, "-t", "-w", "16", "-l", "16", "-c", "zip", "rgba8_unassociated.tif", "tiled_rgba8.tif"], check=True)
    ref("tiled_rgba8", rgba)
    subprocess.run([tiffcp, "-t", "-w", "32", "-l", "16", "rgb8_none.tif", "tiled_rgb8.tif"], check=True)
    ref("tiled_rgb8", rgb)
    subprocess.run([tiffcp, "-p", "separate", "rgb8_none.tif", "planar_rgb8.tif"], check=True)
    ref("planar_rgb8", rgb)
    subprocess.run([tiffcp, "-p", "separate", "-r", "5", "rgba8_unassociated.tif", "planar_rgba8.tif"], check=True)
    ref("planar_rgba8", rgba)
    subprocess.run([tiffcp, "-r", "3", "-c", "lzw:2", "rgb8_none.tif", "strips3_rgb8.tif"], check=True)
    ref("strips3_rgb8", rgb)
convert = shutil.which("convert")
if convert:
    rgb.save("src_rgb.png")
    subprocess.run([convert, "src_rgb.png", "-depth", "16", "-compress", "zip", "rgb16.tif"], check=True)
    ref("rgb16", rgb)
    high = gradient("high")
    high.save("src_high.png")
    subprocess.run([convert, "src_high.png", "-define", "tiff:alpha=associated", "-depth", "8", "associated_rgba8.tif"], check=True)
    ref("associated_rgba8", high, tolerance=2)
    subprocess.run([convert, "src_high.png", "-define", "tiff:alpha=associated", "-depth", "16", "associated_rgba16.tif"], check=True)
    ref("associated_rgba16", high, tolerance=2)

with open("manifest.txt", "w") as f:
    f.write("\n".join(manifest) + "\n")
"""#
}
