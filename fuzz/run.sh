#!/usr/bin/env bash
# Builds the fuzzers (fuzz/build.sh) and runs each for SECONDS (default 60),
# all side by side, with a seed corpus copied from fixtures/ and the
# regression inputs in fuzz/regressions/.
#
#   fuzz/run.sh              # every target, 60 s each
#   fuzz/run.sh 600          # ten minutes each
#   fuzz/run.sh 60 SceneDecoderFuzzer ExtremeSceneFuzzer
#
# The growing corpus is kept in .build-fuzz/work/<target>/corpus between runs;
# crashes, leaks and timeouts are written to .build-fuzz/work/<target>/artifacts/
# and the script exits non-zero. Replay one with
#   SHIFTRENDER_FUZZ_BASE=$PWD/fixtures/scenes .build-fuzz/SceneDecoderFuzzer <file>
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SECONDS_EACH=${1:-60}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(SceneDecoderFuzzer ImageLoaderFuzzer ExtremeSceneFuzzer FontFuzzer TextLayoutFuzzer)
OUT=${FUZZ_OUT:-$ROOT/.build-fuzz}
export FUZZ_OUT=$OUT

[ -n "${FUZZ_NO_BUILD:-}" ] || fuzz/build.sh

seed() {  # target -> seed directory
    local dir=$OUT/work/$1/seeds
    rm -rf "$dir"; mkdir -p "$dir"
    case $1 in
        SceneDecoderFuzzer)
            cp "$ROOT"/fixtures/scenes/*.json "$dir"/
            for f in "$ROOT"/fixtures/invalid/*.json; do cp "$f" "$dir/invalid-$(basename "$f")"; done
            cp "$ROOT"/fuzz/regressions/scene/* "$dir"/ 2>/dev/null || true ;;
        ImageLoaderFuzzer)
            cp "$ROOT"/fixtures/images/*.png "$ROOT"/fixtures/images/jpeg/*.jpg "$dir"/
            for f in "$ROOT"/fixtures/invalid/*.png; do cp "$f" "$dir/invalid-$(basename "$f")"; done
            cp "$ROOT"/fuzz/regressions/image/* "$dir"/ 2>/dev/null || true ;;
        ExtremeSceneFuzzer)
            # Any bytes make a scene; the regressions are inputs that once failed.
            cp "$ROOT"/fuzz/regressions/extreme/* "$dir"/ 2>/dev/null || true ;;
        FontFuzzer)
            # Small real fonts from fonts-noto-core (TrueType outlines, 4-7 KB), whose scripts the target's labels use.
            for f in Ogham Lycian Tagalog Hatran; do
                cp /usr/share/fonts/truetype/noto/NotoSans$f-Regular.ttf "$dir"/ 2>/dev/null || true
            done
            cp "$ROOT"/fuzz/regressions/font/* "$dir"/ 2>/dev/null || true ;;
        TextLayoutFuzzer)
            # Eight bytes of settings, then the string: the text fixtures' strings (UTF-8), a palette storm, and
            # the inputs that once failed.
            python3 - "$ROOT/fixtures/scenes/text" "$dir" <<'SEEDS'
import json, pathlib, sys
strings = set()
def walk(value):
    if isinstance(value, dict):
        if isinstance(value.get("string"), str): strings.add(value["string"])
        for v in value.values(): walk(v)
    elif isinstance(value, list):
        for v in value: walk(v)
for scene in pathlib.Path(sys.argv[1]).glob("*.json"): walk(json.loads(scene.read_text()))
for i, text in enumerate(sorted(strings)):
    settings = bytes([i % 128, 30, 8 * (i % 6), 0, 0, 120, 88, 2])
    pathlib.Path(sys.argv[2], f"fixture-{i}").write_bytes(settings + text.encode())
pathlib.Path(sys.argv[2], "palette-storm").write_bytes(bytes([0x80, 30, 0, 0, 0, 120, 88, 2]) + bytes(range(0x40, 0x100)))
SEEDS
            cp "$ROOT"/fuzz/regressions/text/* "$dir"/ 2>/dev/null || true ;;
    esac
    echo "$dir"
}

# fontconfig leaks a few bytes once at start-up (fuzz/lsan.supp says how we know); LeakSanitizer ignores that.
export LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$ROOT/fuzz/lsan.supp
started=$OUT/work/.run-started
mkdir -p "$OUT/work"; touch "$started"
pids=()
for target in "${TARGETS[@]}"; do
    work=$OUT/work/$target
    mkdir -p "$work/corpus" "$work/artifacts"
    seeds=$(seed "$target")
    dict=()
    maxlen=65536
    [ "$target" = SceneDecoderFuzzer ] && dict=(-dict="$ROOT/fuzz/scene.dict")
    [ "$target" = ImageLoaderFuzzer ] && dict=(-dict="$ROOT/fuzz/png.dict")
    [ "$target" = TextLayoutFuzzer ] && dict=(-dict="$ROOT/fuzz/text.dict")
    # The generator reads a byte per choice; a few hundred make a scene of 10 000 views.
    # -len_control=0: long inputs from the start (short ones are mostly zeros, small scenes).
    # -timeout: 10 s for one input is a hang, except for a scene of 10 000 views,
    # which ASan on a busy machine can take that long to plan and draw (linearly).
    lengths=()
    timeout=10
    [ "$target" = ExtremeSceneFuzzer ] && maxlen=2048 && lengths=(-len_control=0) && timeout=30
    [ "$target" = FontFuzzer ] && maxlen=16384
    # Past the scene's 10 000-byte string limit, so the refusal is reached too.
    [ "$target" = TextLayoutFuzzer ] && maxlen=12000
    echo "fuzz/run.sh: $target for ${SECONDS_EACH}s, log in $work/log.txt" >&2
    # Images in scenes resolve against fixtures/scenes, so "../images/star.png"
    # and "../invalid/corrupt.png" are found. -rss_limit_mb: ASan doubles the
    # memory of the largest allowed image.
    SHIFTRENDER_FUZZ_BASE=$ROOT/fixtures/scenes TMPDIR=$work \
    "$OUT/$target" -max_total_time="$SECONDS_EACH" -timeout="$timeout" -rss_limit_mb=4096 -max_len="$maxlen" \
        -print_final_stats=1 -artifact_prefix="$work/artifacts/" "${dict[@]}" "${lengths[@]}" \
        "$work/corpus" "$seeds" >"$work/log.txt" 2>&1 &
    pids+=($!)
done

status=0
for i in "${!pids[@]}"; do
    target=${TARGETS[$i]}
    if wait "${pids[$i]}"; then result=ok; else result="FOUND A PROBLEM (see $OUT/work/$target/log.txt)"; status=1; fi
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$OUT/work/$target/log.txt" | grep -o '[0-9]*$' || echo "?")
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$OUT/work/$target/log.txt" | grep -o '[0-9]*$' || echo "?")
    cov=$(grep -o 'cov: [0-9]*' "$OUT/work/$target/log.txt" | tail -1 || true)
    echo "$target: $result; $execs inputs run ($rate/s), $cov, corpus $(ls "$OUT/work/$target/corpus" | wc -l) files"
    find "$OUT/work/$target/artifacts" -type f -newer "$started" | sed 's/^/    new artifact: /'
done
exit $status
