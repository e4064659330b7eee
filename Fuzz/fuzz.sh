#!/usr/bin/env bash
# Builds the libFuzzer harnesses (Swift and the C shim instrumented, AddressSanitizer on) and
# runs each decoder for SECONDS (default 60) seconds, seeded with the public test images in
# ../shared/testdata and small files made by the coders or the reference encoders (seeds/). The
# harnesses decode with the library's default limits (no lower cap of their own), so an input of
# at most 64 KB may claim any size or frame count the defaults allow: a crash, an out-of-memory
# (over RSS_LIMIT_MB, default 4096) or a slow input (over TIMEOUT seconds, default 10) is a
# finding. Prints, per decoder, executions, peak RSS and the findings. Not run by CI.
#
# The plug-ins' C libraries (libwebp, libavif, libheif, libjxl, libtiff and their codecs) are the system's,
# not instrumented: coverage guidance and ASan cover our Swift code and every call into them,
# not their insides (which OSS-Fuzz fuzzes upstream); their crashes still stop the run.
#
# usage: Fuzz/fuzz.sh [SECONDS] [PNG JPEG GIF BMP WebP AVIF HEIF JXL TIFF ICO SVG PDF ICC ...]   (default: all)
set -euo pipefail
cd "$(dirname "$0")"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(PNG JPEG GIF BMP WebP AVIF HEIF JXL TIFF ICO SVG PDF ICC)
scratch=${FUZZ_SCRATCH:-/tmp/webimage-fuzz}
mkdir -p "$scratch"

for target in "${targets[@]}"; do
    swift build -c release --scratch-path "$scratch/build" --product "Fuzz$target" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
        -Xcc -fsanitize=fuzzer-no-link,address >"$scratch/build.log" 2>&1 || { tail -30 "$scratch/build.log"; exit 1; }
done
bin=$(swift build -c release --scratch-path "$scratch/build" --show-bin-path)

testdata=../../shared/testdata
for target in "${targets[@]}"; do
    corpus="$scratch/corpus-$target"
    mkdir -p "$corpus"
    case $target in
        PNG) patterns=("$testdata/pngsuite/*.png" "$testdata/sdwebimage/*.png" "seeds/*.png") ;;
        JPEG) patterns=("$testdata/sdwebimage/TestImage.jpg" "$testdata/sdwebimage/MonochromeTestImage.jpg" "seeds/*.jpeg") ;;
        GIF) patterns=("$testdata/sdwebimage/TestImage.gif" "$testdata/sdwebimage/TestLoopCount.gif" "seeds/*.gif") ;;
        BMP) patterns=("seeds/*.bmp") ;;
        WebP) patterns=("$testdata/sdwebimage/*.webp" "seeds/*.webp") ;;
        AVIF) patterns=("seeds/*.avif") ;;
        HEIF) patterns=("$testdata/*/*.heic" "$testdata/*/*.heif" "$testdata/*/*.avif" "seeds/*.heic" "seeds/*.avif") ;;
        JXL) patterns=("$testdata/sdwebimage/*.jxl" "seeds/*.jxl") ;;
        TIFF) patterns=("$testdata/*/*.tif" "$testdata/*/*.tiff" "seeds/*.tif") ;;
        ICO) patterns=("$testdata/*/*.ico" "seeds/*.ico" "seeds/*.cur") ;;
        SVG) patterns=("$testdata/*/*.svg" "seeds/*.svg") ;;
        PDF) patterns=("$testdata/*/*.pdf" "seeds/*.pdf") ;;
        # Real profiles from Debian (colord-data, icc-profiles-free, libgs-common): RGB, grey,
        # CMYK, Lab, matrix-shaper and LUT-based.
        ICC) patterns=("/usr/share/color/icc/*.icc" "/usr/share/color/icc/*/*.icc" "/usr/share/color/icc/*.ICM") ;;
        *) echo "unknown target $target (PNG JPEG GIF BMP WebP AVIF HEIF JXL TIFF ICO SVG PDF ICC)" >&2; exit 64 ;;
    esac
    for pattern in "${patterns[@]}"; do
        for file in $pattern; do
            [ -f "$file" ] && [ "$(stat -c %s "$file")" -lt 300000 ] && cp "$file" "$corpus/" || true
        done
    done
    echo "== Fuzz$target: ${seconds}s, $(ls "$corpus" | wc -l) seed(s)"
    # detect_leaks=0 for HEIF: libheif keeps its plug-in registry for the life of the process
    # (heif_init without heif_deinit), which LeakSanitizer would report at exit; for SVG and PDF:
    # fontconfig, GLib's type system and poppler's globals live as long, and a render past its
    # time limit may still be running at exit.
    leaks=1; case $target in HEIF|SVG|PDF) leaks=0 ;; esac
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=$leaks} \
    "$bin/Fuzz$target" "$corpus" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb="${RSS_LIMIT_MB:-4096}" -timeout="${TIMEOUT:-10}" \
        -print_final_stats=1 -artifact_prefix="$scratch/crash-$target-" 2>"$scratch/fuzz-$target.log" || {
        echo "Fuzz$target FOUND A PROBLEM:"; tail -40 "$scratch/fuzz-$target.log"; exit 1; }
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|Done " "$scratch/fuzz-$target.log" || tail -3 "$scratch/fuzz-$target.log"
done
echo "== no crash in ${targets[*]}"
