#!/usr/bin/env bash
# Builds the libFuzzer harnesses (Swift and the C shim instrumented, AddressSanitizer on) and
# runs each decoder for SECONDS (default 60) seconds, seeded with the public test images in
# ../shared/testdata and small files made by the coders themselves. The harnesses decode with
# the library's default limits (no lower cap of their own), so an input of at most 64 KB may
# claim any size or frame count the defaults allow: a crash, an out-of-memory (over
# RSS_LIMIT_MB, default 4096) or a slow input (over TIMEOUT seconds, default 10) is a finding.
# Prints, per decoder, executions, peak RSS and the findings. Not run by CI.
#
# usage: Fuzz/fuzz.sh [SECONDS] [PNG JPEG GIF BMP ...]
set -euo pipefail
cd "$(dirname "$0")"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(PNG JPEG GIF BMP)
scratch=${FUZZ_SCRATCH:-/tmp/webimage-fuzz}
mkdir -p "$scratch"

swift build -c release --scratch-path "$scratch/build" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
    -Xcc -fsanitize=fuzzer-no-link,address >"$scratch/build.log" 2>&1 || { tail -30 "$scratch/build.log"; exit 1; }
bin=$(swift build -c release --scratch-path "$scratch/build" --show-bin-path)

testdata=../../shared/testdata
for target in "${targets[@]}"; do
    corpus="$scratch/corpus-$target"
    mkdir -p "$corpus"
    case $target in
        PNG) patterns=("$testdata/pngsuite/*.png" "$testdata/sdwebimage/*.png") ;;
        JPEG) patterns=("$testdata/sdwebimage/TestImage.jpg" "$testdata/sdwebimage/MonochromeTestImage.jpg") ;;
        GIF) patterns=("$testdata/sdwebimage/TestImage.gif" "$testdata/sdwebimage/TestLoopCount.gif") ;;
        BMP) patterns=() ;;
    esac
    for pattern in "${patterns[@]}"; do
        for file in $pattern; do
            [ -f "$file" ] && [ "$(stat -c %s "$file")" -lt 300000 ] && cp "$file" "$corpus/" || true
        done
    done
    for seed in seeds/*."${target,,}"; do [ -f "$seed" ] && cp "$seed" "$corpus/"; done
    echo "== Fuzz$target: ${seconds}s, $(ls "$corpus" | wc -l) seed(s)"
    "$bin/Fuzz$target" "$corpus" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb="${RSS_LIMIT_MB:-4096}" -timeout="${TIMEOUT:-10}" \
        -print_final_stats=1 -artifact_prefix="$scratch/crash-$target-" 2>"$scratch/fuzz-$target.log" || {
        echo "Fuzz$target FOUND A PROBLEM:"; tail -40 "$scratch/fuzz-$target.log"; exit 1; }
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|Done " "$scratch/fuzz-$target.log" || tail -3 "$scratch/fuzz-$target.log"
done
echo "== no crash in ${targets[*]}"
