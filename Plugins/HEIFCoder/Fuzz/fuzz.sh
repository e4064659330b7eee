#!/usr/bin/env bash
# Builds the HEIF libFuzzer harness (Swift instrumented for coverage, AddressSanitizer on) and
# runs it for SECONDS (default 60), seeded with the small files in seeds/ (made by heif-enc:
# HEIC opaque, with alpha, odd-sized, with a thumbnail; AVIF) and any .heic/.heif/.avif files
# in ../shared/testdata. Not run by CI.
#
# The system libheif, libde265, x265 and dav1d are not instrumented: coverage guidance and ASan
# cover the plug-in's Swift code and every call into libheif, not libheif's insides (which
# OSS-Fuzz fuzzes upstream). libheif's crashes would still stop the run.
#
# usage: Plugins/HEIFCoder/Fuzz/fuzz.sh [SECONDS] [extra libFuzzer flags...]
set -euo pipefail
cd "$(dirname "$0")"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
seconds=${1:-60}
shift || true
scratch=${FUZZ_SCRATCH:-/tmp/heifcoder-fuzz}
mkdir -p "$scratch"

swift build -c release --scratch-path "$scratch/build" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >"$scratch/build.log" 2>&1 \
    || { tail -30 "$scratch/build.log"; exit 1; }
bin=$(swift build -c release --scratch-path "$scratch/build" --show-bin-path)

corpus="$scratch/corpus"
mkdir -p "$corpus"
for file in seeds/* ../../../../shared/testdata/*/*.heic ../../../../shared/testdata/*/*.heif ../../../../shared/testdata/*/*.avif; do
    [ -f "$file" ] && [ "$(stat -c %s "$file")" -lt 300000 ] && cp "$file" "$corpus/" || true
done
echo "== FuzzHEIF: ${seconds}s, $(ls "$corpus" | wc -l) seed(s), libheif $(pkg-config --modversion libheif)"
# detect_leaks=0: libheif keeps its plug-in registry for the life of the process (heif_init
# without heif_deinit), which LeakSanitizer would report at exit.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} \
"$bin/FuzzHEIF" "$corpus" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=3072 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$scratch/crash-" "$@" 2>"$scratch/fuzz.log" || {
    echo "FuzzHEIF FOUND A PROBLEM:"; tail -40 "$scratch/fuzz.log"; exit 1; }
grep -E "stat::number_of_executed_units|stat::peak_rss_mb|stat::new_units_added|Done " "$scratch/fuzz.log" || tail -3 "$scratch/fuzz.log"
echo "== no crash"
