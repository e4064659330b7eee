#!/usr/bin/env bash
# Builds the JPEG XL libFuzzer harness (Swift instrumented for coverage, AddressSanitizer on) and
# runs it for SECONDS (default 60), seeded with the JPEG XL files in ../shared/testdata/sdwebimage
# and small files made by cjxl (seeds/: lossy, lossless with alpha, progressive, animated).
# Not run by CI.
#
# The system libjxl is not instrumented: libFuzzer's coverage guidance and ASan's checks cover
# the plug-in's Swift code (limit checks, frame scan, random access, incremental and thumbnail
# paths) and every call into libjxl, not libjxl's insides (which OSS-Fuzz fuzzes upstream).
#
# usage: Plugins/JXLCoder/Fuzz/fuzz.sh [SECONDS] [extra libFuzzer flags...]
set -euo pipefail
cd "$(dirname "$0")"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
seconds=${1:-60}
shift || true
scratch=${FUZZ_SCRATCH:-/tmp/jxlcoder-fuzz}
mkdir -p "$scratch"

swift build -c release --scratch-path "$scratch/build" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >"$scratch/build.log" 2>&1 \
    || { tail -30 "$scratch/build.log"; exit 1; }
bin=$(swift build -c release --scratch-path "$scratch/build" --show-bin-path)

corpus="$scratch/corpus"
mkdir -p "$corpus"
for file in ../../../../shared/testdata/sdwebimage/*.jxl seeds/*.jxl; do
    [ -f "$file" ] && [ "$(stat -c %s "$file")" -lt 300000 ] && cp "$file" "$corpus/" || true
done
echo "== FuzzJXL: ${seconds}s, $(ls "$corpus" | wc -l) seed(s)"
"$bin/FuzzJXL" "$corpus" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=3072 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$scratch/crash-" "$@" 2>"$scratch/fuzz.log" || {
    echo "FuzzJXL FOUND A PROBLEM:"; tail -40 "$scratch/fuzz.log"; exit 1; }
grep -E "stat::number_of_executed_units|stat::peak_rss_mb|stat::new_units_added|Done " "$scratch/fuzz.log" || tail -3 "$scratch/fuzz.log"
echo "== no crash"
