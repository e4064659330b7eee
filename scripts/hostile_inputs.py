#!/usr/bin/env python3
"""Hostile images for issue 19: make them, then run `webimage` on each and measure it.

    python3 scripts/hostile_inputs.py make DIR
        Writes the hostile inputs into DIR (skips files already there). Standard library only
        (zlib, struct). The progressive JPEG needs `cjpeg` and `jpegtran` (Debian:
        `apt-get install libjpeg-turbo-progs`); without them that input is skipped with a message.

    python3 scripts/hostile_inputs.py run WEBIMAGE DIR OUTDIR [--timeout S] [--memory-gib G]
        Runs, for each input in DIR: `info`, `convert`, `fetch --thumbnail 100x100` and
        `fetch --transform flip=h` (file:// URL, --no-cache), each as its own child process with
        an address-space limit (RLIMIT_AS, default 8 GiB) and a time limit (default 60 s, then
        SIGKILL). Peak RSS is the child's own ru_maxrss from os.wait4. Prints a markdown table.

Usually run through scripts/hostile, which also builds webimage in release.
"""
import os
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

# ---------------------------------------------------------------------------------------------
# PNG / APNG


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def ihdr(width, height, colour_type):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0))


def deflate_rows(row, height, rows_per_feed=256):
    """zlib stream of `height` copies of `row` (a filter byte and the pixels), fed in blocks."""
    compressor = zlib.compressobj(9)
    block = row * rows_per_feed
    out = []
    left = height
    while left > 0:
        n = min(left, rows_per_feed)
        out.append(compressor.compress(block if n == rows_per_feed else row * n))
        left -= n
    out.append(compressor.flush())
    return b"".join(out)


def write_png(path, width, height, colour_type, row):
    data = deflate_rows(row, height)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(ihdr(width, height, colour_type))
        # IDAT in pieces of at most 1 MiB, as encoders do.
        for i in range(0, len(data), 1 << 20):
            f.write(chunk(b"IDAT", data[i:i + (1 << 20)]))
        f.write(chunk(b"IEND", b""))


def write_apng(path, width, height, frames, colour_type, row):
    """Every frame full-canvas, the same (tiny) zlib data, 10 ms, no disposal, source blend."""
    data = deflate_rows(row, height)
    seq = 0
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(ihdr(width, height, colour_type))
        f.write(chunk(b"acTL", struct.pack(">II", frames, 0)))
        for index in range(frames):
            f.write(chunk(b"fcTL", struct.pack(">IIIIIHHBB", seq, width, height, 0, 0, 1, 100, 0, 0)))
            seq += 1
            if index == 0:
                f.write(chunk(b"IDAT", data))
            else:
                f.write(chunk(b"fdAT", struct.pack(">I", seq) + data))
                seq += 1
        f.write(chunk(b"IEND", b""))


# ---------------------------------------------------------------------------------------------
# GIF

# LZW with minimum code size 2 (clear = 4, end = 5, 3-bit codes), packed LSB first.
LZW_CLEAR_END = bytes([0x01, 4 | (5 << 3), 0x00])             # no pixels: the frame stays transparent
LZW_ONE_PIXEL = bytes([0x02, 0x44, 0x01, 0x00])               # clear, index 0, end


def write_gif(path, width, height, frames, lzw):
    with open(path, "wb") as f:
        f.write(b"GIF89a" + struct.pack("<HHBBB", width, height, 0xF0, 0, 0))
        f.write(bytes([0, 0, 0, 255, 0, 0]))                     # global colour table: 2 entries
        f.write(b"\x21\xFF\x0BNETSCAPE2.0\x03\x01\x00\x00\x00")  # loop forever
        frame = (b"\x21\xF9\x04" + struct.pack("<BHBB", 0x05, 1, 1, 0)   # transparent 1, keep, 10 ms
                 + b"\x2C" + struct.pack("<HHHHB", 0, 0, width, height, 0)
                 + b"\x02" + lzw)
        f.write(frame * frames)
        f.write(b"\x3B")


# ---------------------------------------------------------------------------------------------
# Progressive JPEG (cjpeg + jpegtran), then SOF2 patched to a huge size


def write_progressive_jpeg(path, width, height):
    cjpeg, jpegtran = shutil.which("cjpeg"), shutil.which("jpegtran")
    if not cjpeg or not jpegtran:
        return "needs cjpeg and jpegtran (apt-get install libjpeg-turbo-progs)"
    with tempfile.TemporaryDirectory() as tmp:
        size = 64
        ppm = os.path.join(tmp, "in.ppm")
        with open(ppm, "wb") as f:
            f.write(b"P6 %d %d 255\n" % (size, size))
            f.write(bytes((x * 4 + y) & 255 for y in range(size) for x in range(size) for _ in range(3)))
        base = os.path.join(tmp, "base.jpg")
        subprocess.run([cjpeg, "-quality", "95", "-outfile", base, ppm], check=True)
        # jpegtran takes at most 100 scans: DC first and refinement, and per component 16 AC
        # bands of 4 coefficients, first pass and refinement (2 + 3*16*2 = 98 scans).
        bands = [(k, min(k + 3, 63)) for k in range(1, 64, 4)]
        lines = ["0,1,2: 0-0, 0, 1;"]
        lines += ["%d: %d-%d, 0, 1;" % (c, a, b) for c in range(3) for a, b in bands]
        lines.append("0,1,2: 0-0, 1, 0;")
        lines += ["%d: %d-%d, 1, 0;" % (c, a, b) for c in range(3) for a, b in bands]
        script = os.path.join(tmp, "scans.txt")
        with open(script, "w") as f:
            f.write("\n".join(lines) + "\n")
        prog = os.path.join(tmp, "prog.jpg")
        subprocess.run([jpegtran, "-progressive", "-scans", script, "-outfile", prog, base], check=True)
        data = bytes(open(prog, "rb").read())
    # Repeat the 49 refinement scans (their DHT, SOS and entropy data) 7 more times: 441 scans in
    # all. Repeated refinements break the progression rules; decoders warn and go on.
    scans = jpeg_scan_starts(data)
    if len(scans) != len(lines):
        return "jpegtran wrote %d scans, not %d" % (len(scans), len(lines))
    refine = scans[len(lines) // 2]
    eoi = len(data) - 2
    data = bytearray(data[:eoi] + data[refine:eoi] * 7 + data[eoi:])
    sof = data.find(b"\xFF\xC2")
    if sof < 0:
        return "jpegtran wrote no SOF2"
    struct.pack_into(">HH", data, sof + 5, height, width)
    with open(path, "wb") as f:
        f.write(data)
    return None


def write_simple_progressive_jpeg(path, width, height):
    """libjpeg's own progression (10 scans) of a 64x64 image, SOF2 patched to `width` x `height`:
    a file of a few hundred bytes whose scans are all legitimate."""
    cjpeg = shutil.which("cjpeg")
    if not cjpeg:
        return "needs cjpeg (apt-get install libjpeg-turbo-progs)"
    ppm = b"P6 64 64 255\n" + bytes((x * 4 + y) & 255 for y in range(64) for x in range(64) for _ in range(3))
    data = bytearray(subprocess.run([cjpeg, "-progressive", "-quality", "90"], input=ppm, check=True,
                                    stdout=subprocess.PIPE).stdout)
    sof = data.find(b"\xFF\xC2")
    if sof < 0:
        return "cjpeg wrote no SOF2"
    struct.pack_into(">HH", data, sof + 5, height, width)
    with open(path, "wb") as f:
        f.write(data)
    return None


def write_svg_use_bomb(path, levels=9):
    """SVG whose <use> references fan out to 10^levels shapes (the billion-laughs shape)."""
    body = '<path id="l0" d="M0 0 L1 1 L0 1 Z"/>'
    for level in range(1, levels + 1):
        body += '<g id="l%d">%s</g>' % (level, ('<use href="#l%d"/>' % (level - 1)) * 10)
    with open(path, "w") as out:
        out.write('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><defs>%s</defs>'
                  '<use href="#l%d"/></svg>\n' % (body, levels))


def write_pdf_giant_page(path, inches=14400):
    """One-page PDF whose MediaBox is inches x inches (72 points an inch), half of it red."""
    side = inches * 72
    content = "1 0 0 rg 0 0 %d %d re f" % (side // 2, side)
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents 4 0 R >>" % (side, side),
               "<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content)]
    data = b"%PDF-1.4\n"
    offsets = []
    for index, body in enumerate(objects):
        offsets.append(len(data))
        data += ("%d 0 obj\n%s\nendobj\n" % (index + 1, body)).encode()
    xref = len(data)
    data += ("xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)).encode()
    data += b"".join(("%010d 00000 n \n" % offset).encode() for offset in offsets)
    data += ("trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)).encode()
    with open(path, "wb") as out:
        out.write(data)


def jpeg_scan_starts(data):
    """Offsets where each scan's segments begin (the DHT/DQT/DRI just before its SOS, or the SOS)."""
    starts, i, pending = [], 2, None
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return starts
        marker = data[i + 1]
        if marker == 0xD9:
            break
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in (0xC4, 0xDB, 0xDD) and pending is None:
            pending = i
        if marker == 0xDA:
            starts.append(pending if pending is not None else i)
            pending = None
            i += 2 + length
            while i + 1 < len(data) and not (data[i] == 0xFF and data[i + 1] not in range(0xD0, 0xD8)
                                             and data[i + 1] != 0x00):
                i += 1
            continue
        if marker not in (0xC4, 0xDB, 0xDD):
            pending = None
        i += 2 + length
    return starts


# ---------------------------------------------------------------------------------------------
# TIFF


def write_tiff_rgb(path, width, height, rows_per_strip, strips):
    """A little-endian baseline TIFF: 8-bit RGB, deflate, `strips` strips of 16 bytes each
    (zlib headers and garbage), whatever the size the header claims."""
    count = len(strips)
    tags = [(256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, 8), (259, 3, 1, 8), (262, 3, 1, 2),
            (273, 4, count, None), (277, 3, 1, 3), (278, 4, 1, rows_per_strip), (279, 4, count, None),
            (284, 3, 1, 1)]
    ifd_size = 2 + 12 * len(tags) + 4
    arrays = 8 + ifd_size
    data_start = arrays + (8 * count if count > 1 else 0)
    offsets = [data_start + 16 * i for i in range(count)]
    out = bytearray(b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", len(tags)))
    for tag, kind, n, value in tags:
        if tag in (273, 279):
            values = offsets if tag == 273 else [16] * count
            field = struct.pack("<I", values[0] if count == 1 else arrays + (0 if tag == 273 else 4 * count))
        else:
            field = struct.pack("<HH", value, 0) if kind == 3 else struct.pack("<I", value)
        out += struct.pack("<HHI", tag, kind, n) + field
    out += struct.pack("<I", 0)
    if count > 1:
        out += struct.pack("<%dI" % count, *offsets) + struct.pack("<%dI" % count, *([16] * count))
    for strip in strips:
        out += strip
    with open(path, "wb") as f:
        f.write(out)


# ---------------------------------------------------------------------------------------------

INPUTS = [
    # name, description, maker
    ("apng-60x8192.png", "APNG, 60 frames of 8192x8192",
     lambda p: write_apng(p, 8192, 8192, 60, 0, b"\x00" * 8193)),
    ("gif-8x10000.gif", "GIF, 8 frames of 10000x10000 (no pixel data)",
     lambda p: write_gif(p, 10000, 10000, 8, LZW_CLEAR_END)),
    ("progressive-16000.jpg", "progressive JPEG 16000x16000, 441 scans",
     lambda p: write_progressive_jpeg(p, 16000, 16000)),
    ("bomb-1gib.png", "PNG 16384x16384 RGBA, IDAT inflates to 1 GiB",
     lambda p: write_png(p, 16384, 16384, 6, b"\x00" * (16384 * 4 + 1))),
    ("gif-20000x1.gif", "GIF, 20000 frames of 1x1",
     lambda p: write_gif(p, 1, 1, 20000, LZW_ONE_PIXEL)),
    ("apng-10000x1.png", "APNG, 10000 frames of 1x1",
     lambda p: write_apng(p, 1, 1, 10000, 0, b"\x00\x80")),
    # Filter Sub: the first pixel red, the rest "same as the left".
    ("flat-16000.png", "PNG 16000x16000, one colour",
     lambda p: write_png(p, 16000, 16000, 2, b"\x01\xFF\x00\x00" + b"\x00" * (16000 * 3 - 3))),
    # Within the 50 MP per-frame and 100 MP per-image defaults: refused or bounded by the JPEG
    # scan rules, decoded frame by frame for animations.
    ("progressive-7000.jpg", "progressive JPEG 7000x7000, 441 scans",
     lambda p: write_progressive_jpeg(p, 7000, 7000)),
    ("progressive-7000-simple.jpg", "progressive JPEG 7000x7000, 10 scans (cjpeg -progressive)",
     lambda p: write_simple_progressive_jpeg(p, 7000, 7000)),
    ("apng-24x2000.png", "APNG, 24 frames of 2000x2000",
     lambda p: write_apng(p, 2000, 2000, 24, 0, b"\x00" * 2001)),
    ("gif-2x7000.gif", "GIF, 2 frames of 7000x7000 (no pixel data)",
     lambda p: write_gif(p, 7000, 7000, 2, LZW_CLEAR_END)),
    # TIFFCoder plug-in: the header claims 30 GB of RGB; refused from the directory.
    ("tiff-100000.tif", "TIFF 100000x100000 RGB, one deflate strip of 16 bytes",
     lambda p: write_tiff_rgb(p, 100000, 100000, 100000, [b"\x78\x9c" + b"\x00" * 14])),
    # Within the limits (7000x7000 = 49 MP): 1000 strips of 7 rows, each 16 bytes that do not
    # inflate to its rows: every strip is an error, found one strip at a time.
    ("tiff-7000-strips.tif", "TIFF 7000x7000 RGB, 1000 deflate strips of 16 bytes (truncated)",
     lambda p: write_tiff_rgb(p, 7000, 7000, 7, [b"\x78\x9c" + b"\x00" * 14] * 1000)),
    # Vector plug-ins (SVGCoder, PDFCoder): refused from a scan of the tags, and drawn at the
    # pixel limit (the size is computed from the page box before any surface).
    ("use-bomb.svg", "SVG, <use> fan-out to 10^9 shapes",
     lambda p: write_svg_use_bomb(p)),
    ("giant-page.pdf", "PDF, one page of 14400x14400 inches",
     lambda p: write_pdf_giant_page(p)),
]


def make(directory):
    os.makedirs(directory, exist_ok=True)
    for name, description, maker in INPUTS:
        path = os.path.join(directory, name)
        if os.path.exists(path):
            continue
        start = time.monotonic()
        reason = maker(path + ".tmp")
        if reason:
            print("skip %s (%s): %s" % (name, description, reason), file=sys.stderr)
            continue
        os.replace(path + ".tmp", path)
        print("made %s: %s, %.1f MB, %.1f s" % (name, description, os.path.getsize(path) / 1e6,
                                                 time.monotonic() - start), file=sys.stderr)


# ---------------------------------------------------------------------------------------------


def measure(argv, timeout, memory_bytes, log):
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        os.setsid()
    start = time.monotonic()
    child = subprocess.Popen(argv, stdout=log, stderr=log, stdin=subprocess.DEVNULL, preexec_fn=limit)
    timed_out = False
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() - start > timeout:
            os.killpg(child.pid, signal.SIGKILL)
            timed_out = True
            pid, status, usage = os.wait4(child.pid, 0)
            break
        time.sleep(0.02)
    elapsed = time.monotonic() - start
    child.returncode = 0  # reaped by wait4; keep Popen from waiting again
    rss_mb = usage.ru_maxrss / 1024  # KiB on Linux
    if timed_out:
        return "killed after %d s" % timeout, False, rss_mb, elapsed
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        return "crashed (%s)" % signal.Signals(sig).name, False, rss_mb, elapsed
    code = os.WEXITSTATUS(status)
    return ("0" if code == 0 else "%d (refused)" % code), True, rss_mb, elapsed


def run(webimage, directory, outdir, timeout, memory_gib):
    os.makedirs(outdir, exist_ok=True)
    memory_bytes = int(memory_gib * (1 << 30))
    print("| input | command | exit status | peak RSS (MB) | time (s) | within goal |")
    print("|---|---|---|---:|---:|---|")
    over = 0
    for name, description, _ in INPUTS:
        path = os.path.abspath(os.path.join(directory, name))
        if not os.path.exists(path):
            print("| %s | (not made) | | | | |" % description)
            continue
        stem = os.path.splitext(name)[0]
        url = "file://" + path
        commands = [
            ("info", [webimage, "info", path]),
            ("convert", [webimage, "convert", path, os.path.join(outdir, stem + ".convert.png")]),
            ("fetch --thumbnail 100x100", [webimage, "fetch", url, "--no-cache", "--thumbnail", "100x100",
                                           "--output", os.path.join(outdir, stem + ".thumb")]),
            ("fetch --transform flip=h", [webimage, "fetch", url, "--no-cache", "--transform", "flip=h",
                                          "--output", os.path.join(outdir, stem + ".flip")]),
        ]
        for label, argv in commands:
            with open(os.path.join(outdir, "%s.%s.log" % (stem, label.replace(" --", ".").replace(" ", "_"))), "wb") as log:
                status, exited, rss, elapsed = measure(argv, timeout, memory_bytes, log)
            ok = exited and elapsed < 2 and rss < 512
            over += not ok
            print("| %s | `%s` | %s | %.0f | %.2f | %s |" % (
                description, label, status, rss, elapsed, "yes" if ok else "**no**"), flush=True)
    print("\n%d row(s) over the goal (refused or finished in < 2 s and < 512 MB); "
          "limits: %g GiB address space, %d s; logs in %s" % (over, memory_gib, timeout, outdir))
    print("A crash with peak RSS near the limit is an allocation the limit refused "
          "(the log says 'failed to allocate'); without the limit it would take that much more.")


def main(args):
    if len(args) >= 2 and args[0] == "make":
        make(args[1])
    elif len(args) >= 4 and args[0] == "run":
        timeout, memory = 60, 8.0
        rest = args[4:]
        while rest:
            if rest[0] == "--timeout":
                timeout = int(rest[1])
            elif rest[0] == "--memory-gib":
                memory = float(rest[1])
            else:
                sys.exit("unknown option %s" % rest[0])
            rest = rest[2:]
        run(args[1], args[2], args[3], timeout, memory)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
