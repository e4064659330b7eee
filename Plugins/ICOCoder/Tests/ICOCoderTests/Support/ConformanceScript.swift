/// The Python (Pillow) script ``ConformanceTests`` runs in a temporary folder: icons and a
/// cursor of every entry kind, made by ImageMagick's `convert` (32-bit BMP with alpha, 8-bit with
/// the AND mask, 4-bit, PNG entries, and the cursor) and Pillow (24-bit and 1-bit BMP, several PNG sizes),
/// each with Pillow's decode of the entry the coder should pick (`<name>.rgba`: raw RGBA8) and a
/// manifest line `name width height`. Without `convert`, its lines are missing (the test says so).
enum ConformanceScript {
    static let source = #"""
import shutil, subprocess
from PIL import Image

manifest = []

def picture(side):
    im = Image.new("RGBA", (side, side))
    px = im.load()
    for y in range(side):
        for x in range(side):
            a = 0 if (x - side / 2) ** 2 + (y - side / 2) ** 2 > (side / 2) ** 2 else (255 if x % 5 else 160)
            px[x, y] = ((x * 8) % 256, (y * 8) % 256, (x * y) % 256, a)
    return im

def ref(name, extension=".ico", size=None):
    im = Image.open(name + extension)
    if size:
        im.size = size
    im = im.convert("RGBA")
    with open(name + ".rgba", "wb") as f:
        f.write(im.tobytes())
    manifest.append(f"{name} {im.width} {im.height}")

small = picture(32)
small.save("small.png")
big = picture(256)
big.save("big.png")
small.convert("RGB").save("bmp24.ico", sizes=[(32, 32)], bitmap_format="bmp"); ref("bmp24")
small.convert("1").save("bmp1.ico", sizes=[(32, 32)], bitmap_format="bmp"); ref("bmp1")
small.convert("P").save("bmp8_pillow.ico", sizes=[(32, 32)], bitmap_format="bmp"); ref("bmp8_pillow")
big.save("png_sizes.ico", sizes=[(16, 16), (32, 32), (48, 48), (256, 256)]); ref("png_sizes", size=(256, 256))
convert = shutil.which("convert")
if convert:
    subprocess.run([convert, "small.png", "bmp32.ico"], check=True); ref("bmp32")
    subprocess.run([convert, "small.png", "-colors", "200", "bmp8.ico"], check=True); ref("bmp8")
    subprocess.run([convert, "small.png", "-alpha", "off", "-colors", "16", "bmp4.ico"], check=True); ref("bmp4")
    subprocess.run([convert, "big.png", "small.png", "png_and_bmp.ico"], check=True); ref("png_and_bmp", size=(256, 256))
    # ImageMagick 6 writes .cur files with an icon's header: made a cursor here (type 2, the
    # hotspot (5, 7) where an icon has its planes and bit count).
    subprocess.run([convert, "small.png", "cursor.ico"], check=True)
    cursor = bytearray(open("cursor.ico", "rb").read())
    cursor[2] = 2
    cursor[10:14] = bytes([5, 0, 7, 0])
    open("cursor.cur", "wb").write(cursor); ref("cursor", extension=".cur")

with open("manifest.txt", "w") as f:
    f.write("\n".join(manifest) + "\n")
"""#
}
