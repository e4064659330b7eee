#!/usr/bin/env bash
# Builds the AVIF libFuzzer harness (Swift instrumented for coverage, AddressSanitizer on) and
# runs it for SECONDS (default 60), seeded with small files made by avifenc (seeds/: 8-, 10- and
# 12-bit, 4:4:4, 4:2:0 and 4:0:0, alpha, irot + imir, lossless, a 3-frame sequence). Not run by CI.
#
# The system libavif, dav1d and libaom are not instrumented: libFuzzer's coverage guidance and
# ASan's checks cover the plug-in's Swift code (limits, orientation, conversion, sequences,
# thumbnails) and every call into libavif, not libavif's insides (which OSS-Fuzz fuzzes upstream).
#
# usage: Plugins/AVIFCoder/Fuzz/fuzz.sh [SECONDS] [extra libFuzzer flags...]
set -euo pipefail
cd "$(dirname "$0")"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
seconds=${1:-60}
shift || true
scratch=${FUZZ_SCRATCH:-/tmp/avifcoder-fuzz}
mkdir -p "$scratch"

swift build -c release --scratch-path "$scratch/build" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >"$scratch/build.log" 2>&1 \
    || { tail -30 "$scratch/build.log"; exit 1; }
bin=$(swift build -c release --scratch-path "$scratch/build" --show-bin-path)

corpus="$scratch/corpus"
mkdir -p "$corpus"
cp seeds/*.avif "$corpus/"
echo "== FuzzAVIF: ${seconds}s, $(ls "$corpus" | wc -l) seed(s)"
"$bin/FuzzAVIF" "$corpus" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=3072 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$scratch/crash-" "$@" 2>"$scratch/fuzz.log" || {
    echo "FuzzAVIF FOUND A PROBLEM:"; tail -40 "$scratch/fuzz.log"; exit 1; }
grep -E "stat::number_of_executed_units|stat::peak_rss_mb|stat::new_units_added|Done " "$scratch/fuzz.log" || tail -3 "$scratch/fuzz.log"
echo "== no crash"
