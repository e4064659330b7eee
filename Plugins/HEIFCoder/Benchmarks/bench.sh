#!/usr/bin/env bash
# Runs webimage-bench's HEIC cases (release build of the root package) and their peers,
# pillow-heif and libvips, on the shared benchmark inputs. The inputs come from
# ../../../../shared/bench/make_inputs.py (made into INPUT_DIR if photo.jpg is missing there);
# photo.heic, which that script does not make, is made here from photo.jpg by heif-enc
# (libheif-examples: quality 80, a stored thumbnail of 320 pixels), so every side decodes the
# same file. Not run by CI.
#
# usage: Plugins/HEIFCoder/Benchmarks/bench.sh [INPUT_DIR] [ITERATIONS]
set -euo pipefail
cd "$(dirname "$0")"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
inputs=${1:-/tmp/heifcoder-bench/inputs}
iterations=${2:-7}
bench=../../../../shared/bench
mkdir -p "$inputs"
[ -f "$inputs/photo.jpg" ] || python3 "$bench/make_inputs.py" "$inputs" >/dev/null
[ -f "$inputs/photo.heic" ] || heif-enc -q 80 -t 320 -o "$inputs/photo.heic" "$inputs/photo.jpg" >/dev/null
root=../../..
scratch=${BENCH_SCRATCH:-$root/.build}
swift build -c release --package-path "$root" --scratch-path "$scratch" --product webimage-bench >/dev/null
echo "== ours (HEIFCoder on libheif $(pkg-config --modversion libheif))"
"$(swift build -c release --package-path "$root" --scratch-path "$scratch" --show-bin-path)/webimage-bench" "$inputs" \
    --iterations "$iterations" --cases heic-decode,heic-encode,heic-thumbnail
echo "== peers"
python3 heif_peer_bench.py "$inputs" --iterations "$iterations"
