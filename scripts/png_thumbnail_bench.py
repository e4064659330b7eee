"""The png-thumbnail benchmark (issue 21): ours against libvips' thumbnail, time and peak RSS.

    python png_thumbnail_bench.py --ours PATH/webimage-thumbnail-probe --python VENV/bin/python \
        [--work DIR] [--rounds N] [--iterations N]

Makes two 8000x8000 photo-like PNGs once (the benchmark photo upscaled with Lanczos-3 and
cropped, plain and Adam7-interlaced, with libvips' pngsave; by default with sensor-like grain
of sigma 1, which makes each file about 80 MB (issue 36); `--input 64mb` makes them without
grain, 64 MB, issue 21's inputs), then runs every variant in a child
process of its own, interleaved round by round: each child decodes its input `iterations` times
after one warm-up and prints its median time; its peak RSS is `ru_maxrss` from `wait4`. The
measuring parent imports nothing heavy (a forked child starts from the parent's resident size).

Variants (each plain and interlaced):
  ours-thumbnail          webimage-thumbnail-probe png-thumbnail (a process linking only the
                          core and the coders): PNGCoder.decode(contentsOf:), thumbnailPixelSize
                          400x300, the file read a piece at a time
  ours-thumbnail-data     png-thumbnail-data: the same from the file's bytes in memory
  ours-full-decode        png-decode-8k: PNGCoder, full size, from the bytes in memory
  libvips-thumbnail       pyvips.Image.thumbnail_buffer(data, 400, height=300), one thread
                          (VIPS_CONCURRENCY=1), operation cache off, pixels written to memory
  libvips-thumbnail-file  pyvips.Image.thumbnail(path, 400, height=300), the same settings
And for a 12000x8000 baseline JPEG (`thumb-12k.jpg`, libvips' jpegsave Q 90 of the photo
upscaled), the same five as ours-jpeg-* and libvips-jpeg-* (JPEGCoder.decode(contentsOf:) reads
the file through a 64 KiB buffer and decodes at 1/8 scale; libvips shrinks on load too).
`--formats png` or `--formats jpeg` runs one set.
The data variants hold the compressed file in memory (read before timing); the file variants
read the file as they go. Baselines (the child's peak with a 1x1 image) are printed too, so the
figures can be read over them. The goal compares ours-thumbnail with the faster libvips variant.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

VIPS_CHILD = r"""
import os, sys, time
os.environ["VIPS_CONCURRENCY"] = "1"
import pyvips
pyvips.cache_set_max(0)
path, iterations, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
data = None
if mode != "thumbnail-file":
    with open(path, "rb") as f:
        data = f.read()
def run():
    if mode == "thumbnail":
        image = pyvips.Image.thumbnail_buffer(data, 400, height=300)
    elif mode == "thumbnail-file":
        image = pyvips.Image.thumbnail(path, 400, height=300)
    else:
        image = pyvips.Image.new_from_buffer(data, "", access="sequential")
    return image.write_to_memory()
run()
samples = []
for _ in range(iterations):
    start = time.perf_counter()
    run()
    samples.append((time.perf_counter() - start) * 1000)
samples.sort()
print('{"median_ms": %.3f}' % samples[len(samples) // 2])
"""

MAKE_INPUTS = r"""
import sys, pyvips
source, out, sigma = sys.argv[1], sys.argv[2], float(sys.argv[3])
image = pyvips.Image.new_from_file(source, access="sequential")
scale = 8000 / min(image.width, image.height)
big = image.resize(scale, kernel="lanczos3")
left, top = (big.width - 8000) // 2, (big.height - 8000) // 2
big = big.crop(left, top, 8000, 8000)
if sigma > 0:
    # Sensor-like grain: the upscaled photo alone is smoother than a camera's pixels and
    # compresses to 64 MB; grain of sigma 1 makes the file about 80 MB.
    big = (big + pyvips.Image.gaussnoise(8000, 8000, sigma=sigma, mean=0, seed=36)).cast("uchar")
big = big.copy_memory()
big.pngsave(out + "/thumb-8k.png", compression=6, filter="all")
big.pngsave(out + "/thumb-8k-interlaced.png", compression=6, filter="all", interlace=True)
"""


MAKE_JPEG = r"""
import sys, pyvips
source, out = sys.argv[1], sys.argv[2]
image = pyvips.Image.new_from_file(source, access="sequential")
scale = 12000 / image.width
big = image.resize(scale, kernel="lanczos3")
top = max(0, (big.height - 8000) // 2)
big = big.crop(0, top, 12000, min(8000, big.height - top)).copy_memory()
big.jpegsave(out + "/thumb-12k.jpg", Q=90)
"""


def measure(command, env=None):
    """Runs `command`; returns (median ms, peak RSS bytes, CPU seconds of the whole child)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        os.dup2(write_end, 1)
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        if env is not None:
            os.execve(command[0], command, env)
        os.execv(command[0], command)
    os.close(write_end)
    output = b""
    while True:
        chunk = os.read(read_end, 65536)
        if not chunk:
            break
        output += chunk
    os.close(read_end)
    _, status, usage = os.wait4(pid, 0)
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        raise SystemExit("failed: %s (status %d)" % (" ".join(command), status))
    median = None
    for line in output.decode().splitlines():
        line = line.strip()
        if line.startswith("{"):
            median = json.loads(line)["median_ms"]
    return median, usage.ru_maxrss * 1024, usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ours", required=True)
    parser.add_argument("--python", required=True)
    parser.add_argument("--input", choices=["80mb", "64mb"], default="80mb",
                        help="80mb: the 8000x8000 photo with grain (about 80 MB); 64mb: without (issue 21's input)")
    parser.add_argument("--work", default=None)
    parser.add_argument("--source", default="/work/bench/inputs/photo.png")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--formats", default="png,jpeg", help="which inputs to run: png, jpeg or both (png,jpeg)")
    args = parser.parse_args()
    formats = set(args.formats.split(","))
    default_work = os.path.join(os.path.dirname(__file__), "..", ".build-bench", "thumbnail" if args.input == "64mb" else "thumbnail-80mb")
    work = os.path.abspath(args.work or default_work)
    os.makedirs(work, exist_ok=True)
    if not os.path.exists(os.path.join(work, "thumb-8k-interlaced.png")):
        print("== making the 8000x8000 %s inputs from %s" % (args.input, args.source), flush=True)
        sigma = "1" if args.input == "80mb" else "0"
        subprocess.run([args.python, "-c", MAKE_INPUTS, args.source, work, sigma], check=True)
    if "jpeg" in formats and not os.path.exists(os.path.join(work, "thumb-12k.jpg")):
        print("== making the 12000x8000 JPEG from %s" % args.source, flush=True)
        subprocess.run([args.python, "-c", MAKE_JPEG, args.source, work], check=True)
    for name in ["thumb-8k.png", "thumb-8k-interlaced.png"] + (["thumb-12k.jpg"] if "jpeg" in formats else []):
        print("input %s: %.1f MB" % (name, os.path.getsize(os.path.join(work, name)) / 1e6))
    python = os.path.abspath(args.python)
    vips_env = dict(os.environ, VIPS_CONCURRENCY="1")
    iterations = str(args.iterations)

    def variants(interlaced):
        suffix = "-interlaced" if interlaced else ""
        path = os.path.join(work, "thumb-8k%s.png" % suffix)
        return [
            ("ours-thumbnail" + suffix, [args.ours, work, "--cases", "png-thumbnail" + suffix, "--iterations", iterations], None),
            ("ours-thumbnail-data" + suffix, [args.ours, work, "--cases", "png-thumbnail-data" + suffix, "--iterations", iterations], None),
            ("ours-full-decode" + suffix, [args.ours, work, "--cases", "png-decode-8k" + suffix, "--iterations", iterations], None),
            ("libvips-thumbnail" + suffix, [python, "-c", VIPS_CHILD, path, iterations, "thumbnail"], vips_env),
            ("libvips-thumbnail-file" + suffix, [python, "-c", VIPS_CHILD, path, iterations, "thumbnail-file"], vips_env),
        ]

    def jpeg_variants():
        path = os.path.join(work, "thumb-12k.jpg")
        return [
            ("ours-jpeg-thumbnail", [args.ours, work, "--cases", "jpeg-12k-thumbnail", "--iterations", iterations], None),
            ("ours-jpeg-thumbnail-data", [args.ours, work, "--cases", "jpeg-12k-thumbnail-data", "--iterations", iterations], None),
            ("ours-jpeg-full-decode", [args.ours, work, "--cases", "jpeg-decode-12k", "--iterations", iterations], None),
            ("libvips-jpeg-thumbnail", [python, "-c", VIPS_CHILD, path, iterations, "thumbnail"], vips_env),
            ("libvips-jpeg-thumbnail-file", [python, "-c", VIPS_CHILD, path, iterations, "thumbnail-file"], vips_env),
        ]

    rows = (variants(False) + variants(True) if "png" in formats else []) + (jpeg_variants() if "jpeg" in formats else [])
    results = {name: {"ms": [], "rss": [], "cpu": []} for name, _, _ in rows}
    for round_index in range(args.rounds):
        order = rows if round_index % 2 == 0 else list(reversed(rows))
        for name, command, env in order:
            ms, rss, cpu = measure(command, env)
            results[name]["ms"].append(ms)
            results[name]["rss"].append(rss)
            results[name]["cpu"].append(cpu)
            print("round %d  %-32s %9.1f ms  %7.1f MB  %6.2f s CPU" % (round_index + 1, name, ms, rss / 1e6, cpu), flush=True)

    # Baselines: the same children on a 1x1 image (ours: a tiny PNG decode; libvips: import and a 1x1 thumbnail).
    tiny = os.path.join(work, "tiny")
    os.makedirs(tiny, exist_ok=True)
    tiny_png = os.path.join(tiny, "thumb-8k.png")
    if not os.path.exists(tiny_png):
        subprocess.run([args.python, "-c", "import sys, pyvips; pyvips.Image.black(1, 1).pngsave(sys.argv[1])", tiny_png], check=True)
    _, ours_base, ours_base_cpu = measure([args.ours, tiny, "--cases", "png-thumbnail", "--iterations", iterations])
    _, vips_base, vips_base_cpu = measure([python, "-c", VIPS_CHILD, tiny_png, iterations, "thumbnail"], vips_env)

    def cpu_per_run(name):
        # The child's CPU time less a 1x1 run's (start-up, imports), per decode (warm-up included).
        base = vips_base_cpu if name.startswith("libvips") else ours_base_cpu
        return (statistics.median(results[name]["cpu"]) - base) / (args.iterations + 1) * 1000

    print()
    print("| variant | median ms | range ms | CPU ms per decode | peak RSS MB (median) | RSS range MB |")
    print("|---|---|---|---|---|---|")
    for name, _, _ in rows:
        ms, rss = results[name]["ms"], results[name]["rss"]
        print("| %s | %.0f | %.0f-%.0f | %.0f | %.1f | %.1f-%.1f |" % (
            name, statistics.median(ms), min(ms), max(ms), cpu_per_run(name), statistics.median(rss) / 1e6, min(rss) / 1e6, max(rss) / 1e6))
    print()
    print("baseline peak RSS (1x1 image): ours %.1f MB, libvips (python + pyvips) %.1f MB" % (ours_base / 1e6, vips_base / 1e6))
    groups = ([("ours-", ""), ("ours-", "-interlaced")] if "png" in formats else []) + ([("ours-jpeg-", "")] if "jpeg" in formats else [])
    for prefix, suffix in groups:
        kind = prefix[len("ours-"):]
        full_r = statistics.median(results[prefix + "full-decode" + suffix]["rss"])
        vips = min(["libvips-%sthumbnail%s" % (kind, suffix), "libvips-%sthumbnail-file%s" % (kind, suffix)], key=lambda name: statistics.median(results[name]["ms"]))
        vips_t = statistics.median(results[vips]["ms"])
        for ours in [prefix + "thumbnail" + suffix, prefix + "thumbnail-data" + suffix]:
            ours_t = statistics.median(results[ours]["ms"])
            ours_r = statistics.median(results[ours]["rss"])
            print("%-30s time / %s %.2f, CPU %.2f (goal <= 1.0); peak RSS / full decode %.3f (goal <= 0.10); over baseline %.3f" % (
                ours + ":", vips, ours_t / vips_t, cpu_per_run(ours) / cpu_per_run(vips), ours_r / full_r, (ours_r - ours_base) / (full_r - ours_base)))


if __name__ == "__main__":
    sys.exit(main())
