#!/usr/bin/env bash
# Runs the WebP cases against Pillow and libvips on the shared benchmark inputs. The inputs come from
# ../../../../shared/bench/make_inputs.py (made into INPUT_DIR if photo.jpg is missing there);
# photo.webp, which that script does not make, is made here from photo.jpg by Pillow (lossy,
# quality 80, method 4), so both sides decode the same file. Not run by CI.
#
# usage: Plugins/WebPCoder/Benchmarks/bench.sh [INPUT_DIR] [ITERATIONS]
set -euo pipefail
cd "$(dirname "$0")"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
inputs=${1:-/tmp/webpcoder-bench/inputs}
iterations=${2:-7}
bench=../../../../shared/bench
mkdir -p "$inputs"
[ -f "$inputs/photo.jpg" ] || python3 "$bench/make_inputs.py" "$inputs" >/dev/null
[ -f "$inputs/photo.webp" ] || python3 -c "
import sys
from PIL import Image
Image.open(sys.argv[1]).save(sys.argv[2], 'WEBP', quality=80, method=4)" "$inputs/photo.jpg" "$inputs/photo.webp"
# WebPBench is an executable target of the root package (Package.swift, the WebPCoder block).
root=../../..
(cd "$root" && swift build -c release --product WebPBench >/dev/null)
echo "== ours (WebPCoder on libwebp $(pkg-config --modversion libwebp))"
"$(cd "$root" && swift build -c release --show-bin-path)/WebPBench" "$inputs" --iterations "$iterations"
echo "== Pillow $(python3 -c 'import PIL.features as f; print(f.version("pil"), "on libwebp", f.version("webp"))')"
python3 pillow_webp_bench.py "$inputs" --iterations "$iterations"
# libvips (pyvips; VIPS_PYTHON names a Python that has it, e.g. /work/bench/venv/bin/python)
vips_python=${VIPS_PYTHON:-python3}
if "$vips_python" -c 'import pyvips' 2>/dev/null; then
    echo "== libvips $("$vips_python" -c 'import pyvips; print("%d.%d.%d" % tuple(pyvips.version(i) for i in range(3)))') (one thread)"
    "$vips_python" vips_webp_bench.py "$inputs" --iterations "$iterations"
else
    echo "== libvips: pyvips is not installed for $vips_python (pip install pyvips pyvips-binary): skipped"
fi
