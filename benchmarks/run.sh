#!/usr/bin/env bash
# The benchmark harness, in one command (release build, peers, report):
#
#   benchmarks/run.sh            # ~6-7 min on an idle 2-core machine; writes benchmarks/results/latest.json
#                                # and appends a dated section to benchmarks/RESULTS.md
#   benchmarks/run.sh --quick    # smoke run (~2-3 min); writes benchmarks/results/quick.{json,md}
#   benchmarks/run.sh --full     # also runs the peers and ffmpeg baselines at 720p and 2160p
#   benchmarks/run.sh --no-setup # do not create/update the peers' venv (peers used if already there)
#
# Other options go to benchmarks/bench.py (--keep-work, --work DIR, ...).
# Environment: SHIFTRENDER_BENCH_SCRATCH (SwiftPM scratch path, default .build-bench),
# SHIFTRENDER_BENCH_VENV (the peers' virtual environment, default benchmarks/.venv),
# SHIFTRENDER_PORTABLE=1 (build without -target-cpu), SWIFT (the swift binary).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
cd "$ROOT"

setup=1
args=()
for arg in "$@"; do
    case "$arg" in
        --no-setup) setup=0 ;;
        *) args+=("$arg") ;;
    esac
done

SWIFT="${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}"
[ -x "$SWIFT" ] || { echo "run.sh: swift not found (set SWIFT=/path/to/swift)" >&2; exit 1; }
SCRATCH="${SHIFTRENDER_BENCH_SCRATCH:-$ROOT/.build-bench}"

for scene in 720p 1080p 2160p; do
    if [ ! -f "fixtures/scenes/bench-transition-$scene.json" ]; then
        python3 fixtures/images/generate_bench.py
        break
    fi
done
for scene in cube blur; do
    if [ ! -f "fixtures/scenes/bench-depth-$scene-1080p.json" ]; then
        python3 fixtures/scenes/make_bench_depth.py
        break
    fi
done

echo "run.sh: building release (scratch path $SCRATCH)" >&2
"$SWIFT" build -c release --scratch-path "$SCRATCH" --product shiftrender >&2
"$SWIFT" build -c release --scratch-path "$SCRATCH" --product shiftrender-bench >&2
BIN="$("$SWIFT" build -c release --scratch-path "$SCRATCH" --show-bin-path)"

if [ "$setup" = 1 ]; then
    "$HERE/setup-peers.sh" || echo "run.sh: peer setup failed; the harness runs without the missing peers" >&2
fi
VENV_PY="${SHIFTRENDER_BENCH_VENV:-$HERE/.venv}/bin/python"

command="benchmarks/run.sh${args[*]:+ ${args[*]}}"
exec python3 "$HERE/bench.py" --bin "$BIN" --python "$VENV_PY" --swift "$SWIFT" --command "$command" ${args[@]+"${args[@]}"}
