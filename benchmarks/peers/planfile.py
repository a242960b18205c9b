"""Reads a frame plan written by `shiftrender plan` (docs/frame-plan.md) into
plain tuples, the perspective maps the peers share, and their timing loop.
Standard library only.

An item becomes (transform, rect, radius, kind, payload, opacity, clips, projection):
  transform  (a, b, c, d, tx, ty)      local -> output pixels (-> its plane under a projection)
  rect       (x, y, width, height)     local units
  radius     corner radius, already clamped to half the shorter side
  kind       "solid" | "image" | "snapshot" | "border" | "shadow" | "gradient" | "group" | "backdropBlur"
  payload    solid: (r, g, b, a); image/snapshot: index;
             border: (width, (r, g, b, a)); shadow: ((r, g, b, a), sigma);
             gradient: (type, [(r, g, b, a), ...], [location, ...], (x, y) start, (x, y) end)
               (see `gradient_frame` for where it is evaluated);
             group: [item, ...] (nested items in this same form, same target space:
               the group's plane when it has a projection); backdropBlur: sigma
  opacity    0...1
  clips      [(transform, rect, radius, projection), ...]   (their intersection)
  projection None, or the 9 numbers of a 3x3 perspective map in Core Animation's
             row-vector order: (x, y, 1) * M = (X, Y, W), image (X / W, Y / W),
             W >= NEAR_W in front of the eye. A plane point behind the eye has no
             image (nothing is drawn there). Item: local -> transform -> plane ->
             projection -> pixels; a clip likewise.
Colours are sRGB with straight alpha, as in the plan. Plans written before
projections and backdrop blurs read as before (projection None).

A group (group opacity) draws its nested items onto a transparent layer, then
the layer with `opacity`, inside the item's shape (under its transform) and
every clip.
"""
import argparse, json, math, os, resource, sys, time


def clamp_radius(rect, r):
    return max(0.0, min(r, rect[2] / 2, rect[3] / 2))


def _shape(shape):
    rect = tuple(shape["rect"])
    return rect, clamp_radius(rect, shape.get("cornerRadius", 0))


def _item(raw):
    rect, radius = _shape(raw["shape"])
    paint = raw["paint"]
    if "solid" in paint:
        kind, payload = "solid", tuple(paint["solid"])
    elif "image" in paint:
        kind, payload = "image", paint["image"]
    elif "snapshot" in paint:
        kind, payload = "snapshot", paint["snapshot"]
    elif "border" in paint:
        kind, payload = "border", (paint["border"]["width"], tuple(paint["border"]["color"]))
    elif "shadow" in paint:
        kind, payload = "shadow", (tuple(paint["shadow"]["color"]), paint["shadow"]["sigma"])
    elif "gradient" in paint:
        g = paint["gradient"]
        kind, payload = "gradient", (g["type"], [tuple(c) for c in g["colors"]], list(g["locations"]),
                                     tuple(g["start"]), tuple(g["end"]))
    elif "group" in paint:
        kind, payload = "group", [_item(i) for i in paint["group"]]
    elif "backdropBlur" in paint:
        kind, payload = "backdropBlur", paint["backdropBlur"]["sigma"]
    else:
        raise ValueError("unknown paint %r" % (paint,))
    clips = [(tuple(c["transform"]),) + _shape(c["shape"]) + (_projection(c),) for c in raw.get("clips", [])]
    return (tuple(raw["transform"]), rect, radius, kind, payload, raw.get("opacity", 1.0), clips, _projection(raw))


def _projection(raw):
    values = raw.get("projection")
    if values is None:
        return None
    if len(values) != 9:
        raise ValueError("projection needs 9 numbers, got %r" % (values,))
    return tuple(float(v) for v in values)


# -- perspective maps (3x3, Core Animation's row-vector order) -------------------

NEAR_W = 1e-6  # the least W in front of the eye (Homography.nearW)
IDENTITY = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)


def affine_map(t):
    """The affine (a, b, c, d, tx, ty) as a 3x3 map."""
    a, b, c, d, tx, ty = t
    return (a, b, 0.0, c, d, 0.0, tx, ty, 1.0)


def compose(first, then):
    """`first`, then `then`: the row-vector product first * then."""
    a, b = first, then
    return tuple(sum(a[3 * r + k] * b[3 * k + c] for k in range(3)) for r in range(3) for c in range(3))


def item_map(transform, projection):
    """Local -> target pixels of an item or clip: transform, then projection."""
    return affine_map(transform) if projection is None else compose(affine_map(transform), projection)


def homogeneous(m, x, y):
    """(X, Y, W) of the point (x, y)."""
    return (x * m[0] + y * m[3] + m[6], x * m[1] + y * m[4] + m[7], x * m[2] + y * m[5] + m[8])


def inverse(m):
    """The inverse map (None when singular or not finite)."""
    a, b, c, d, e, f, g, h, i = m
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    if not math.isfinite(det) or abs(det) < 1e-300:
        return None
    k = 1.0 / det
    return ((e * i - f * h) * k, (c * h - b * i) * k, (b * f - c * e) * k,
            (f * g - d * i) * k, (a * i - c * g) * k, (c * d - a * f) * k,
            (d * h - e * g) * k, (b * g - a * h) * k, (a * e - b * d) * k)


def visible_polygon(m, polygon, bounds):
    """The part of the convex `polygon` (source points) whose image is in
    front of the eye (W >= NEAR_W) and inside `bounds` = (x0, y0, x1, y1) in
    target pixels, as a convex polygon of source points ([] when nothing is
    left). Each condition is a half-plane in the source (X - x0 W >= 0 and so
    on, linear because W > 0 there), so this is Sutherland-Hodgman clipping in
    the source plane: no point of the result lies behind the eye, and its image
    is finite."""
    x0, y0, x1, y1 = bounds
    planes = [(m[2], m[5], m[8] - NEAR_W),                                     # W - NEAR_W
              (m[0] - x0 * m[2], m[3] - x0 * m[5], m[6] - x0 * m[8]),          # X - x0 W
              (x1 * m[2] - m[0], x1 * m[5] - m[3], x1 * m[8] - m[6]),          # x1 W - X
              (m[1] - y0 * m[2], m[4] - y0 * m[5], m[7] - y0 * m[8]),          # Y - y0 W
              (y1 * m[2] - m[1], y1 * m[5] - m[4], y1 * m[8] - m[7])]          # y1 W - Y
    points = list(polygon)
    for (p, q, r) in planes:
        if not points:
            break
        out = []
        for i, a in enumerate(points):
            b = points[(i + 1) % len(points)]
            fa, fb = p * a[0] + q * a[1] + r, p * b[0] + q * b[1] + r
            if fa >= 0:
                out.append(a)
            if (fa >= 0) != (fb >= 0):
                t = fa / (fa - fb)
                out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
        points = out
    return points if len(points) >= 3 else []


def rect_polygon(rect, grow=0.0):
    x, y, w, h = rect
    x, y, w, h = x - grow, y - grow, w + 2 * grow, h + 2 * grow
    return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


def project(m, points):
    """Images of source points that are in front of the eye."""
    out = []
    for (x, y) in points:
        X, Y, W = homogeneous(m, x, y)
        out.append((X / W, Y / W))
    return out


def largest_scale(m, points):
    """The largest stretch (target pixels per source unit, the Jacobian's
    larger singular value) of the map at the given source points; over a
    convex region in front of the eye it is largest at a vertex, where W is
    least."""
    best = 0.0
    for (x, y) in points:
        X, Y, W = homogeneous(m, x, y)
        if W <= 0:
            continue
        j11, j12 = (m[0] * W - X * m[2]) / (W * W), (m[3] * W - X * m[5]) / (W * W)
        j21, j22 = (m[1] * W - Y * m[2]) / (W * W), (m[4] * W - Y * m[5]) / (W * W)
        t = j11 * j11 + j12 * j12 + j21 * j21 + j22 * j22
        det = j11 * j22 - j12 * j21
        best = max(best, math.sqrt(max(0.0, (t + math.sqrt(max(0.0, t * t - 4 * det * det))) / 2)))
    return best


def transform_scale(t):
    """Pixels per local unit of an affine transform (geometric mean of the axes),
    what scales a shadow's or a backdrop blur's sigma."""
    a, b, c, d, _, _ = t
    return math.sqrt(abs(a * d - b * c))


def blur_scale(t, rect, projection):
    """Pixels per local unit for a backdrop blur's sigma: the transform's scale,
    and under a projection the full map's at the shape's centre, as the
    compositor takes it: sqrt(|det A| |det P| / w^3), A the transform's linear
    part, w the projection's W at the transform's image of the centre (a
    homography's Jacobian determinant is det P / w^3). 0 when the centre is
    behind the eye (the blur then draws nothing)."""
    if projection is None:
        return transform_scale(t)
    a, b, c, d, tx, ty = t
    x, y, width, height = rect
    cx, cy = x + width / 2, y + height / 2
    X, Y = a * cx + c * cy + tx, b * cx + d * cy + ty
    m = projection
    w = X * m[2] + Y * m[5] + m[8]
    if not w >= 1e-6:
        return 0.0
    det_p = (m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
             + m[2] * (m[3] * m[7] - m[4] * m[6]))
    return math.sqrt(abs(a * d - b * c) * abs(det_p) / w ** 3)


def in_plane(items, projection):
    """Nested items of a group with `projection`: their transforms land in the
    group's plane, so each (and each of its clips) gets the projection after
    its own."""
    out = []
    for (t, rect, radius, kind, payload, opacity, clips, p) in items:
        clips = [(ct, cr, crad, projection if cp is None else compose(cp, projection)) for (ct, cr, crad, cp) in clips]
        out.append((t, rect, radius, kind, payload, opacity, clips, projection if p is None else compose(p, projection)))
    return out


class Plan:
    def __init__(self, directory):
        with open(os.path.join(directory, "plan.json")) as f:
            raw = json.load(f)
        if raw.get("format") != "shiftrender-frame-plan" or raw.get("version") != 1:
            raise ValueError("%s is not a version 1 shiftrender frame plan" % directory)
        self.directory = directory
        canvas = raw["canvas"]
        self.width, self.height = canvas["width"], canvas["height"]
        self.background = tuple(canvas["background"])
        self.fps = canvas["framesPerSecond"]
        self.images = [(os.path.join(directory, i["file"]), i["width"], i["height"]) for i in raw["images"]]
        self.snapshots = [(os.path.join(directory, s["file"]), s["width"], s["height"]) for s in raw["snapshots"]]
        self.frames = [[_item(i) for i in f["items"]] for f in raw["frames"]]


def common_arguments(description):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("plan", help="a directory written by `shiftrender plan`")
    parser.add_argument("--warmup", type=int, default=1, help="untimed runs first")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs")
    parser.add_argument("--stride", type=int, default=1, help="draw every k-th frame")
    parser.add_argument("--dump", help="after timing, draw every (strided) frame again and write raw RGBA8 "
                                       "premultiplied frames back to back to this file")
    parser.add_argument("--skip", default="", help="comma-separated paint kinds to leave out (timing and dump), "
                                                    "e.g. shadow,border: what a renderer that lacks them draws "
                                                    "(inside groups too; `group` leaves out whole groups)")
    parser.add_argument("--version", action="store_true", help="print the library version and exit")
    return parser


def skipped_kinds(args):
    kinds = {k.strip() for k in args.skip.split(",") if k.strip()}
    unknown = kinds - {"solid", "image", "snapshot", "border", "shadow", "gradient", "group", "backdropBlur"}
    if unknown:
        raise SystemExit("--skip: unknown paint kind(s) %s" % ", ".join(sorted(unknown)))
    return kinds


def gradient_frame(payload, rect):
    """Where a gradient is evaluated (docs/frame-plan.md): in the unit square of
    the rect, as Core Animation lays it out. Returns (unit, s, d): `unit` the
    (x, y, width, height) that maps the unit square onto the rect, `s` the start
    and `d` end - start, both in unit coordinates."""
    _, _, _, start, end = payload
    x, y, w, h = rect
    s = ((start[0] - x) / w, (start[1] - y) / h)
    d = ((end[0] - start[0]) / w, (end[1] - start[1]) / h)
    return (x, y, w, h), s, d


def gradient_is_solid(payload, d):
    """The colour a gradient fills with when it is one (one stop, or degenerate
    geometry: t = 1, the last colour), else None. Conics are never degenerate."""
    kind, colors = payload[0], payload[1]
    if len(colors) == 1:
        return colors[0]
    if (kind == "axial" and d[0] == 0 and d[1] == 0) or (kind == "radial" and (d[0] == 0 or d[1] == 0)):
        return colors[-1]
    return None


def gradient_color(colors, locations, t, left=False):
    """The straight-alpha colour at `t`: premultiplied interpolation, the first
    colour before the first location, the last after the last; at a repeated
    location the later stop (or, with `left`, the limit from below)."""
    if t < locations[0] or (left and t <= locations[0]):
        return colors[0]
    if t > locations[-1] or (not left and t >= locations[-1]):
        return colors[-1]
    i = 0
    while (locations[i + 1] < t) if left else (locations[i + 1] <= t):
        i += 1
    w = (t - locations[i]) / (locations[i + 1] - locations[i]) if locations[i + 1] > locations[i] else 1.0
    a, b = colors[i], colors[i + 1]
    alpha = a[3] + (b[3] - a[3]) * w
    if alpha <= 0:
        return tuple(a[k] + (b[k] - a[k]) * w for k in range(3)) + (0.0,)
    return tuple((a[k] * a[3] + (b[k] * b[3] - a[k] * a[3]) * w) / alpha for k in range(3)) + (alpha,)


def without_kinds(items, kinds):
    """`items` without those of a kind in `kinds`, inside groups too."""
    out = []
    for item in items:
        if item[3] in kinds:
            continue
        if item[3] == "group":
            item = item[:4] + (without_kinds(item[4], kinds),) + item[5:]
        out.append(item)
    return out


def run(name, version, args, plan, draw_frame, frame_rgba):
    """Times draw_frame(items) over the plan's (strided) frames: warm-up, then
    repeats; prints one JSON line. frame_rgba() returns the current frame as
    RGBA8 premultiplied bytes (for --dump, untimed)."""
    frames = plan.frames[::max(1, args.stride)]
    skip = skipped_kinds(args)
    if skip:
        frames = [without_kinds(f, skip) for f in frames]
    for _ in range(args.warmup):
        for items in frames:
            draw_frame(items)
    walls, cpus = [], []
    for _ in range(args.repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        for items in frames:
            draw_frame(items)
        t1, c1 = time.perf_counter(), time.process_time()
        walls.append(t1 - t0)
        cpus.append(c1 - c0)
    fps = sorted(len(frames) / w for w in walls)
    n = len(fps)
    median = fps[n // 2] if n % 2 else (fps[n // 2 - 1] + fps[n // 2]) / 2
    if args.dump:
        with open(args.dump, "wb") as out:
            for items in frames:
                draw_frame(items)
                out.write(frame_rgba())
    result = {
        "peer": name, "version": version, "plan": plan.directory,
        "width": plan.width, "height": plan.height, "clip_frames": len(plan.frames),
        "frames_per_run": len(frames), "stride": args.stride, "threads": 1,
        "skipped_kinds": sorted(skip),
        "warmup": args.warmup, "repeats": args.repeats,
        "fps_median": median, "fps_min": fps[0], "fps_max": fps[-1],
        "run_seconds": walls, "run_cpu_seconds": cpus,
        "peak_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }
    print(json.dumps(result))
    sys.stdout.flush()
