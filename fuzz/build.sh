#!/usr/bin/env bash
# Builds the libFuzzer targets with swiftc directly (no Package.swift change):
# the modules they need are compiled from Sources/ as static libraries with
# coverage instrumentation and AddressSanitizer (the C shims with the
# toolchain's clang), then each target in fuzz/targets/ is linked against them
# and libFuzzer. ExtremeSceneFuzzer also compiles the scene generator it
# shares with the tests (Tests/ShiftRenderTests/ExtremeScenes.swift).
#
#   fuzz/build.sh            # builds into .build-fuzz/ at the repository root
#   FUZZ_OUT=dir fuzz/build.sh
#
# Needs: swiftc from a Linux Swift toolchain (it ships libFuzzer and ASan as
# libclang_rt.fuzzer / libclang_rt.asan, and the clang for the C shims),
# libpng-dev, the FFmpeg and the text libraries' development packages (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${FUZZ_OUT:-$ROOT/.build-fuzz}
SWIFTC=${SWIFTC:-swiftc}
# The clang beside swiftc: its libFuzzer and ASan runtimes are the ones swiftc links.
CLANG=${CLANG:-$(dirname "$(command -v "$SWIFTC")")/clang}
SANITIZE=${FUZZ_SANITIZE:-fuzzer,address}
mkdir -p "$OUT/modules" "$OUT/lib"

# -O keeps preconditions and bounds checks (only -Ounchecked drops them) and
# runs an order of magnitude more inputs per second than -Onone.
# -package-name: TransitionEngine has `package` API for tests and fuzzers
# (`TransitionTimeline.keptPart(ofSnapshot:)`).
COMMON=(-swift-version 6 -O -g -parse-as-library -sanitize="$SANITIZE" -package-name shiftrender
        -I "$OUT/modules" -I "$ROOT/Sources/CLibPNG" -I "$ROOT/Sources/CLibJPEG" -I "$ROOT/Sources/CFFmpeg"
        -I "$ROOT/Sources/CLibDeflate" -I "$ROOT/Sources/CPrefetch")
# The text libraries' module maps, and their headers' directories (what SwiftPM asks pkg-config for).
for text in CFreeType CHarfBuzz CFontconfig CFriBidi CUnibreak; do COMMON+=(-I "$ROOT/Sources/$text"); done
for flag in $(pkg-config --cflags-only-I freetype2 harfbuzz fontconfig fribidi); do COMMON+=(-Xcc "$flag"); done

library() {  # name, sources...
    local name=$1; shift
    echo "fuzz/build.sh: compiling $name" >&2
    "$SWIFTC" "${COMMON[@]}" -module-name "$name" -emit-module -emit-module-path "$OUT/modules/$name.swiftmodule" \
        -emit-library -static -o "$OUT/lib/lib$name.a" "$@"
}

# The C targets (CPNGShim, CFFmpegShim): SwiftPM compiles them and writes
# their module maps; here clang compiles them with the same instrumentation
# and the module map is written by hand (without it, PNGCodec does not build:
# "no such module 'CPNGShim'").
cshim() {  # name
    local name=$1 dir=$ROOT/Sources/$1
    echo "fuzz/build.sh: compiling $name" >&2
    mkdir -p "$OUT/modules/$name" "$OUT/obj/$name"
    printf 'module %s {\n    umbrella "%s"\n    export *\n}\n' "$name" "$dir/include" >"$OUT/modules/$name/module.modulemap"
    rm -f "$OUT/lib/lib$name.a" "$OUT/obj/$name"/*.o
    for c in "$dir"/*.c; do
        "$CLANG" -O1 -g -fsanitize=fuzzer-no-link,address -I "$dir/include" -c "$c" -o "$OUT/obj/$name/$(basename "$c" .c).o"
    done
    ar rcs "$OUT/lib/lib$name.a" "$OUT/obj/$name"/*.o
}

# In dependency order (Package.swift). The scene and image targets go through
# the library (`SceneDiagnostics`, `Renderer`), as `shiftrender validate` does,
# so ShiftRender and what it imports (the encoders, FFmpeg) are built too.
cshim CPNGShim
cshim CJPEGShim
cshim CFFmpegShim
library Primitives "$ROOT"/Sources/Primitives/*.swift
library PNGCodec "$ROOT"/Sources/PNGCodec/*.swift
library JPEGCodec "$ROOT"/Sources/JPEGCodec/*.swift
library Timing "$ROOT"/Sources/Timing/*.swift
library SceneModel "$ROOT"/Sources/SceneModel/*.swift
library TextLayout "$ROOT"/Sources/TextLayout/*.swift
library SceneFormat "$ROOT"/Sources/SceneFormat/*.swift
library FramePlan "$ROOT"/Sources/FramePlan/*.swift
library TransitionEngine "$ROOT"/Sources/TransitionEngine/*.swift
library Compositor "$ROOT"/Sources/Compositor/*.swift
library OutputFiles "$ROOT"/Sources/OutputFiles/*.swift
library Encoders "$ROOT"/Sources/Encoders/*.swift
library ShiftRender "$ROOT"/Sources/ShiftRender/*.swift
read -r -a FFMPEG <<<"$(pkg-config --libs libavformat libavcodec libavfilter libavutil libswscale)"
read -r -a TEXT <<<"$(pkg-config --libs freetype2 harfbuzz fontconfig fribidi libunibreak)"
LIBS=(-lShiftRender -lEncoders -lOutputFiles -lCompositor -lTransitionEngine -lFramePlan -lSceneFormat -lTextLayout -lSceneModel
      -lTiming -lPNGCodec -lCPNGShim -lJPEGCodec -lCJPEGShim -lCFFmpegShim -lPrimitives -lpng16 -ldeflate -ljpeg
      "${FFMPEG[@]}" "${TEXT[@]}")

for target in "$ROOT"/fuzz/targets/*.swift; do
    name=$(basename "$target" .swift)
    # Internal code of modules not built here, compiled into the targets that use it.
    case $name in
        ExtremeSceneFuzzer) extra=("$ROOT/Tests/ShiftRenderTests/ExtremeScenes.swift") ;;
        FontFuzzer) extra=() ;;
        TextLayoutFuzzer) extra=("$ROOT/Tests/TextLayoutTests/FuzzedLabel.swift") ;;
        *) extra=() ;;  # the scene and image targets go through ShiftRender's public API
    esac
    echo "fuzz/build.sh: linking $name" >&2
    rm -f "$OUT/$name"
    # The linker warns about every ASan helper symbol it cannot export; harmless.
    "$SWIFTC" "${COMMON[@]}" -module-name "$name" "$target" "${extra[@]}" -o "$OUT/$name" \
        -L "$OUT/lib" "${LIBS[@]}" 2>&1 | { grep -v "Cannot export local symbol" || true; } >&2
    [ -x "$OUT/$name" ] || { echo "fuzz/build.sh: linking $name failed" >&2; exit 1; }
done
echo "fuzz/build.sh: built $(ls "$OUT" | grep -c Fuzzer) fuzzers in $OUT" >&2
