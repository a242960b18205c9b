#!/usr/bin/env python3
"""Peak memory of real renders against the library's estimate (docs/memory.md).

Runs the release `shiftrender` once per case under `/usr/bin/time -v` (its
"Maximum resident set size" is the measured peak) and asks
`shiftrender info --memory --json` with the same scene and knobs for the
estimate the library checks against its budget before any work. Prints a
Markdown table (estimate / measured, which the estimate should keep between
1 and about 1.5) and, with --json, writes every figure.

    swift build -c release --scratch-path .build-rel --product shiftrender
    python3 benchmarks/memory.py --bin .build-rel/release [--only mp4] [--json out.json]

Video cases render the bench scene's round trip (114 frames) and stop after
80: past x264's look-ahead at every preset (veryslow: 60 frames plus 8
B-frames), so its buffers are full. Standard library only.
"""
import argparse, json, os, re, shutil, struct, subprocess, sys, tempfile, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BENCH = "fixtures/scenes/bench-transition-%s.json"
VIDEO = ["--direction", "roundtrip", "--frames", "0-79"]


def cases(large_scene):
    out = []
    for preset in ("ultrafast", "medium", "veryslow"):
        for res in ("720p", "1080p", "2160p"):
            out.append(("mp4 %s %s" % (preset, res), "mp4", BENCH % res, ["--preset", preset] + VIDEO, "clip.mp4"))
    out += [
        ("webm 1080p", "webm", BENCH % "1080p", VIDEO, "clip.webm"),
        ("webm 2160p", "webm", BENCH % "2160p", ["--direction", "roundtrip", "--frames", "0-39"], "clip.webm"),
        ("mov 1080p", "mov", BENCH % "1080p", ["--frames", "0-29"], "clip.mov"),
        ("mov 2160p", "mov", BENCH % "2160p", ["--frames", "0-9"], "clip.mov"),
        ("gif 1080p", "gif", BENCH % "1080p", VIDEO, "clip.gif"),
        ("png frames 1080p", "png", BENCH % "1080p", [], "frames/"),
        ("png frames 2160p", "png", BENCH % "2160p", ["--frames", "0-11"], "frames/"),
        ("still 1080p", "still", BENCH % "1080p", ["--frame", "20"], "still.png"),
        ("still 2160p", "still", BENCH % "2160p", ["--frame", "20"], "still.png"),
        ("sheet 1080p", "sheet", BENCH % "1080p", [], None),
        ("sheet 2160p", "sheet", BENCH % "2160p", [], None),
        ("6 large images, still", "still", large_scene, ["--frame", "10"], "still.png"),
        ("6 large images, mp4 medium", "mp4", large_scene, [], "clip.mp4"),
    ]
    return out


def write_png(path, width, height, seed):
    """An RGB gradient, quick to write and to decode (the decoded size is what counts)."""
    row = bytes((x * 255 // width + seed * 40) % 256 for x in range(width * 3))
    raw = b"".join(b"\x00" + row for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))


def large_image_scene(directory, count=6, side=4096):
    """A 1080p scene whose screens show `count` side x side photos (64 MiB each decoded): three cross-fade."""
    for k in range(count):
        write_png(os.path.join(directory, "large-%d.png" % k), side, side, k)

    def photo(k, frame, id_):
        view = {"name": "photo %d" % k, "frame": frame, "image": "large-%d.png" % k, "contentMode": "aspectFill",
                "cornerRadius": 24, "masksToBounds": True}
        if id_:
            view["shift"] = {"id": id_}
        return view

    half = count // 2
    scene = {
        "version": 1, "canvas": {"width": 1280, "height": 720, "scale": 1.5, "background": "#000000"}, "fps": 60,
        "transition": {"direction": "present", "baselineDuration": 0.5, "defaultAnimation": "fade"},
        "from": {"name": "grid", "backgroundColor": "#101218",
                 "subviews": [photo(k, [40 + 410 * k, 200, 380, 380], "p%d" % k) for k in range(half)]},
        "to": {"name": "detail", "backgroundColor": "#FFFFFF",
               "subviews": [photo(half + k, [0, 240 * k, 1280, 240], "p%d" % k) for k in range(half)]},
    }
    path = os.path.join(directory, "large-images.json")
    with open(path, "w") as f:
        json.dump(scene, f)
    return path


def peak_rss_kib(cmd):
    r = subprocess.run(["/usr/bin/time", "-v"] + cmd, cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (" ".join(cmd), r.stderr[-2000:]))
    return int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr).group(1))


def estimate(binary, kind, scene, options):
    """The estimate `info --memory` gives for this output kind (knobs and --frames as the render's)."""
    knobs = []
    skip = False
    for option in options:
        if skip:
            skip = False
            continue
        if option in ("--frame", "--frames"):  # a still's moment, a video's range: the same estimate
            skip = True
            continue
        knobs.append(option)
    r = subprocess.run([binary, "info", scene, "--memory", "--json"] + knobs, cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("info --memory failed:\n" + r.stderr[-2000:])
    doc = json.loads(r.stdout)
    return next(o for o in doc["outputs"] if o["output"] == kind)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build-rel", "release"))
    parser.add_argument("--only", help="run the cases whose label contains this")
    parser.add_argument("--json", help="also write every figure here")
    parser.add_argument("--measured", help="take the measured peaks from this --json output of an earlier run "
                                           "(re-estimate only, e.g. after changing the coefficients)")
    args = parser.parse_args()
    binary = os.path.join(args.bin, "shiftrender")
    work = tempfile.mkdtemp(prefix="shiftrender-memory-")
    rows = []
    earlier = {}
    if args.measured:
        with open(args.measured) as f:
            earlier = {r["case"]: r["measured_bytes"] for r in json.load(f)}
    try:
        large = large_image_scene(work)
        print("| case | command (after `shiftrender`) | estimate MB | measured MB | estimate / measured |")
        print("|---|---|---|---|---|")
        for label, kind, scene, options, output in cases(large):
            if (args.only and args.only not in label) or (earlier and label not in earlier):
                continue
            out = os.path.join(work, output) if output else None
            cmd = [binary, "render", scene] + options + ["-y", "--quiet"]
            cmd += ["-o", out] if out else ["--sheet", os.path.join(work, "sheet.png")]
            rss = earlier[label] if earlier else peak_rss_kib(cmd) * 1024
            if out and os.path.isdir(out):
                shutil.rmtree(out)
            elif out and os.path.exists(out):
                os.remove(out)
            est = estimate(binary, kind, scene, options)
            shown = " ".join(["render", scene.replace(work, "$WORK")] + options
                             + (["-o", output] if output else ["--sheet", "sheet.png"]))
            rows.append({"case": label, "command": shown, "measured_bytes": rss, "estimate_bytes": est["bytes"],
                         "parts": est["parts"]})
            print("| %s | `%s` | %.0f | %.0f | %.2f |" % (label, shown, est["bytes"] / 1e6, rss / 1e6, est["bytes"] / rss),
                  flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
