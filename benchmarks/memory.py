#!/usr/bin/env python3
"""Peak memory of real renders against the library's estimate (docs/memory.md).

Runs the release `shiftrender` a few times per case under `/usr/bin/time -v`
(its "Maximum resident set size" is the measured peak; the median is kept,
since thread timing moves a peak by a few per cent) and asks
`shiftrender info --memory --json` with the same scene and knobs for the
estimate the library checks against its budget before any work. Prints a
Markdown table (estimate / measured, which the estimate should keep between
1 and about 1.5) and, with --json, writes every figure.

    swift build -c release --scratch-path .build-rel --product shiftrender
    python3 benchmarks/memory.py --bin .build-rel/release [--only mp4] [--repeats 3] [--json out.json]

Video cases render the bench scene's round trip (114 frames) and stop after
80: past x264's look-ahead at every preset (veryslow: 60 frames plus 8
B-frames), so its buffers are full. Standard library only.
"""
import argparse, json, os, re, shutil, statistics, struct, subprocess, tempfile, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BENCH = "fixtures/scenes/bench-transition-%s.json"
VIDEO = ["--direction", "roundtrip", "--frames", "0-79"]


def cases(extra):
    """(label, output kind for `info --memory`, scene, options, output) for every case."""
    out = [("program: 64x64 still", "still", extra["tiny"], ["--frame", "1"], "still.png")]
    for preset in ("ultrafast", "medium", "veryslow"):
        for res in ("720p", "1080p", "2160p"):
            out.append(("mp4 %s %s" % (preset, res), "mp4", BENCH % res, ["--preset", preset] + VIDEO, "clip.mp4"))
    out += [
        ("mp4 placebo 1080p", "mp4", BENCH % "1080p", ["--preset", "placebo"] + VIDEO, "clip.mp4"),
        ("mp4 medium 1080p, 1 thread", "mp4", BENCH % "1080p", ["--encoder-threads", "1"] + VIDEO, "clip.mp4"),
        ("webm 720p", "webm", BENCH % "720p", VIDEO, "clip.webm"),
        ("webm 1080p", "webm", BENCH % "1080p", VIDEO, "clip.webm"),
        ("webm 2160p", "webm", BENCH % "2160p", ["--direction", "roundtrip", "--frames", "0-39"], "clip.webm"),
        ("webm 1080p, alpha", "webm", extra["transparent"], VIDEO, "clip.webm"),
        ("mov 720p", "mov", BENCH % "720p", VIDEO, "clip.mov"),
        ("mov 1080p", "mov", BENCH % "1080p", VIDEO, "clip.mov"),
        ("mov 2160p", "mov", BENCH % "2160p", ["--direction", "roundtrip", "--frames", "0-29"], "clip.mov"),
        ("mov 1080p, 1 thread", "mov", BENCH % "1080p", ["--encoder-threads", "1"] + VIDEO, "clip.mov"),
        ("gif 720p", "gif", BENCH % "720p", VIDEO, "clip.gif"),
        ("gif 1080p", "gif", BENCH % "1080p", VIDEO, "clip.gif"),
        ("gif 2160p", "gif", BENCH % "2160p", ["--direction", "roundtrip", "--frames", "0-39"], "clip.gif"),
        ("gif 1080p, 1920 wide", "gif", BENCH % "1080p", ["--gif-width", "1920"] + VIDEO, "clip.gif"),
        ("png frames 1080p", "png", BENCH % "1080p", [], "frames/"),
        ("png frames 2160p", "png", BENCH % "2160p", ["--frames", "0-11"], "frames/"),
        ("still 1080p", "still", BENCH % "1080p", ["--frame", "20"], "still.png"),
        ("still 2160p", "still", BENCH % "2160p", ["--frame", "20"], "still.png"),
        ("sheet 1080p", "sheet", BENCH % "1080p", [], None),
        ("sheet 2160p", "sheet", BENCH % "2160p", [], None),
        ("6 large images, still", "still", extra["large"], ["--frame", "10"], "still.png"),
        ("6 large images, mp4 medium", "mp4", extra["large"], [], "clip.mp4"),
        ("a large image squeezed, png frames", "png", extra["squeeze"], [], "frames/"),
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


def tiny_scene(directory):
    """64 x 64, no views: what the program itself takes."""
    scene = {"version": 1, "canvas": {"width": 64, "height": 64, "scale": 1, "background": "#000000"}, "fps": 30,
             "transition": {"direction": "present", "baselineDuration": 0.2, "defaultAnimation": "fade"},
             "from": {"backgroundColor": "#FFFFFF", "subviews": []}, "to": {"backgroundColor": "#FF0000", "subviews": []}}
    path = os.path.join(directory, "tiny.json")
    with open(path, "w") as f:
        json.dump(scene, f)
    return path


def transparent_scene(directory):
    """The 1080p bench scene on a transparent canvas (so WebM carries alpha), image paths made absolute."""
    source = os.path.join(ROOT, BENCH % "1080p")
    with open(source) as f:
        scene = json.load(f)

    def absolute(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "image" and isinstance(value, str) and not value.startswith("/"):
                    node[key] = os.path.normpath(os.path.join(os.path.dirname(source), value))
                else:
                    absolute(value)
        elif isinstance(node, list):
            for value in node:
                absolute(value)

    absolute(scene)
    scene["canvas"]["background"] = "#00000000"
    path = os.path.join(directory, "transparent-1080p.json")
    with open(path, "w") as f:
        json.dump(scene, f)
    return path


def squeezed_image_scene(directory):
    """A 4096 x 4096 photo stretched from 2048 x 32 to 32 x 2048: its levels shrink one axis, then the other."""
    write_png(os.path.join(directory, "squeeze.png"), 4096, 4096, 1)

    def view(frame):
        return {"frame": frame, "image": "squeeze.png", "contentMode": "scaleToFill", "shift": {"id": "photo"}}

    scene = {"version": 1, "canvas": {"width": 2048, "height": 2048, "scale": 1, "background": "#000000"}, "fps": 60,
             "transition": {"direction": "present", "baselineDuration": 1.0, "defaultAnimation": "fade"},
             "from": {"backgroundColor": "#101218", "subviews": [view([0, 0, 2048, 32])]},
             "to": {"backgroundColor": "#FFFFFF", "subviews": [view([0, 0, 32, 2048])]}}
    path = os.path.join(directory, "squeeze.json")
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
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs per case (default 3); the table shows their median and largest peak")
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
            earlier = {r["case"]: r["measured_runs"] for r in json.load(f)}
    try:
        extra = {"tiny": tiny_scene(work), "transparent": transparent_scene(work),
                 "large": large_image_scene(work), "squeeze": squeezed_image_scene(work)}
        print("| case | command (after `shiftrender`) | estimate MB | measured MB, median (max) | estimate / median |")
        print("|---|---|---|---|---|")
        for label, kind, scene, options, output in cases(extra):
            if (args.only and args.only not in label) or (earlier and label not in earlier):
                continue
            out = os.path.join(work, output) if output else None
            cmd = [binary, "render", scene] + options + ["-y", "--quiet"]
            cmd += ["-o", out] if out else ["--sheet", os.path.join(work, "sheet.png")]
            runs = earlier.get(label) or []
            for _ in range(0 if earlier else max(1, args.repeats)):
                runs.append(peak_rss_kib(cmd) * 1024)
                if out and os.path.isdir(out):
                    shutil.rmtree(out)
                elif out and os.path.exists(out):
                    os.remove(out)
            rss = statistics.median(runs)
            est = estimate(binary, kind, scene, options)
            shown = " ".join(["render", scene.replace(work, "$WORK")] + options
                             + (["-o", output] if output else ["--sheet", "sheet.png"]))
            rows.append({"case": label, "command": shown, "measured_runs": runs, "measured_bytes": rss,
                         "estimate_bytes": est["bytes"], "parts": est["parts"]})
            print("| %s | `%s` | %.0f | %.0f (%.0f) | %.2f |" % (label, shown, est["bytes"] / 1e6, rss / 1e6,
                                                               max(runs) / 1e6, est["bytes"] / rss), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
