#!/usr/bin/env python3
"""The benchmark driver: run through benchmarks/run.sh, which builds the
release binaries and the peers' virtual environment first. Standard library
only; the peers and the fidelity check run in benchmarks/.venv.

For each resolution of the benchmark scene (fixtures/scenes/bench-transition-*.json)
it runs shiftrender-bench once per configuration (a fresh process, so its peak
memory is that configuration's): the engine alone, the compositor alone, PNG
export and MP4 export, with 1 thread and with all cores; at 1080p also the
compositor on the plan without shadow and border items (the reduced plan,
1 thread) and WebM (VP9) and MOV (ProRes 4444) export with all cores. Then,
on the same frame plan (exported with `shiftrender plan`), Skia and cairo
draw the same frames, whole and reduced; ffmpeg encodes our raw frames with
libx264, its PNG encoder, libvpx-vp9 and prores_ks with our encoders'
settings (the limits for export); our frames are compared with Skia's (PSNR,
whole plan and reduced plan). The text-heavy scene and two 3-D/blur scenes
(a cube turn in perspective, a backdrop blur) are composited at 1080p too.
It writes benchmarks/results/latest.json (and .svg) and appends a dated
section to benchmarks/RESULTS.md.

    benchmarks/run.sh            # default: ~6-7 min on an idle 2-core machine
    benchmarks/run.sh --quick    # smoke run: 720p and 1080p, one repeat, every 2nd frame
    benchmarks/run.sh --full     # peers and ffmpeg baselines at every resolution too
"""
import argparse, datetime, json, os, platform, shlex, shutil, subprocess, sys, tempfile, time
from xml.sax.saxutils import escape

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCENES = {
    "720p": "fixtures/scenes/bench-transition-720p.json",
    "1080p": "fixtures/scenes/bench-transition-1080p.json",
    "2160p": "fixtures/scenes/bench-transition-2160p.json",
}
# The text-heavy scene (fixtures/scenes/make_bench_settings.py writes it) and its label count.
TEXT_SCENE = "fixtures/scenes/bench-settings.json"
TEXT_LABELS = 44
# The 3-D and blur scenes at 1080p (fixtures/scenes/make_bench_depth.py writes them).
DEPTH_SCENES = [
    ("cube", "perspective: both screens turn on a cube", "fixtures/scenes/bench-depth-cube-1080p.json"),
    ("blur", "backdrop blur: a story over the gallery, blur 0 -> 20 pt", "fixtures/scenes/bench-depth-blur-1080p.json"),
]
CRF, PRESET = 18, "medium"  # shiftrender render's defaults; the x264 baseline uses the same
VP9_CRF = 30  # VideoSettings.Defaults.vp9CRF; preset medium is libvpx's deadline good, cpu-used 4 (VideoWriter.VP9Speed)
# The reduced plan: without shadow and border items (inside groups too), the part every transition has.
# Ours (`shiftrender-bench measure --skip`) and the peers (`--skip`) draw the same display lists.
REDUCED = "shadow,border"
WHOLE, REDUCED_VARIANT = "full", "no shadows/borders"  # the `variant` of a result (JSON)
# Export targets: ours / the limit (fps, all cores); WebM and ProRes "within 1.2x" of ffmpeg.
EXPORT_GOALS = {"mp4": 0.95, "png": 1.5, "webm": 1 / 1.2, "mov": 1 / 1.2}


def log(message):
    print("bench: " + message, file=sys.stderr, flush=True)


# ---- settings per mode --------------------------------------------------------

def settings(mode):
    """How much to run. A 'run' draws or exports the clip's frames (every
    stride-th); warm-up runs cover all of them, or only the first
    warmup_frames."""
    if mode == "quick":
        swift = {res: {"stride": 2, "warmup": 1, "warmup_frames": 3, "repeats": 1} for res in ("720p", "1080p")}
        return {
            "resolutions": ["720p", "1080p"],
            "engine": {"warmup": 1, "repeats": 3},
            "composite": swift, "export": swift,
            "reduced": {"resolution": "1080p"},
            "video": {"resolution": "1080p", "stride": 2, "warmup": 1, "warmup_frames": 3, "repeats": 1},
            "depth": {"stride": 2, "warmup": 1, "warmup_frames": 3, "repeats": 1},
            "peers": {"resolutions": ["1080p"], "stride": 2, "warmup": 0, "repeats": 1},
            "baselines": {"resolutions": ["1080p"], "repeats": 1, "video_repeats": 1},
            "paired": {"resolution": "1080p", "rounds": 1, "peer_rounds": 1},
            "fidelity": {"resolution": "1080p"},
            "memory": {"resolution": "720p", "clip_scales": [1, 2, 4]},
        }
    composite = {
        "720p": {"stride": 1, "warmup": 1, "warmup_frames": 0, "repeats": 5},
        "1080p": {"stride": 1, "warmup": 1, "warmup_frames": 0, "repeats": 5},
        "2160p": {"stride": 3, "warmup": 1, "warmup_frames": 6, "repeats": 3},
    }
    export = {
        "720p": {"stride": 1, "warmup": 1, "warmup_frames": 6, "repeats": 3},
        "1080p": {"stride": 1, "warmup": 1, "warmup_frames": 6, "repeats": 3},
        "2160p": {"stride": 3, "warmup": 1, "warmup_frames": 3, "repeats": 2},
    }
    wide = mode == "full"
    return {
        "resolutions": ["720p", "1080p", "2160p"],
        "engine": {"warmup": 1, "repeats": 5},
        "composite": composite, "export": export,
        # The reduced plan: 1080p, 1 thread, as the composite row it is compared with.
        "reduced": {"resolution": "1080p"},
        # WebM and ProRes export at 1080p, all cores: ~10 s a run, so 2 timed runs (warm-up: 6 frames).
        "video": {"resolution": "1080p", "stride": 1, "warmup": 1, "warmup_frames": 6, "repeats": 2},
        # The 3-D and blur scenes: every frame, 3 timed runs.
        "depth": {"stride": 1, "warmup": 1, "warmup_frames": 0, "repeats": 3},
        "peers": {"resolutions": ["720p", "1080p", "2160p"] if wide else ["1080p"], "stride": 1,
                  "warmup": 1, "repeats": 3, "stride_2160p": 3, "repeats_2160p": 2},
        # ffmpeg's VP9 and ProRes take ~9 s a run at 1080p: 2 timed runs (the x264 runs warmed the page cache).
        "baselines": {"resolutions": ["720p", "1080p", "2160p"] if wide else ["1080p"], "repeats": 3,
                      "video_repeats": 2},
        # Each export target and each compositor-vs-peer target again as alternating rounds (one run of
        # each side, the order swapped every round), so that both sides of a ratio meet the same moment of
        # a shared machine. Five rounds for the compositor targets (a round takes a few seconds; three left a
        # median that moved by 1.5x between runs of one build); our side of a peer round times the clip
        # `ours_repeats` times (median), about as long as the peer's one run of it (0.3 s a clip against 2-4 s).
        "paired": {"resolution": "1080p", "rounds": 4, "peer_rounds": 5, "ours_repeats": 5},
        "fidelity": {"resolution": "1080p"},
        "memory": {"resolution": "1080p", "clip_scales": [1, 2, 4]},
    }


# ---- running things -----------------------------------------------------------

LOAD_SAMPLES = []  # the 1-minute load average after each measured process: how busy the machine was during the run


def run_process(cmd, cwd=ROOT, check=True):
    """Runs cmd; returns (stdout text, wall seconds, CPU seconds, peak RSS KiB)
    of that process alone (os.wait4)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        process = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - t0
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    LOAD_SAMPLES.extend((loadavg() or [])[:1])
    if check and process.returncode != 0:
        raise RuntimeError("%s failed (exit %d):\n%s" % (" ".join(map(shlex.quote, cmd)), process.returncode,
                                                        stderr.strip()[-2000:]))
    return stdout, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, process.returncode, stderr


def last_json(text):
    for line in reversed(text.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            return json.loads(line)
    raise ValueError("no JSON line in output:\n" + text[-2000:])


def median(values):
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def alternating(rounds, ours, theirs):
    """Runs ours(r) and theirs(r) once per round r, ours first in even rounds and second in odd ones, so
    that drift over the rounds falls on both sides alike; returns [(ours value, theirs value, ours first)]."""
    out = []
    for r in range(rounds):
        if r % 2 == 0:
            a = ours(r)
            b = theirs(r)
        else:
            b = theirs(r)
            a = ours(r)
        out.append((a, b, r % 2 == 0))
    return out


def summarize(frames, walls, cpus):
    """fps figures from per-run wall and CPU seconds over `frames` frames."""
    fps = sorted(frames / w for w in walls)
    cpu_fps = sorted(frames / c for c in cpus if c > 0)
    return {"fps_median": median(fps), "fps_min": fps[0], "fps_max": fps[-1],
            "cpu_fps_median": median(cpu_fps) if cpu_fps else None}


def with_cpu_fps(result):
    """Adds frames per CPU-second and the cores in use (CPU seconds per wall second) of the timed runs."""
    cpus = [c for c in result.get("run_cpu_seconds", []) if c > 0]
    result["cpu_fps_median"] = median([result["frames_per_run"] / c for c in cpus]) if cpus else None
    pairs = [(c, w) for c, w in zip(result.get("run_cpu_seconds", []), result.get("run_seconds", [])) if w > 0]
    result["cores_busy_median"] = median([c / w for c, w in pairs]) if pairs else None
    return result


def cores_available(cores, seconds=1.0):
    """How many cores the machine gives us now: `cores` busy loops run side by
    side for `seconds` of wall time; their CPU time added up, per second."""
    code = ("import time\nt = time.perf_counter()\nwhile time.perf_counter() - t < %r: pass\n"
            "print(time.process_time())" % seconds)
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True) for _ in range(cores)]
    total = 0.0
    for p in procs:
        out, _ = p.communicate()
        try:
            total += float(out.strip())
        except ValueError:
            pass
    return round(total / seconds, 2)


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return [float(x) for x in f.read().split()[:3]]
    except OSError:
        return None


# ---- machine ------------------------------------------------------------------

def machine_info(args):
    info = {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
            "kernel": platform.release(), "os": None, "memory_gib": None}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal"):
                    info["memory_gib"] = round(int(line.split()[1]) / 1024 / 1024, 1)
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    info["os"] = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    info["compositor_target_cpu"] = compositor_target_cpu(args)
    for key, cmd in (("swift", [args.swift, "--version"]), ("ffmpeg", ["ffmpeg", "-version"])):
        try:
            text = subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout + ""
            line = next((l.strip() for l in text.splitlines() if "version" in l), text.strip()[:80])
            info[key] = line.split(" Copyright")[0]
        except Exception:
            info[key] = None
    return info


def compositor_target_cpu(args):
    """The `-target-cpu` Package.swift gives the compositor on this machine (None: the baseline)."""
    try:
        text = subprocess.run([args.swift, "package", "dump-package"], cwd=ROOT, capture_output=True, text=True,
                              timeout=120).stdout
        target = next(t for t in json.loads(text)["targets"] if t["name"] == "Compositor")
        for setting in target.get("settings", []):
            flags = setting.get("kind", {}).get("unsafeFlags", {}).get("_0", [])
            if "-target-cpu" in flags:
                return flags[flags.index("-target-cpu") + 1]
    except Exception:
        return "unknown"
    return None


def git_commit():
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True).stdout.strip()
        return commit + ("-dirty" if dirty else "")
    except Exception:
        return None


# ---- the measurements -------------------------------------------------------------

class Bench:
    def __init__(self, args):
        self.args = args
        self.mode = "quick" if args.quick else "full" if args.full else "default"
        self.s = settings(self.mode)
        self.bench = os.path.join(args.bin, "shiftrender-bench")
        self.cli = os.path.join(args.bin, "shiftrender")
        self.cores = os.cpu_count() or 1
        self.threads = [1] if self.cores == 1 else [1, self.cores]
        self.work = args.work or tempfile.mkdtemp(prefix="shiftrender-bench-")
        os.makedirs(self.work, exist_ok=True)
        self.results = {"ours": [], "peers": [], "baselines": [], "fidelity": {}, "memory": {}, "skipped": []}
        self.python = args.python

    def harness(self, label, *options):
        cmd = [self.bench, "measure", "--work", os.path.join(self.work, "exports")] + [str(o) for o in options]
        stdout, *_ = run_process(cmd)
        result = with_cpu_fps(last_json(stdout))
        log("%-34s %9.2f fps  (min %.2f, max %.2f; %.2f per CPU-second; peak %d MiB)" % (
            label, result["fps_median"], result["fps_min"], result["fps_max"], result["cpu_fps_median"] or 0,
            (result["peak_rss_kib"] or 0) // 1024))
        return result

    def ours(self):
        s = self.s
        for res in s["resolutions"]:
            scene = SCENES[res]
            for threads in self.threads:
                e = s["engine"]
                r = self.harness("engine %s %dT" % (res, threads), "--scene", scene, "--stage", "engine",
                                 "--threads", threads, "--warmup", e["warmup"], "--repeats", e["repeats"])
                self.results["ours"].append(dict(r, resolution=res))
            for stage in ("composite", "png", "mp4"):
                c = s["composite"][res] if stage == "composite" else s["export"][res]
                for threads in self.threads:
                    r = self.harness("%s %s %dT" % (stage, res, threads), "--scene", scene, "--stage", stage,
                                     "--threads", threads, "--warmup", c["warmup"],
                                     "--warmup-frames", c["warmup_frames"], "--repeats", c["repeats"],
                                     "--stride", c["stride"], "--crf", CRF, "--preset", PRESET)
                    self.results["ours"].append(dict(r, resolution=res))
            if res == s["reduced"]["resolution"]:
                # The plan without shadow and border items, as the peers draw it: like for like.
                c = s["composite"][res]
                r = self.harness("composite %s 1T (no shadows/borders)" % res, "--scene", scene, "--stage",
                                 "composite", "--threads", 1, "--warmup", c["warmup"],
                                 "--warmup-frames", c["warmup_frames"], "--repeats", c["repeats"],
                                 "--stride", c["stride"], "--skip", REDUCED)
                self.results["ours"].append(dict(r, resolution=res, variant=REDUCED_VARIANT))
            if res == s["video"]["resolution"]:
                v = s["video"]
                for stage in ("webm", "mov"):
                    r = self.harness("%s %s %dT" % (stage, res, self.cores), "--scene", scene, "--stage", stage,
                                     "--threads", self.cores, "--warmup", v["warmup"],
                                     "--warmup-frames", v["warmup_frames"], "--repeats", v["repeats"],
                                     "--stride", v["stride"], "--preset", PRESET)
                    self.results["ours"].append(dict(r, resolution=res))

    def depth(self):
        """The 3-D and blur scenes at 1080p: the compositor alone, 1 thread and all cores."""
        d = self.s["depth"]
        self.results["depth"] = []
        for key, what, scene in DEPTH_SCENES:
            for threads in self.threads:
                r = self.harness("%s 1080p %dT" % (key, threads), "--scene", scene, "--stage", "composite",
                                 "--threads", threads, "--warmup", d["warmup"], "--warmup-frames", d["warmup_frames"],
                                 "--repeats", d["repeats"], "--stride", d["stride"])
                self.results["depth"].append(dict(r, key=key, what=what))

    def text(self):
        """The text-heavy scene (a settings screen, 44 labels in two families): how long its labels take to
        draw (the renderer's set-up: fonts found, text shaped and rasterized once, the plan made), its
        snapshots (the first frame) and its frames, on one thread."""
        c = self.s["composite"]["1080p"]
        r = self.harness("text settings 1T", "--scene", TEXT_SCENE, "--stage", "composite", "--threads", 1,
                         "--warmup", c["warmup"], "--warmup-frames", c["warmup_frames"], "--repeats", c["repeats"],
                         "--stride", c["stride"])
        self.results["text"] = dict(r, labels=TEXT_LABELS)

    def find(self, stage, res, threads, variant=WHOLE):
        return index_ours(self.results["ours"]).get((stage, res, threads, variant))

    # -- plans, peers ------------------------------------------------------------

    def export_plan(self, res):
        directory = os.path.join(self.work, "plan-" + res)
        if not os.path.exists(os.path.join(directory, "plan.json")):
            run_process([self.cli, "plan", SCENES[res], "-o", directory, "--overwrite"])
        return directory

    def peer_available(self, module, package):
        if not self.python:
            return "no Python virtual environment for the peers (run benchmarks/setup-peers.sh)"
        probe = subprocess.run([self.python, "-c", "import %s, numpy" % module], capture_output=True, text=True)
        if probe.returncode != 0:
            return "%s not installed in %s (run benchmarks/setup-peers.sh)" % (package, os.path.dirname(
                os.path.dirname(self.python)))
        return None

    def peers(self):
        """Each peer draws the whole plan; at the target resolution also the
        reduced plan (without shadow and border items), which our compositor
        is also timed on: each ratio compares the same display lists."""
        p = self.s["peers"]
        fid = self.s["fidelity"]["resolution"]
        for name, module, package in (("skia", "skia", "skia-python"), ("cairo", "cairo", "pycairo")):
            missing = self.peer_available(module, package)
            if missing:
                log("%s: skipped (%s)" % (name, missing))
                self.results["skipped"].append({"what": name, "reason": missing})
                continue
            for res in p["resolutions"]:
                plan = self.export_plan(res)
                stride = p.get("stride_2160p", p["stride"]) if res == "2160p" else p["stride"]
                repeats = p.get("repeats_2160p", p["repeats"]) if res == "2160p" else p["repeats"]
                variants = [(WHOLE, "")] + ([(REDUCED_VARIANT, REDUCED)] if res == fid else [])
                for variant, skip in variants:
                    cmd = [self.python, os.path.join(HERE, "peers", "%s_render.py" % name), plan,
                           "--warmup", str(p["warmup"]), "--repeats", str(repeats), "--stride", str(stride)]
                    if skip:
                        cmd += ["--skip", skip]
                    if res == fid:
                        suffix = "-noshadow" if skip else ""
                        cmd += ["--dump", os.path.join(self.work, "%s%s-%s.rgba" % (name, suffix, res))]
                        if name == "skia" and not skip:
                            cmd += ["--edges", os.path.join(self.work, "edges-%s.mask" % res)]
                        self.results["fidelity_stride"] = stride
                    try:
                        stdout, *_ = run_process(cmd)
                    except RuntimeError as error:
                        log("%s %s: failed: %s" % (name, res, error))
                        self.results["skipped"].append({"what": "%s %s" % (name, res), "reason": str(error)[:500]})
                        continue
                    r = with_cpu_fps(last_json(stdout))
                    r["resolution"], r["variant"] = res, variant
                    self.results["peers"].append(r)
                    log("%-34s %9.2f fps  (min %.2f, max %.2f; %.2f per CPU-second; peak %d MiB)" % (
                        "%s %s 1T%s" % (name, res, "" if not skip else " (no shadows/borders)"), r["fps_median"],
                        r["fps_min"], r["fps_max"], r["cpu_fps_median"] or 0, r["peak_rss_kib"] // 1024))

    # -- ffmpeg baselines ----------------------------------------------------------

    def raw_frames(self, res, stride, skip=""):
        """Our frames as raw RGBA8, every stride-th; with `skip`, of the plan without those kinds of item."""
        path = os.path.join(self.work, "ours-%s-s%d%s.rgba" % (res, stride, "-noshadow" if skip else ""))
        if not os.path.exists(path):
            run_process([self.bench, "dump", "--scene", SCENES[res], "--out", path, "--threads", str(self.cores),
                         "--stride", str(stride)] + (["--skip", skip] if skip else []))
        return path

    def baselines(self):
        if not shutil.which("ffmpeg"):
            log("ffmpeg not found: export baselines skipped")
            self.results["skipped"].append({"what": "ffmpeg baselines", "reason": "ffmpeg not found"})
            return
        b = self.s["baselines"]
        for res in b["resolutions"]:
            ours_png = self.find("png", res, self.cores) or {}
            stride = ours_png.get("stride", 1)
            raw = self.raw_frames(res, stride)
            width, height = ours_png.get("width"), ours_png.get("height")
            if width is None:
                continue
            frames = os.path.getsize(raw) // (width * height * 4)
            source = self.baseline_source(raw, width, height)
            video = self.find("webm", res, self.cores)
            kinds = self.baseline_kinds(video is not None and video.get("stride", 1) == stride)
            for kind, codec, thread_counts, name in kinds:
                repeats = b["repeats"] if kind in ("x264", "ffmpeg-png") else b.get("video_repeats", b["repeats"])
                # The first run warms the page cache (untimed); the later encoders find it warm.
                warmups = 1 if kind in ("x264", "ffmpeg-png") else 0
                for threads in thread_counts:
                    walls, cpus, peaks, size = [], [], [], None
                    for i in range(repeats + warmups):
                        wall, cpu, peak, size = self.baseline_run(kind, res, source, codec, threads, name)
                        if i >= warmups:
                            walls.append(wall)
                            cpus.append(cpu)
                            peaks.append(peak)
                    r = dict(summarize(frames, walls, cpus), kind=kind, threads=threads, resolution=res,
                             width=width, height=height, frames_per_run=frames, stride=stride,
                             run_seconds=walls, run_cpu_seconds=cpus, peak_rss_kib=max(peaks),
                             output_bytes=size, command=" ".join(["ffmpeg"] + source[:-1] + ["RAW"] + codec +
                                                                 ["-threads", threads, "OUT"]))
                    self.results["baselines"].append(r)
                    log("%-34s %9.2f fps  (min %.2f, max %.2f; %.2f per CPU-second; %.1f MB)" % (
                        "%s %s threads=%s" % (kind, res, threads), r["fps_median"], r["fps_min"], r["fps_max"],
                        r["cpu_fps_median"] or 0, size / 1e6))

    @staticmethod
    def baseline_source(raw, width, height):
        return ["-f", "rawvideo", "-pix_fmt", "rgba", "-s", "%dx%d" % (width, height), "-framerate", "60", "-i", raw]

    def baseline_kinds(self, with_video):
        """(kind, codec options, thread counts, output name) of each ffmpeg baseline."""
        x264 = ["-vf", "scale=out_color_matrix=bt709:out_range=tv:flags=bicubic+accurate_rnd+full_chroma_inp",
                "-c:v", "libx264", "-preset", PRESET, "-crf", str(CRF), "-pix_fmt", "yuv420p",
                "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709",
                "-color_range", "tv", "-movflags", "+faststart"]
        png = ["-c:v", "png", "-pix_fmt", "rgba"]
        kinds = [("x264", x264, ("1", "auto"), "out.mp4"), ("ffmpeg-png", png, ("1", "auto"), "frame_%05d.png")]
        if with_video:
            # Our WebM and MOV encoders' settings (Sources/Encoders/VideoWriter.swift), the same conversion.
            tags = x264[x264.index("-color_primaries"):x264.index("-movflags")]
            # VP9: constant quality, libvpx's speed for preset medium, row-mt; tile-columns 6 is libvpx's
            # default (what our encoder leaves it at), capped by libvpx at the width's maximum (4 columns
            # at 1920 px); one thread per core, as our encoder asks for.
            vp9 = x264[:2] + ["-c:v", "libvpx-vp9", "-crf", str(VP9_CRF), "-b:v", "0", "-deadline", "good",
                              "-cpu-used", "4", "-row-mt", "1", "-tile-columns", "6", "-pix_fmt", "yuv420p"] + tags
            # ProRes 4444, 10-bit 4:4:4 (opaque canvas: no alpha plane), Apple's vendor id; ffmpeg's threads.
            prores = x264[:2] + ["-c:v", "prores_ks", "-profile:v", "4444", "-vendor", "apl0",
                                 "-pix_fmt", "yuv444p10le"] + tags
            kinds += [("vp9", vp9, (str(self.cores),), "out.webm"), ("prores", prores, ("auto",), "out.mov")]
        return kinds

    def baseline_run(self, kind, res, source, codec, threads, name):
        """One ffmpeg encode of the raw frames: wall, CPU seconds, peak RSS KiB, bytes written."""
        out = os.path.join(self.work, "baseline-%s-%s" % (kind, res))
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        cmd = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + source + codec + \
              ["-threads", threads, os.path.join(out, name)]
        _, wall, cpu, peak, _, _ = run_process(cmd)
        size = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
        shutil.rmtree(out, ignore_errors=True)
        return wall, cpu, peak, size

    def paired(self):
        """Each export target's two sides in alternating rounds: our export (all cores) and ffmpeg on our
        frames, one run each, the order swapped every round. The separate rows above run minutes apart,
        and on a shared machine either side can meet a busy spell alone."""
        p = self.s.get("paired")
        if not p or not shutil.which("ffmpeg"):
            return
        res = p["resolution"]
        self.results["paired"] = []
        for stage, kind in (("mp4", "x264"), ("png", "ffmpeg-png"), ("webm", "vp9"), ("mov", "prores")):
            mine = self.find(stage, res, self.cores)
            base = next((b for b in self.results["baselines"] if b["kind"] == kind and b["resolution"] == res
                         and b["threads"] != "1"), None)
            if not (mine and base) or mine.get("stride", 1) != base["stride"]:
                continue
            stride = base["stride"]
            width, height = base["width"], base["height"]
            source = self.baseline_source(self.raw_frames(res, stride), width, height)
            codec, name = next((c, n) for k, c, _, n in self.baseline_kinds(True) if k == kind)
            def ours_run(r):
                return self.harness("paired %s %s %dT (round %d)" % (stage, res, self.cores, r + 1), "--scene",
                                    SCENES[res], "--stage", stage, "--threads", self.cores, "--warmup", 0,
                                    "--repeats", 1, "--stride", stride, "--crf", CRF, "--preset", PRESET)["fps_median"]

            def ffmpeg_run(r):
                wall, *_ = self.baseline_run(kind, res, source, codec, base["threads"], name)
                log("%-34s %9.2f fps" % ("paired %s %s threads=%s (round %d)" % (kind, res, base["threads"], r + 1),
                                         base["frames_per_run"] / wall))
                return base["frames_per_run"] / wall

            rounds = [{"ours_fps": a, "ffmpeg_fps": b, "ratio": a / b, "ours_first": first}
                      for a, b, first in alternating(p["rounds"], ours_run, ffmpeg_run)]
            self.results["paired"].append({
                "stage": stage, "kind": kind, "resolution": res, "threads": base["threads"], "rounds": rounds,
                "ratio_median": median([x["ratio"] for x in rounds]),
                "ours_fps_median": median([x["ours_fps"] for x in rounds]),
                "ffmpeg_fps_median": median([x["ffmpeg_fps"] for x in rounds])})

    def paired_threads(self):
        """The two-core target in alternating rounds: one run of our compositor at 1 thread and one at all
        cores, the order swapped every round (wall fps, 3 timed runs each), so that both sides of the ratio
        meet the same moment of the machine, as the export and peer targets do."""
        p = self.s.get("paired")
        if not p or self.cores < 2:
            return
        res = p["resolution"]

        def run(threads):
            def one(r):
                return self.harness("paired composite %s %dT (round %d)" % (res, threads, r + 1), "--scene", SCENES[res],
                                    "--stage", "composite", "--threads", threads, "--warmup", 1,
                                    "--repeats", 3)["fps_median"]
            return one

        rounds = [{"cores_fps": a, "one_fps": b, "ratio": a / b, "cores_first": first}
                  for a, b, first in alternating(p["peer_rounds"], run(self.cores), run(1))]
        self.results["paired_threads"] = {"resolution": res, "threads": self.cores, "rounds": rounds,
                                          "ratio_median": median([x["ratio"] for x in rounds])}

    def paired_peers(self):
        """Each compositor-vs-peer target in alternating rounds: our compositor (1 thread; the median of
        `ours_repeats` timed runs of the clip, about as long as the peer's one) and one timed run of the peer on
        the same plan, the order swapped every round; ratios per CPU-second."""
        p = self.s.get("paired")
        if not p:
            return
        res = p["resolution"]
        plan = self.export_plan(res)
        self.results["paired_peers"] = []
        for name in ("skia", "cairo"):
            if not any(r.get("peer") == name for r in self.results["peers"]):
                continue
            for variant, skip in ((WHOLE, ""), (REDUCED_VARIANT, REDUCED)):
                def ours_run(r):
                    return self.harness("paired composite %s 1T%s (round %d)" % (
                        res, " (no shadows/borders)" if skip else "", r + 1), "--scene", SCENES[res], "--stage",
                        "composite", "--threads", 1, "--warmup", 1, "--repeats", p.get("ours_repeats", 1),
                        *(["--skip", skip] if skip else []))["cpu_fps_median"]

                def peer_run(r):
                    cmd = [self.python, os.path.join(HERE, "peers", "%s_render.py" % name), plan,
                           "--warmup", "1", "--repeats", "1"] + (["--skip", skip] if skip else [])
                    stdout, *_ = run_process(cmd)
                    fps = with_cpu_fps(last_json(stdout))["cpu_fps_median"]
                    log("%-34s %9.2f per CPU-second" % ("paired %s %s 1T%s (round %d)" % (
                        name, res, " (no shadows/borders)" if skip else "", r + 1), fps))
                    return fps

                rounds = [{"ours_cpu_fps": a, "peer_cpu_fps": b, "ratio": a / b, "ours_first": first}
                          for a, b, first in alternating(p["peer_rounds"], ours_run, peer_run)]
                self.results["paired_peers"].append({
                    "peer": name, "variant": variant, "resolution": res, "rounds": rounds,
                    "ours_repeats": p.get("ours_repeats", 1),
                    "ratio_median": median([x["ratio"] for x in rounds])})

    # -- fidelity --------------------------------------------------------------------

    def fidelity(self):
        res = self.s["fidelity"]["resolution"]
        skia = os.path.join(self.work, "skia-%s.rgba" % res)
        if not os.path.exists(skia):
            self.results["fidelity"] = {"skipped": "no Skia frames (skia-python absent)"}
            return
        stride = self.results.get("fidelity_stride", 1)
        ours = self.raw_frames(res, stride)
        plan = json.load(open(os.path.join(self.export_plan(res), "plan.json")))["canvas"]
        w, h = plan["width"], plan["height"]
        script = os.path.join(HERE, "peers", "fidelity.py")
        edges = os.path.join(self.work, "edges-%s.mask" % res)
        out = {"resolution": res, "stride": stride}
        skia_reduced = os.path.join(self.work, "skia-noshadow-%s.rgba" % res)
        ours_reduced = self.raw_frames(res, stride, REDUCED) if os.path.exists(skia_reduced) else None
        pairs = [("ours_vs_skia", ours, skia),
                 ("ours_vs_skia_reduced", ours_reduced, skia_reduced),
                 ("cairo_vs_skia", os.path.join(self.work, "cairo-%s.rgba" % res), skia)]
        for key, a, b in pairs:
            if a and os.path.exists(a) and os.path.exists(b):
                stdout, *_ = run_process([self.python, script, str(w), str(h), a, b, "--edges", edges])
                out[key] = last_json(stdout)
                log("fidelity %-28s PSNR mean %.2f dB, worst %.2f dB; %.3f%% px differ > 8, %s%% of them on edges" % (
                    key, out[key]["psnr_mean_db"] or 99, out[key]["psnr_min_db"] or 99,
                    out[key]["differing_pixels_pct"], out[key].get("differing_on_edges_pct")))
        self.results["fidelity"] = out

    # -- memory in clip length -------------------------------------------------------

    def memory(self):
        m = self.s["memory"]
        res = m["resolution"]
        out = {"resolution": res, "stage": "mp4", "threads": self.cores, "runs": []}
        for scale in m["clip_scales"]:
            r = self.harness("mp4 %s %dT clip x%g" % (res, self.cores, scale), "--scene", SCENES[res],
                             "--stage", "mp4", "--threads", self.cores, "--warmup", 0, "--repeats", 1,
                             "--clip-scale", scale, "--crf", CRF, "--preset", PRESET)
            out["runs"].append({"clip_scale": scale, "frames": r["clip_frames"], "peak_rss_kib": r["peak_rss_kib"],
                                "fps": r["fps_median"]})
        # Flatness is judged between the two longest clips: the first frames fill
        # fixed-size pipelines (x264 keeps ~40 frames of lookahead), which a short
        # clip never fills; past that, the peak must not grow with the clip.
        first, last = out["runs"][-2] if len(out["runs"]) > 1 else out["runs"][0], out["runs"][-1]
        out["peak_ratio"] = last["peak_rss_kib"] / first["peak_rss_kib"]
        out["compared"] = [first["clip_scale"], last["clip_scale"]]
        self.results["memory"] = out

    def cleanup(self):
        if not self.args.keep_work:
            shutil.rmtree(self.work, ignore_errors=True)


# ---- targets and the report ---------------------------------------------------------

def ratio(a, b):
    return a / b if a and b else None


def variant(result):
    """Which plan a result drew: the whole plan, or the reduced one (older JSON has no `variant`: whole)."""
    return result.get("variant", WHOLE)


def index_ours(rows):
    return {(r["stage"], r["resolution"], r["threads"], variant(r)): r for r in rows}


def plan_name(v):
    return "whole plan" if v == WHOLE else "plan without shadows/borders"


def compare_peer(ours, peer):
    """Ours ÷ peer per CPU-second (the measured value) and wall, with the figures behind them."""
    cpu = ratio(ours["cpu_fps_median"], peer["cpu_fps_median"])
    wall = ratio(ours["fps_median"], peer["fps_median"])
    return cpu, "%s per CPU-second (%s vs %s), %sx wall (%s vs %s fps)" % (
        fmt(cpu) + "x", fmt(ours["cpu_fps_median"]), fmt(peer["cpu_fps_median"]), fmt(wall), fmt(ours["fps_median"]),
        fmt(peer["fps_median"]))


def evaluate_targets(results, cores):
    """The issue's targets at 1080p. Single-thread comparisons with the peers use
    frames per CPU-second (steadier than wall-clock fps on a shared machine; both
    are given), each on the same plan for ours and the peer; the scaling and
    export targets wall-clock fps."""
    ours = index_ours(results["ours"])
    peers = {(r["peer"], r["resolution"], variant(r)): r for r in results["peers"]}
    base = {(r["kind"], r["resolution"], r["threads"]): r for r in results["baselines"]}
    paired = {r["stage"]: r for r in results.get("paired") or [] if r["resolution"] == "1080p"}
    paired_peers = {(r["peer"], r["variant"]): r for r in results.get("paired_peers") or [] if r["resolution"] == "1080p"}
    comp1 = ours.get(("composite", "1080p", 1, WHOLE))
    compN = ours.get(("composite", "1080p", cores, WHOLE))
    targets = []

    def add(name, goal, value, met, detail):
        targets.append({"target": name, "goal": goal, "value": value,
                        "status": "n/a" if met is None else "met" if met else "short", "detail": detail})

    names = {"cairo": "cairo", "skia": "Skia"}
    for v, goals in ((REDUCED_VARIANT, (("cairo", 3.0), ("skia", 3.0))), (WHOLE, (("cairo", 4.0), ("skia", 8.0)))):
        mine = ours.get(("composite", "1080p", 1, v))
        for peer, goal in goals:
            name = "compositor vs %s, %s, 1 thread" % (names[peer], plan_name(v))
            p = peers.get((peer, "1080p", v))
            if mine and p:
                cpu, detail = compare_peer(mine, p)
                pair = paired_peers.get((peer, v))
                if pair:
                    detail = "%.2fx in %d alternating rounds (%s, per CPU-second); separate runs: %s" % (
                        pair["ratio_median"], len(pair["rounds"]), ", ".join("%.2fx" % x["ratio"] for x in pair["rounds"]),
                        detail)
                    cpu = pair["ratio_median"]
                add(name, ">= %gx" % goal, cpu, cpu is not None and cpu >= goal, detail)
            else:
                add(name, ">= %gx" % goal, None, None, "%s not measured" % ("ours" if not mine else names[peer]))
    if comp1 and compN and cores > 1:
        v = compN["fps_median"] / comp1["fps_median"]
        busy = compN.get("cores_busy_median")
        avail = results.get("cores_available_start")
        detail = "%.2f vs %.2f fps (wall; best runs %.2f vs %.2f, %.2fx)%s%s" % (
            compN["fps_median"], comp1["fps_median"], compN["fps_max"], comp1["fps_max"],
            compN["fps_max"] / comp1["fps_max"],
            "; the %d-thread runs kept %.2f cores busy (CPU-s per wall-s)" % (cores, busy) if busy else "",
            "; the machine gave %.2f of %d cores when the run started" % (avail, cores) if avail else "")
        pair = results.get("paired_threads")
        if pair and pair["threads"] == cores:
            # The alternating rounds judge the target, as for the exports and the peers.
            detail = "%.2fx in %d alternating rounds (%s); separate runs: %.2fx, %s" % (
                pair["ratio_median"], len(pair["rounds"]), ", ".join("%.2fx" % x["ratio"] for x in pair["rounds"]),
                v, detail)
            v = pair["ratio_median"]
        add("compositor, %d cores vs 1 thread" % cores, ">= 1.8x", v, v >= 1.8, detail)
    for stage, kind, name, limit in (("mp4", "x264", "MP4 export vs libx264 alone", "auto"),
                                     ("png", "ffmpeg-png", "PNG export vs ffmpeg -c:v png", "auto"),
                                     ("webm", "vp9", "WebM export vs ffmpeg libvpx-vp9", str(cores)),
                                     ("mov", "prores", "MOV export vs ffmpeg prores_ks", "auto")):
        goal = EXPORT_GOALS[stage]
        goal_text = ">= %.2fx (within 1.2x)" % goal if stage in ("webm", "mov") else ">= %gx" % goal
        mine = ours.get((stage, "1080p", cores, WHOLE))
        b = base.get((kind, "1080p", limit))
        if not (mine and b):
            add(name, goal_text, None, None, "not measured")
            continue
        v = mine["fps_median"] / b["fps_median"]
        detail = "%.2f vs %.2f fps (wall, all cores; ffmpeg with %s)" % (
            mine["fps_median"], b["fps_median"],
            "its default threads" if limit == "auto" else "-threads %s, as our encoder" % limit)
        pair = paired.get(stage)
        if pair:
            # The alternating rounds judge the target: both sides of each ratio ran back to back.
            separate = v
            v = pair["ratio_median"]
            detail = "%.2fx in %d alternating rounds (%s; medians %.2f vs %.2f fps); separate runs: %.2fx, %s" % (
                v, len(pair["rounds"]), ", ".join("%.2fx" % x["ratio"] for x in pair["rounds"]),
                pair["ours_fps_median"], pair["ffmpeg_fps_median"], separate, detail)
        if stage in ("webm", "mov"):
            detail += "; %.1f MB vs %.1f MB" % (mine["output_bytes"] / 1e6, b["output_bytes"] / 1e6)
        b1, mine1 = base.get((kind, "1080p", "1")), ours.get((stage, "1080p", 1, WHOLE))
        if b1 and mine1:
            detail += "; 1 thread: %.2f vs %s -threads 1 %.2f fps (%.2fx)" % (
                mine1["fps_median"], kind, b1["fps_median"], mine1["fps_median"] / b1["fps_median"])
        add(name, goal_text, v, v >= goal, detail)
        if stage == "png":
            size = mine["output_bytes"] / b["output_bytes"]
            add("PNG size vs ffmpeg -c:v png", "<= 1.2x", size, size <= 1.2,
                "%.1f MB vs %.1f MB for %d frames" % (mine["output_bytes"] / 1e6, b["output_bytes"] / 1e6,
                                                      mine["frames_per_run"]))
    mem = results.get("memory") or {}
    if mem.get("runs"):
        a, b = mem["runs"][-2] if len(mem["runs"]) > 1 else mem["runs"][0], mem["runs"][-1]
        add("peak memory flat in clip length", "<= 1.1x", mem["peak_ratio"], mem["peak_ratio"] <= 1.1,
            "MP4 export %s, all cores: %d MiB for %d frames, %d MiB for %d frames (%s)" % (
                mem["resolution"], a["peak_rss_kib"] // 1024, a["frames"], b["peak_rss_kib"] // 1024, b["frames"],
                ", ".join("%d frames: %d MiB" % (r["frames"], r["peak_rss_kib"] // 1024) for r in mem["runs"])))
    return targets


def fmt(x, digits=2):
    if x is None:
        return "–"
    if x >= 1000:
        return "{:,.0f}".format(x)
    return ("%%.%df" % digits) % x


def markdown(doc, standalone):
    """The report: a whole document (a quick run's), or a dated section to append to RESULTS.md."""
    m, lines = doc["machine"], []
    add = lines.append
    if standalone:
        add("# Benchmark results")
        add("")
        add("Written by `benchmarks/run.sh` (see [README.md](README.md) for what each figure means).")
    else:
        add(section_heading(doc))
        add("")
        add("Written by `%s` (see [README.md](README.md) for what each figure means)." % doc["command"])
    add("")
    add("| | |")
    add("|---|---|")
    add("| date | %s |" % doc["date"])
    add("| commit | `%s` |" % doc["commit"])
    add("| command | `%s` (mode: %s) |" % (doc["command"], doc["mode"]))
    add("| machine | %s, %d cores, %s GiB, %s, Linux %s |" % (m["cpu"], m["cores"], m["memory_gib"], m["os"], m["kernel"]))
    if "compositor_target_cpu" in m:
        cpu = m["compositor_target_cpu"]
        add("| build | release, the compositor for %s |" % ("`-target-cpu %s`" % cpu if cpu else "baseline x86-64"))
    else:
        add("| build | release, `-target-cpu haswell` for the compositor: %s |" % (
            "yes" if m.get("avx2") and not m.get("portable_build") else "no"))
    add("| toolchain | %s; %s |" % (m.get("swift"), m.get("ffmpeg")))
    add("| peers | %s |" % (", ".join("%s %s" % (k, v) for k, v in doc["peer_versions"].items()) or "none"))
    during = doc.get("loadavg_during")
    add("| load average (1 min) | %s at start, %s at end%s |" % (
        (doc["loadavg_start"] or ["?"])[0], (doc["loadavg_end"] or ["?"])[0],
        "; during the run %.2f median, %.2f–%.2f (after each of %d measured processes; ours count too)" % (
            during["median"], during["min"], during["max"], during["samples"]) if during else ""))
    if doc.get("cores_available_start") is not None:
        add("| cores available | %s of %d at start, %s at end (CPU time %d busy loops got per second) |" % (
            doc["cores_available_start"], m["cores"], doc.get("cores_available_end", "?"), m["cores"]))
    add("")
    shared = (doc["loadavg_start"] and doc["loadavg_start"][0] > 0.5 * m["cores"]) or \
        (doc.get("cores_available_start") or m["cores"]) < 0.9 * m["cores"]
    if shared:
        add("> The machine was shared with other work during this run (load average above). Wall-clock "
            "figures are then low and noisy; frames per CPU-second (time the process itself ran) are the "
            "steadier measure of the code, and the single-thread comparisons with the peers use them.")
        add("")
    if doc.get("chart"):
        add("![frames per second at 1080p](%s)" % doc["chart"])
        add("")
    add("## Targets (1080p, benchmark scene)")
    add("")
    add("| target | goal | measured | status | detail |")
    add("|---|---|---|---|---|")
    for t in doc["targets"]:
        add("| %s | %s | %s | **%s** | %s |" % (t["target"], t["goal"],
                                               fmt(t["value"]) + ("x" if t["value"] is not None else ""),
                                               t["status"], t["detail"]))
    add("")
    add("## shiftrender")
    add("")
    add("Frames per second, wall clock: median of the timed runs (min–max); frames per CPU-second; cores busy "
        "(CPU seconds per wall second: below the thread count when other work held the cores, or the code did "
        "not keep them busy); peak resident memory of the process. The engine rows count display lists planned "
        "per second. \"composite, no shadows/borders\" draws the reduced plan (every display list without its "
        "shadow and border items), as the peers' reduced rows do.")
    add("")
    add("| stage | resolution | threads | fps median | min–max | fps per CPU-s | cores busy | frames × runs | peak MiB |")
    add("|---|---|---|---|---|---|---|---|---|")
    for r in doc["ours"]:
        add("| %s | %s (%dx%d) | %d | %s | %s–%s | %s | %s | %d × %d | %d |" % (
            r["stage"] + ("" if variant(r) == WHOLE else ", " + variant(r)), r["resolution"], r["width"], r["height"],
            r["threads"], fmt(r["fps_median"]),
            fmt(r["fps_min"]), fmt(r["fps_max"]), fmt(r["cpu_fps_median"]), fmt(r.get("cores_busy_median")),
            r["frames_per_run"], r["repeats"], r["peak_rss_kib"] // 1024))
    add("")
    text = doc.get("text")
    if text:
        add("## Text-heavy scene (%s, %d labels, 1 thread)" % (text["scene"], text["labels"]))
        add("")
        add("Labels are drawn once, when the renderer is set up (fonts found through fontconfig, text shaped, "
            "glyphs rasterized, then the plan made); the first frame draws the snapshots that hold them; then "
            "frames are composited.")
        add("")
        add("| canvas | renderer set-up (labels drawn) | first frame (snapshots) | frames: fps median | min–max |")
        add("|---|---|---|---|---|")
        add("| %dx%d px | %.1f ms | %.1f ms | %s | %s–%s |" % (
            text["width"], text["height"], 1000 * text["timeline_seconds"], 1000 * text["setup_seconds"], fmt(text["fps_median"]),
            fmt(text["fps_min"]), fmt(text["fps_max"])))
        add("")
    depth = doc.get("depth")
    if depth:
        add("## 3-D and blur scenes (1080p, compositor)")
        add("")
        add("The benchmark scene's screens in perspective and under a backdrop blur "
            "(fixtures/scenes/make_bench_depth.py): frames composited into one bitmap, as the composite rows above.")
        add("")
        add("| scene | what | threads | fps median | min–max | fps per CPU-s | cores busy | frames × runs | peak MiB |")
        add("|---|---|---|---|---|---|---|---|---|")
        for r in depth:
            add("| %s | %s | %d | %s | %s–%s | %s | %s | %d × %d | %d |" % (
                r["scene"].split("/")[-1], r["what"], r["threads"], fmt(r["fps_median"]), fmt(r["fps_min"]),
                fmt(r["fps_max"]), fmt(r["cpu_fps_median"]), fmt(r.get("cores_busy_median")), r["frames_per_run"],
                r["repeats"], r["peak_rss_kib"] // 1024))
        add("")
    add("## Peers: the same frame plan drawn by Skia and cairo (1 thread)")
    add("")
    add("Each peer row is compared with our compositor on the same plan: the whole plan, or the plan without "
        "shadow and border items (ours drawn with `--skip shadow,border`, as the peers' reduced rows).")
    add("")
    if doc["peers"]:
        add("| resolution | renderer | fps median | min–max | fps per CPU-s | "
            "shiftrender compositor (1 thread, same plan) ÷ peer, wall | per CPU-s | peak MiB |")
        add("|---|---|---|---|---|---|---|---|")
        ours = index_ours(doc["ours"])
        for p in doc["peers"]:
            o = ours.get(("composite", p["resolution"], 1, variant(p)))
            add("| %s | %s %s%s | %s | %s–%s | %s | %s | %s | %d |" % (
                p["resolution"], p["peer"], p["version"],
                "" if p.get("variant", "full") == "full" else ", without shadow/border items",
                fmt(p["fps_median"]), fmt(p["fps_min"]), fmt(p["fps_max"]),
                fmt(p["cpu_fps_median"]),
                fmt(ratio(o and o["fps_median"], p["fps_median"])) + "x",
                fmt(ratio(o and o["cpu_fps_median"], p["cpu_fps_median"])) + "x", p["peak_rss_kib"] // 1024))
    for s in doc["skipped"]:
        add("")
        add("- %s: skipped (%s)" % (s["what"], s["reason"]))
    add("")
    if doc.get("paired_peers"):
        add("### The same plans in alternating rounds")
        add("")
        repeats = doc["paired_peers"][0].get("ours_repeats", 1)
        ours = ("the median of %d timed runs of our compositor (1 thread; together about as long as the peer's run)"
                % repeats if repeats > 1 else "one timed run of our compositor (1 thread)")
        add("Each compositor-vs-peer target again: %s and one timed run of the peer on the same plan, the order "
            "swapped every round (ours first in odd rounds), frames per CPU-second: the ratio the targets above are "
            "judged by." % ours)
        add("")
        add("| resolution | peer | plan | rounds: ours / peer per CPU-s (ratio) | median ratio |")
        add("|---|---|---|---|---|")
        for pr in doc["paired_peers"]:
            add("| %s | %s | %s | %s | %sx |" % (
                pr["resolution"], pr["peer"], plan_name(pr["variant"]),
                "; ".join("%s / %s (%sx)" % (fmt(x["ours_cpu_fps"]), fmt(x["peer_cpu_fps"]), fmt(x["ratio"]))
                          for x in pr["rounds"]), fmt(pr["ratio_median"])))
        add("")
    if doc.get("paired_threads"):
        pt = doc["paired_threads"]
        add("### Our compositor at %d cores and at 1 thread in alternating rounds" % pt["threads"])
        add("")
        add("One run at each thread count (1 warm-up, 3 timed runs, wall fps), the order swapped every round: "
            "the ratio the two-core target is judged by.")
        add("")
        add("| resolution | rounds: %d threads / 1 thread fps (ratio) | median ratio |" % pt["threads"])
        add("|---|---|---|")
        add("| %s | %s | %sx |" % (pt["resolution"], "; ".join(
            "%s / %s (%sx)" % (fmt(x["cores_fps"]), fmt(x["one_fps"]), fmt(x["ratio"])) for x in pt["rounds"]),
            fmt(pt["ratio_median"])))
        add("")
    add("## Export limits: ffmpeg on our frames")
    add("")
    if doc["baselines"]:
        add("The raw RGBA frames of our compositor, read from a file, encoded by ffmpeg with the settings our "
            "encoders use, through the same RGB -> YUV conversion (bicubic, accurate rounding, BT.709 limited range): "
            "libx264 preset %s, CRF %d, yuv420p; PNG RGBA; libvpx-vp9 CRF %d (`-b:v 0`), deadline good, cpu-used 4, "
            "`-row-mt 1 -tile-columns 6`, yuv420p, one thread per core; prores_ks profile 4444, vendor apl0, "
            "yuv444p10le. `threads=auto` is ffmpeg's default. Each command is in the JSON (`baselines[].command`)."
            % (PRESET, CRF, VP9_CRF))
        add("")
        add("| resolution | encoder | threads | fps median | min–max | fps per CPU-s | output MB | "
            "shiftrender export (same threads) | ours ÷ ffmpeg |")
        add("|---|---|---|---|---|---|---|---|---|")
        ours = index_ours(doc["ours"])
        stages = {"x264": "mp4", "ffmpeg-png": "png", "vp9": "webm", "prores": "mov"}
        for b in doc["baselines"]:
            threads = 1 if b["threads"] == "1" else doc["machine"]["cores"]
            o = ours.get((stages[b["kind"]], b["resolution"], threads, WHOLE))
            add("| %s | %s | %s | %s | %s–%s | %s | %.1f | %s fps, %.1f MB | %s |" % (
                b["resolution"], b["kind"], b["threads"], fmt(b["fps_median"]), fmt(b["fps_min"]), fmt(b["fps_max"]),
                fmt(b["cpu_fps_median"]), b["output_bytes"] / 1e6, fmt(o and o["fps_median"]),
                (o["output_bytes"] / 1e6) if o else 0, fmt(ratio(o and o["fps_median"], b["fps_median"])) + "x"))
    add("")
    if doc.get("paired"):
        add("### Export and ffmpeg in alternating rounds")
        add("")
        add("Each export target again, its two sides one run each and back to back, the order swapped every round "
            "(ours first in odd rounds): the ratio the targets above are judged by, since the separate rows ran "
            "minutes apart on a shared machine.")
        add("")
        add("| resolution | export | ffmpeg threads | rounds: ours / ffmpeg fps (ratio) | median ratio |")
        add("|---|---|---|---|---|")
        for pr in doc["paired"]:
            add("| %s | %s vs %s | %s | %s | %sx |" % (
                pr["resolution"], pr["stage"], pr["kind"], pr["threads"],
                "; ".join("%s / %s (%sx)" % (fmt(x["ours_fps"]), fmt(x["ffmpeg_fps"]), fmt(x["ratio"]))
                          for x in pr["rounds"]), fmt(pr["ratio_median"])))
        add("")
    add("## Fidelity: our frames against Skia's render of the same plan")
    add("")
    f = doc["fidelity"]
    if f.get("skipped"):
        add("Skipped: %s." % f["skipped"])
    else:
        add("PSNR over RGB per frame at %s (every %s frame(s)); pixels whose largest channel difference exceeds 8, "
            "and the share of those within 1.5 px of a shape or clip outline (anti-aliased edges)." % (
                f.get("resolution"), f.get("stride")))
        add("")
        add("| comparison | PSNR mean | worst frame | pooled | max diff | pixels > 8 | of which on edges |")
        add("|---|---|---|---|---|---|---|")
        names = {"ours_vs_skia": "shiftrender vs Skia, whole plan",
                 "ours_vs_skia_reduced": "shiftrender vs Skia, both without shadow and border items",
                 # Runs before both drew the reduced plan: our whole frames against Skia's reduced ones.
                 "ours_vs_skia_without_shadows": "shiftrender (whole plan) vs Skia without shadow and border items",
                 "cairo_vs_skia": "cairo vs Skia, whole plan (reference)"}
        for key, label in names.items():
            r = f.get(key)
            if r:
                add("| %s | %s dB | %s dB (frame %s) | %s dB | %d | %.3f%% | %s%% |" % (
                    label, fmt(r["psnr_mean_db"]), fmt(r["psnr_min_db"]), r["psnr_min_frame"],
                    fmt(r["psnr_pooled_db"]), r["max_channel_difference"], r["differing_pixels_pct"],
                    r.get("differing_on_edges_pct", "–")))
    add("")
    mem = doc["memory"]
    if mem.get("runs"):
        add("## Peak memory against clip length")
        add("")
        add("MP4 export at %s, %d threads, the same motion stretched (`--clip-scale`). Flatness is judged between "
            "the two longest clips: a short clip never fills the encoder's fixed-size lookahead." % (
                mem["resolution"], mem["threads"]))
        add("")
        add("| clip | frames | peak MiB |")
        add("|---|---|---|")
        for r in mem["runs"]:
            add("| x%g | %d | %d |" % (r["clip_scale"], r["frames"], r["peak_rss_kib"] // 1024))
        add("")
    add("## Notes")
    add("")
    for note in doc["notes"]:
        add("- " + note)
    add("")
    return "\n".join(lines)


def chart_svg(doc):
    """A horizontal bar chart of the 1080p figures (fps, wall clock, median): the
    compositor against the peers, and each export against its ffmpeg limit."""
    ours = index_ours(doc["ours"])
    cores = doc["machine"]["cores"]
    groups = []
    for v, title in ((WHOLE, "Compositor, 1080p, whole plan"),
                     (REDUCED_VARIANT, "Compositor, 1080p, without shadows and borders")):
        rows = []
        for threads in sorted({1, cores}):
            r = ours.get(("composite", "1080p", threads, v))
            if r:
                rows.append(("shiftrender, %d thread%s" % (threads, "s" if threads > 1 else ""), r["fps_median"],
                             "ours"))
        for p in doc["peers"]:
            if p["resolution"] == "1080p" and variant(p) == v:
                rows.append(("%s, 1 thread" % {"skia": "Skia", "cairo": "cairo"}[p["peer"]], p["fps_median"], "peer"))
        if rows:
            groups.append((title, rows))
    for stage, kind, title, limit in (("mp4", "x264", "MP4 export, 1080p", "libx264"),
                                      ("png", "ffmpeg-png", "PNG export, 1080p", "ffmpeg -c:v png"),
                                      ("webm", "vp9", "WebM (VP9) export, 1080p", "libvpx-vp9"),
                                      ("mov", "prores", "MOV (ProRes 4444) export, 1080p", "prores_ks")):
        rows = []
        r = ours.get((stage, "1080p", cores, WHOLE))
        if r:
            rows.append(("shiftrender %s, %d threads" % (stage.upper(), cores), r["fps_median"], "ours"))
        for b in doc["baselines"]:
            if b["resolution"] == "1080p" and b["kind"] == kind and b["threads"] != "1":
                rows.append(("%s alone on our frames" % limit, b["fps_median"], "peer"))
        if rows:
            groups.append((title, rows))
    if not groups:
        return None
    top = max(v for _, rows in groups for _, v, _ in rows) or 1
    width, label_w, bar_w, row_h = 760, 260, 400, 22
    y, parts = 40, []
    parts.append('<text x="10" y="22" font-size="15" font-weight="bold">shiftrender benchmark: frames per second '
                 '(median, wall clock; longer is faster)</text>')
    for title, rows in groups:
        parts.append('<text x="10" y="%d" font-size="13" font-weight="bold">%s</text>' % (y + 12, title))
        y += 20
        for label, value, who in rows:
            w = max(1.0, bar_w * value / top)
            color = "#FF6A3D" if who == "ours" else "#8E8E93"
            parts.append('<text x="%d" y="%d" font-size="12" text-anchor="end">%s</text>' % (label_w - 8, y + 15, escape(label)))
            parts.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s" rx="3"/>' % (label_w, y + 3, w, row_h - 6, color))
            parts.append('<text x="%.1f" y="%d" font-size="12">%s</text>' % (label_w + w + 6, y + 15, fmt(value)))
            y += row_h
        y += 10
    parts.append('<text x="10" y="%d" font-size="11" fill="#555">%s, %d cores; commit %s; %s</text>' % (
        y + 8, escape(doc["machine"]["cpu"]), cores, doc["commit"], doc["date"]))
    height = y + 20
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="Helvetica, Arial, sans-serif">\n<rect width="100%%" height="100%%" fill="white"/>\n%s\n</svg>\n'
            % (width, height, width, height, "\n".join(parts)))


def section_heading(doc):
    return "## Run of %s (`%s`, mode %s)" % (doc["date"], doc["commit"], doc["mode"])


def subsections(lines):
    """Headings one level down, for a report that is a section of RESULTS.md."""
    return ["#" + line if line.startswith("## ") else line for line in lines]


RESULTS_HEADER = ("# Benchmark results\n\nEach run of `benchmarks/run.sh` appends a dated section here; the newest "
                  "is last. Commit this file with `results/latest.json` after a run that should be the project's figures.\n")


def write_markdown(doc, path, standalone):
    """A standalone report replaces `path`. A section is appended to it, or
    replaces the section of the same run (same date and commit: a report
    rewritten with --from-json); earlier sections are left as they are."""
    text = markdown(doc, standalone)
    if not standalone:
        lines = text.splitlines()
        section = "\n".join(lines[:1] + subsections(lines[1:])) + "\n"
        old = open(path).read() if os.path.exists(path) else RESULTS_HEADER
        heading = lines[0] + "\n"
        start = old.find(heading)
        if start < 0:
            text = old.rstrip("\n") + "\n\n" + section
        else:
            end = old.find("\n## ", start + len(heading))
            text = old[:start] + section + (old[end:] if end >= 0 else "")
    with open(path, "w") as f:
        f.write(text)


def write_report(doc, json_path, markdown_path, standalone=False):
    svg = chart_svg(doc)
    chart_path = os.path.join(os.path.dirname(json_path), os.path.splitext(os.path.basename(json_path))[0] + ".svg")
    if svg:
        with open(chart_path, "w") as f:
            f.write(svg)
        doc["chart"] = os.path.relpath(chart_path, os.path.dirname(markdown_path))
    with open(json_path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    write_markdown(doc, markdown_path, standalone)


NOTES = [
    "\"1080p\" is the benchmark scene's 1280x720 pt landscape canvas at scale 1.5 (1920x1080 px); 720p is scale 1, "
    "2160p (4K UHD) scale 3. 42 frames at 60 fps.",
    "Like for like: at 1080p our compositor and both peers draw the whole plan and the plan without `shadow` and "
    "`border` items (the same display lists with those items taken out, inside groups too; snapshots are drawn "
    "whole by all three). Each ratio compares one plan with the same plan; fidelity against Skia is given for both.",
    "Skia draws into its native N32 (BGRA) raster surface with bilinear sampling and a blur mask filter for shadows; "
    "cairo has no blur, so its shadows are an A8 mask blurred by three numpy box passes (counted in its time). "
    "Both peers decode bitmaps and parse the plan before timing, and run in one thread from Python (a few µs of "
    "interpreter time per item).",
    "At 2160p the runs cover every 3rd frame (14 of 42) to keep the default run under 10 minutes; export warm-ups "
    "cover the first few frames only. WebM and MOV export (all cores) and their ffmpeg limits run 2 timed runs "
    "each (about 10 s a run at 1080p), the 3-D and blur scenes 3.",
    "Export runs include opening the encoder, rendering every frame and finishing the file (shiftrender's encoders "
    "as they are: the MP4 encoder leaves libx264's thread count at libavcodec's default).",
    "The export and compositor-vs-peer targets are judged by alternating rounds (one run of each side, the order "
    "swapped every round; median of the rounds' ratios), so that both sides of a ratio meet the same moment of the "
    "machine; the separate rows' ratio is given beside it.",
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--quick", action="store_true", help="a fast smoke run (not for RESULTS.md)")
    group.add_argument("--full", action="store_true", help="peers and ffmpeg baselines at every resolution")
    parser.add_argument("--bin", help="the release bin directory (shiftrender, shiftrender-bench); required "
                                      "unless --from-json")
    parser.add_argument("--python", help="the peers' Python (benchmarks/.venv/bin/python)")
    parser.add_argument("--swift", default="swift")
    parser.add_argument("--work", help="scratch directory (default: a new one in $TMPDIR, removed afterwards)")
    parser.add_argument("--keep-work", action="store_true")
    parser.add_argument("--json", default=os.path.join(HERE, "results", "latest.json"))
    parser.add_argument("--markdown", default=os.path.join(HERE, "RESULTS.md"))
    parser.add_argument("--command", default="benchmarks/run.sh", help="the command recorded in the results")
    parser.add_argument("--from-json", help="measure nothing: rewrite the report (Markdown, chart) from this JSON")
    args = parser.parse_args()
    if args.from_json:
        with open(args.from_json) as f:
            doc = json.load(f)
        for r in doc["ours"] + doc["peers"] + doc.get("depth", []):
            with_cpu_fps(r)
        if doc["machine"].get("ffmpeg"):
            doc["machine"]["ffmpeg"] = doc["machine"]["ffmpeg"].split(" Copyright")[0]
        doc["notes"] = NOTES
        doc["targets"] = evaluate_targets(doc, doc["machine"]["cores"])
        write_report(doc, args.from_json, args.markdown, standalone=args.quick)
        log("rewrote %s from %s" % (args.markdown, args.from_json))
        return
    if not args.bin and not args.from_json:
        parser.error("--bin is required")
    if args.python and not os.path.exists(args.python):
        args.python = None
    if args.quick and args.json == parser.get_default("json"):
        # A smoke run never replaces the recorded figures.
        args.json = os.path.join(HERE, "results", "quick.json")
        args.markdown = os.path.join(HERE, "results", "quick.md")

    started = time.time()
    bench = Bench(args)
    doc = {"format": "shiftrender-bench", "version": 1,
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
           "commit": git_commit(), "command": args.command, "mode": bench.mode,
           "machine": machine_info(args), "loadavg_start": loadavg(),
           "cores_available_start": cores_available(bench.cores), "settings": bench.s}
    peer_versions = {}
    if args.python:
        for name, code in (("skia-python", "import skia; print(skia.__version__)"),
                           ("pycairo", "import cairo; print(cairo.version, '(cairo', cairo.cairo_version_string() + ')')")):
            r = subprocess.run([args.python, "-c", code], capture_output=True, text=True)
            if r.returncode == 0:
                peer_versions[name] = r.stdout.strip()
    doc["peer_versions"] = peer_versions
    log("mode %s, work directory %s, %d cores (%.2f available), load average %s" % (
        bench.mode, bench.work, bench.cores, doc["cores_available_start"], doc["loadavg_start"]))
    try:
        bench.ours()
        bench.text()
        bench.depth()
        bench.peers()
        bench.baselines()
        bench.paired()
        bench.paired_peers()
        bench.paired_threads()
        bench.fidelity()
        bench.memory()
    finally:
        bench.cleanup()
    doc.update(bench.results)
    doc.pop("fidelity_stride", None)
    doc["loadavg_end"] = loadavg()
    if LOAD_SAMPLES:
        doc["loadavg_during"] = {"median": median(LOAD_SAMPLES), "min": min(LOAD_SAMPLES), "max": max(LOAD_SAMPLES),
                                 "samples": len(LOAD_SAMPLES)}
    doc["cores_available_end"] = cores_available(bench.cores)
    doc["targets"] = evaluate_targets(doc, bench.cores)
    doc["notes"] = NOTES
    doc["elapsed_seconds"] = round(time.time() - started, 1)
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    write_report(doc, args.json, args.markdown, standalone=args.quick)
    log("wrote %s and %s in %.0f s" % (os.path.relpath(args.json, ROOT), os.path.relpath(args.markdown, ROOT),
                                       doc["elapsed_seconds"]))
    for t in doc["targets"]:
        log("target %-40s %-8s %-6s %s" % (t["target"], t["goal"], t["status"], t["detail"]))


if __name__ == "__main__":
    main()
