#!/usr/bin/env bash
# Builds the libFuzzer targets with swiftc directly (no Package.swift change):
# Primitives, PNGCodec and SceneFormat are compiled from Sources/ as static
# libraries with coverage instrumentation and AddressSanitizer, then each
# target in fuzz/targets/ is linked against them and libFuzzer.
#
#   fuzz/build.sh            # builds into .build-fuzz/ at the repository root
#   FUZZ_OUT=dir fuzz/build.sh
#
# Needs: swiftc from a Linux Swift toolchain (it ships libFuzzer and ASan as
# libclang_rt.fuzzer / libclang_rt.asan), libpng-dev.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${FUZZ_OUT:-$ROOT/.build-fuzz}
SWIFTC=${SWIFTC:-swiftc}
SANITIZE=${FUZZ_SANITIZE:-fuzzer,address}
mkdir -p "$OUT/modules" "$OUT/lib"

# -O keeps preconditions and bounds checks (only -Ounchecked drops them) and
# runs an order of magnitude more inputs per second than -Onone.
COMMON=(-swift-version 6 -O -g -parse-as-library -sanitize="$SANITIZE" -I "$OUT/modules" -I "$ROOT/Sources/CLibPNG")

library() {  # name, sources...
    local name=$1; shift
    echo "fuzz/build.sh: compiling $name" >&2
    "$SWIFTC" "${COMMON[@]}" -module-name "$name" -emit-module -emit-module-path "$OUT/modules/$name.swiftmodule" \
        -emit-library -static -o "$OUT/lib/lib$name.a" "$@"
}

library Primitives "$ROOT"/Sources/Primitives/*.swift
library PNGCodec "$ROOT"/Sources/PNGCodec/*.swift
library SceneFormat "$ROOT"/Sources/SceneFormat/*.swift

for target in "$ROOT"/fuzz/targets/*.swift; do
    name=$(basename "$target" .swift)
    echo "fuzz/build.sh: linking $name" >&2
    rm -f "$OUT/$name"
    # The linker warns about every ASan helper symbol it cannot export; harmless.
    "$SWIFTC" "${COMMON[@]}" -module-name "$name" "$target" -o "$OUT/$name" \
        -L "$OUT/lib" -lSceneFormat -lPNGCodec -lPrimitives -lpng16 2>&1 | { grep -v "Cannot export local symbol" || true; } >&2
    [ -x "$OUT/$name" ] || { echo "fuzz/build.sh: linking $name failed" >&2; exit 1; }
done
echo "fuzz/build.sh: built $(ls "$OUT" | grep -c Fuzzer) fuzzers in $OUT" >&2
