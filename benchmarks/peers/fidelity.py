#!/usr/bin/env python3
"""Compares two runs of raw RGBA8 frames (same size, same frames, back to
back) and prints one JSON object: PSNR over RGB per frame (mean, worst, and
pooled over all frames), the largest channel difference, the share of pixels
that differ by more than a threshold, and how many of those lie on shape
edges (an edge mask written by skia_render.py --edges: pixels within 1.5 px
of an item's or clip's outline).

    fidelity.py WIDTH HEIGHT OURS.rgba THEIRS.rgba [--edges MASK] [--threshold 8]

Or, for any scene, the whole chain: `shiftrender plan` exports the frame
plan, `shiftrender-bench dump` renders our frames, skia_render.py draws the
plan (--dump, --edges), and the comparison is printed (with --cairo, also
cairo against Skia):

    python3 benchmarks/peers/fidelity.py --scene fixtures/features/depth-flip.json [--stride 2] [--cairo]

The binaries come from --bin DIR, else $SHIFTRENDER_BIN, else the first of
.build-bench/release and .build/release that has both (build them with
`swift build -c release --product shiftrender` and `--product shiftrender-bench`);
the peers run in benchmarks/.venv (benchmarks/setup-peers.sh). Run with a
python3 that lacks numpy, the script re-runs itself with the venv's.
"""
import argparse, json, math, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VENV_PYTHON = os.path.join(os.path.dirname(HERE), ".venv", "bin", "python")
try:
    import numpy as np
except ImportError:
    if os.path.exists(VENV_PYTHON) and os.path.realpath(sys.prefix) != os.path.realpath(os.path.dirname(
            os.path.dirname(VENV_PYTHON))):
        os.execv(VENV_PYTHON, [VENV_PYTHON] + sys.argv)
    raise SystemExit("numpy is needed (benchmarks/setup-peers.sh)")


def compare(width, height, a_path, b_path, edges_path=None, threshold=8):
    frame_bytes = width * height * 4
    count = min(os.path.getsize(a_path), os.path.getsize(b_path)) // frame_bytes
    a = np.memmap(a_path, dtype=np.uint8, mode="r", shape=(count, height, width, 4))
    b = np.memmap(b_path, dtype=np.uint8, mode="r", shape=(count, height, width, 4))
    edges = None
    if edges_path and os.path.exists(edges_path):
        edges = np.memmap(edges_path, dtype=np.uint8, mode="r")
        edges = edges[:count * width * height].reshape(-1, height, width) if edges.size >= count * width * height else None
    psnrs, total_se, max_diff, differing, on_edges = [], 0.0, 0, 0, 0
    for i in range(count):
        d = np.abs(a[i, :, :, :3].astype(np.int16) - b[i, :, :, :3].astype(np.int16))
        se = float(np.square(d, dtype=np.int32).sum(dtype=np.int64))
        total_se += se
        mse = se / (width * height * 3)
        psnrs.append(math.inf if mse == 0 else 10 * math.log10(255 ** 2 / mse))
        worst = d.max(axis=2)
        max_diff = max(max_diff, int(worst.max()))
        big = worst > threshold
        differing += int(big.sum())
        if edges is not None:
            on_edges += int((big & (edges[i] > 0)).sum())
    pooled_mse = total_se / (count * width * height * 3) if count else 0
    finite = [p for p in psnrs if math.isfinite(p)]
    worst_frame = int(np.argmin(psnrs)) if psnrs else None
    result = {
        "frames": count,
        "psnr_mean_db": round(sum(finite) / len(finite), 2) if finite else None,
        "psnr_min_db": round(min(psnrs), 2) if psnrs and math.isfinite(min(psnrs)) else None,
        "psnr_min_frame": worst_frame,
        "psnr_pooled_db": round(10 * math.log10(255 ** 2 / pooled_mse), 2) if pooled_mse > 0 else None,
        "max_channel_difference": max_diff,
        "threshold": threshold,
        "differing_pixels_pct": round(100.0 * differing / max(1, count * width * height), 3),
    }
    if edges is not None:
        result["differing_on_edges_pct"] = round(100.0 * on_edges / differing, 1) if differing else 100.0
    return result


def find_binaries(given):
    candidates = [given] if given else ([os.environ["SHIFTRENDER_BIN"]] if os.environ.get("SHIFTRENDER_BIN") else
                                        [os.path.join(ROOT, ".build-bench", "release"),
                                         os.path.join(ROOT, ".build", "release")])
    for directory in candidates:
        cli, bench = os.path.join(directory, "shiftrender"), os.path.join(directory, "shiftrender-bench")
        if os.access(cli, os.X_OK) and os.access(bench, os.X_OK):
            return cli, bench
    raise SystemExit("fidelity.py: shiftrender and shiftrender-bench not found in %s (build them: swift build -c "
                     "release --product shiftrender; swift build -c release --product shiftrender-bench; or pass "
                     "--bin DIR)" % " or ".join(candidates))


def run(command):
    print("fidelity.py: " + " ".join(command), file=sys.stderr)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def scene_fidelity(args):
    """Plan, our frames, Skia's (and cairo's) frames of one scene, compared."""
    cli, bench = find_binaries(args.bin)
    python = VENV_PYTHON if os.path.exists(VENV_PYTHON) else sys.executable
    work = args.work or tempfile.mkdtemp(prefix="shiftrender-fidelity-")
    os.makedirs(work, exist_ok=True)
    plan = os.path.join(work, "plan")
    run([cli, "plan", args.scene, "-o", plan, "--overwrite"])
    canvas = json.load(open(os.path.join(plan, "plan.json")))["canvas"]
    width, height = canvas["width"], canvas["height"]
    ours, skia, edges = (os.path.join(work, name) for name in ("ours.rgba", "skia.rgba", "edges.mask"))
    run([bench, "dump", "--scene", args.scene, "--out", ours, "--threads", args.threads, "--stride", str(args.stride)])
    peer = ["--warmup", "0", "--repeats", "1", "--stride", str(args.stride)]
    run([python, os.path.join(HERE, "skia_render.py"), plan] + peer + ["--dump", skia, "--edges", edges])
    result = {"scene": args.scene, "width": width, "height": height, "stride": args.stride, "work": work,
              "ours_vs_skia": compare(width, height, ours, skia, edges, args.threshold)}
    if args.cairo:
        cairo_frames = os.path.join(work, "cairo.rgba")
        run([python, os.path.join(HERE, "cairo_render.py"), plan] + peer + ["--dump", cairo_frames])
        result["cairo_vs_skia"] = compare(width, height, cairo_frames, skia, edges, args.threshold)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("width", type=int, nargs="?")
    parser.add_argument("height", type=int, nargs="?")
    parser.add_argument("ours", nargs="?")
    parser.add_argument("theirs", nargs="?")
    parser.add_argument("--edges")
    parser.add_argument("--threshold", type=int, default=8)
    parser.add_argument("--scene", help="a scene JSON: plan it, render it with shiftrender and Skia, compare")
    parser.add_argument("--bin", help="(--scene) the directory with shiftrender and shiftrender-bench")
    parser.add_argument("--stride", type=int, default=1, help="(--scene) every k-th frame")
    parser.add_argument("--threads", default="all", help="(--scene) our compositor's threads (output is the same)")
    parser.add_argument("--cairo", action="store_true", help="(--scene) also cairo against Skia")
    parser.add_argument("--work", help="(--scene) where the plan and frames go (default: a new temporary "
                                       "directory, kept, named in the output)")
    args = parser.parse_args()
    if args.scene:
        print(json.dumps(scene_fidelity(args)))
        return 0
    if args.theirs is None:
        parser.error("give WIDTH HEIGHT OURS THEIRS, or --scene SCENE")
    print(json.dumps(compare(args.width, args.height, args.ours, args.theirs, args.edges, args.threshold)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
