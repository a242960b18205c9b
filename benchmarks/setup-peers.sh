#!/usr/bin/env bash
# Installs the benchmark peers into a local virtual environment,
# benchmarks/.venv (ignored by git): skia-python and pycairo from PyPI, and
# numpy (the cairo peer's shadow blur and the fidelity check use it).
# Idempotent: does nothing when the pinned versions are already there.
#
#   benchmarks/setup-peers.sh            # create or update benchmarks/.venv
#   PYTHON=python3.12 benchmarks/setup-peers.sh
#
# pycairo builds from source against the system cairo: it needs the cairo
# headers and pkg-config (Debian: libcairo2-dev pkg-config), which this script
# installs with apt-get when it runs as root and they are missing. Without
# them it still installs skia-python, and the harness skips cairo and says so.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="${SHIFTRENDER_BENCH_VENV:-$HERE/.venv}"
PYTHON="${PYTHON:-python3}"
SKIA_VERSION="144.1"
PYCAIRO_VERSION="1.29.2"

say() { echo "setup-peers: $*" >&2; }

if ! "$PYTHON" -c 'import venv, ensurepip' 2>/dev/null; then
    say "$PYTHON has no venv/ensurepip module (Debian: apt-get install python3-venv)"
    exit 1
fi
if [ ! -x "$VENV/bin/python" ]; then
    say "creating $VENV"
    "$PYTHON" -m venv "$VENV"
fi
PY="$VENV/bin/python"

installed() { "$PY" -c "import importlib.metadata as m, sys; sys.exit(m.version('$1') != '$2')" 2>/dev/null; }

if ! "$PY" -c 'import numpy' 2>/dev/null; then
    say "installing numpy"
    "$PY" -m pip install --quiet --disable-pip-version-check numpy
fi

if installed skia-python "$SKIA_VERSION"; then
    say "skia-python $SKIA_VERSION: present"
else
    say "installing skia-python $SKIA_VERSION"
    "$PY" -m pip install --quiet --disable-pip-version-check "skia-python==$SKIA_VERSION" \
        || say "skia-python could not be installed: the harness will skip Skia"
fi

if installed pycairo "$PYCAIRO_VERSION"; then
    say "pycairo $PYCAIRO_VERSION: present"
else
    if ! pkg-config --exists cairo 2>/dev/null; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
            say "installing libcairo2-dev and pkg-config (apt) to build pycairo"
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcairo2-dev pkg-config >/dev/null \
                || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcairo2-dev pkg-config >/dev/null; } \
                || say "apt-get could not install libcairo2-dev"
        else
            say "cairo headers missing (Debian: apt-get install libcairo2-dev pkg-config)"
        fi
    fi
    say "installing pycairo $PYCAIRO_VERSION"
    "$PY" -m pip install --quiet --disable-pip-version-check "pycairo==$PYCAIRO_VERSION" \
        || say "pycairo could not be installed: the harness will skip cairo"
fi

"$PY" - <<'EOF' >&2
for name, module in (("skia-python", "skia"), ("pycairo", "cairo"), ("numpy", "numpy")):
    try:
        m = __import__(module)
        print("setup-peers: %s %s: ok" % (name, getattr(m, "__version__", getattr(m, "version", "?"))))
    except Exception as error:
        print("setup-peers: %s: not available (%s)" % (name, error))
EOF
