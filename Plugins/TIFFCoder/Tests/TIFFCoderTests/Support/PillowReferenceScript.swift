/// The Python (Pillow) script ``LibraryTestFileTests`` runs over a folder of TIFFs it did not
/// make (Pillow's and libtiff's own test files): `script SOURCE TARGET` decodes every file with
/// Pillow and writes, per file, one JSON line to `TARGET/manifest.jsonl` and the pixels of its
/// first frames to `TARGET/<name>.<frame>.rgba` (raw RGBA8, straight alpha, upright: Pillow
/// applies the Orientation tag itself when it loads a TIFF frame, as TIFFCoder does; Pillow 9
/// keeps the tag afterwards, so `exif_transpose` would turn the image twice).
///
/// A line is `{"name","ok":true,"mode","count","frames":[{"width","height","reduced","file"}]}`
/// (`count`: Pillow's frame count, reduced-resolution pages included) or
/// `{"name","ok":false,"reason"}` when Pillow cannot read the file or gives no 8-bit view of it
/// (32-bit integer and float samples: Pillow has no rule for them that a viewer would share).
/// 9- to 16-bit grey is scaled to 8 bits by its stated depth (v x 255 / (2^bits - 1); Pillow's
/// own conversion clips at 255), Lab (D50) goes to sRGB through Pillow's ImageCms (lcms2),
/// everything else through `convert("RGBA")`. `reduced` is bit 0 of NewSubfileType (a
/// reduced-resolution page, which TIFFCoder does not count as a frame).
/// At most 8 frames are written per file.
enum PillowReferenceScript {
    static let source = #"""
import json, os, sys, warnings
from PIL import Image

warnings.simplefilter("ignore")
source, target = sys.argv[1], sys.argv[2]
MAX_FRAMES = 8

def first(value, default):
    if isinstance(value, tuple):
        value = value[0] if value else default
    return int(value) if value is not None else default

def as_rgba(frame, tags):
    image = frame
    mode = image.mode
    if mode.startswith("I;16"):
        # Pillow keeps 9- to 16-bit samples as they are stored: scale by the stated bit depth.
        top = (1 << first(tags.get(258), 16)) - 1
        image = image.convert("I").point(lambda v: v * (255.0 / top) + 0.5).convert("L")
    elif mode in ("I", "F"):
        raise ValueError(f"Pillow gives no 8-bit view of mode {mode} (32-bit integer or float samples)")
    elif mode == "LAB":
        from PIL import ImageCms
        transform = ImageCms.buildTransform(ImageCms.createProfile("LAB"), ImageCms.createProfile("sRGB"), "LAB", "RGB")
        image = ImageCms.applyTransform(image, transform)
    return image.convert("RGBA")

with open(os.path.join(target, "manifest.jsonl"), "w") as manifest:
    for name in sorted(os.listdir(source)):
        if name.startswith("."):
            continue
        entry = {"name": name}
        try:
            with Image.open(os.path.join(source, name)) as image:
                entry["mode"] = image.mode
                count = getattr(image, "n_frames", 1)
                frames = []
                for index in range(min(count, MAX_FRAMES)):
                    image.seek(index)
                    tags = getattr(image, "tag_v2", {})
                    reduced = bool(int(tags.get(254, 0) or 0) & 1)
                    rgba = as_rgba(image, tags)
                    file = f"{name}.{index}.rgba"
                    with open(os.path.join(target, file), "wb") as out:
                        out.write(rgba.tobytes())
                    frames.append({"width": rgba.width, "height": rgba.height, "reduced": reduced, "file": file})
                entry.update(ok=True, count=count, frames=frames)
        except Exception as error:
            entry.update(ok=False, reason=f"{type(error).__name__}: {error}"[:300])
        manifest.write(json.dumps(entry) + "\n")
"""#
}
