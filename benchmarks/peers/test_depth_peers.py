#!/usr/bin/env python3
"""Self-check of the peers' 3-D projection and backdrop blur (issue 17): small
hand-written frame plans, drawn by skia_render.py and cairo_render.py, checked
against numbers worked out from Core Animation's matrices and the Gaussian,
and against each other.

    benchmarks/.venv/bin/python benchmarks/peers/test_depth_peers.py

(run with plain python3 it re-runs itself with benchmarks/.venv/bin/python
when skia/cairo are missing). Prints one line per check; exits 1 on failure.
"""
import json, math, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
VENV_PYTHON = os.path.join(os.path.dirname(HERE), ".venv", "bin", "python")
try:
    import numpy as np
    import skia  # noqa: F401
    import cairo  # noqa: F401
except ImportError:
    if os.path.exists(VENV_PYTHON) and os.path.realpath(sys.prefix) != os.path.realpath(os.path.dirname(
            os.path.dirname(VENV_PYTHON))):
        os.execv(VENV_PYTHON, [VENV_PYTHON] + sys.argv)
    raise SystemExit("skia-python, pycairo and numpy are needed (benchmarks/setup-peers.sh)")

sys.path.insert(0, HERE)
import planfile  # noqa: E402

failures = []


def check(name, ok, detail):
    print("%s  %s: %s" % ("ok  " if ok else "FAIL", name, detail))
    if not ok:
        failures.append(name)


# -- Core Animation's matrices (row vectors: (x, y, z, 1) * M), as Transform3D does --------

def mat4_mul(a, b):
    return [[sum(a[r][k] * b[k][c] for k in range(4)) for c in range(4)] for r in range(4)]


def translation(x, y, z):
    return [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [x, y, z, 1]]


def rotation_y(degrees):
    # CATransform3DMakeRotation(angle, 0, 1, 0): rows (c, 0, -s), (0, 1, 0), (s, 0, c).
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return [[c, 0, -s, 0], [0, 1, 0, 0], [s, 0, c, 0], [0, 0, 0, 1]]


def perspective(d):
    m = translation(0, 0, 0)
    m[2][3] = -1.0 / d  # m34
    return m


def flattened(m):
    """Rows and columns 1, 2 and 4: the homography of the z = 0 plane."""
    return tuple(m[r][c] for r in (0, 1, 3) for c in (0, 1, 3))


def layer_projection(width, height, centre, degrees, distance):
    """A layer of `width` x `height` with its anchor at its centre, positioned
    at `centre`, transform rotateY(degrees) then perspective(distance): the map
    from its bounds (origin top left) to the superlayer."""
    m = translation(-width / 2, -height / 2, 0)
    for step in (rotation_y(degrees), perspective(distance), translation(centre[0], centre[1], 0)):
        m = mat4_mul(m, step)
    return flattened(m)


# -- plans and peers ----------------------------------------------------------------------

def item(rect, paint, transform=(1, 0, 0, 1, 0, 0), opacity=1, radius=0, projection=None, clips=()):
    out = {"transform": list(transform), "shape": {"rect": list(rect), "cornerRadius": radius},
           "paint": paint, "opacity": opacity, "clips": list(clips)}
    if projection is not None:
        out["projection"] = list(projection)
    return out


def draw(peer, width, height, items, background=(0, 0, 0, 1)):
    """The peer's frame as float RGBA (premultiplied, 0...255), H x W x 4."""
    with tempfile.TemporaryDirectory() as directory:
        plan = {"format": "shiftrender-frame-plan", "version": 1,
                "canvas": {"width": width, "height": height, "background": list(background), "framesPerSecond": 60},
                "frameCount": 1, "images": [], "snapshots": [], "frames": [{"index": 0, "time": 0, "items": items}]}
        with open(os.path.join(directory, "plan.json"), "w") as f:
            json.dump(plan, f)
        dump = os.path.join(directory, "frame.rgba")
        subprocess.run([sys.executable, os.path.join(HERE, peer + "_render.py"), directory, "--warmup", "0",
                        "--repeats", "1", "--dump", dump], check=True, stdout=subprocess.DEVNULL)
        return np.fromfile(dump, dtype=np.uint8).reshape(height, width, 4).astype(np.float64)


def psnr(a, b):
    mse = np.mean((a[..., :3] - b[..., :3]) ** 2)
    return math.inf if mse == 0 else 10 * math.log10(255 ** 2 / mse)


def both(name, width, height, items, **kwargs):
    frames = {peer: draw(peer, width, height, items, **kwargs) for peer in ("skia", "cairo")}
    p = psnr(frames["skia"], frames["cairo"])
    check(name + ": the peers agree", p > 35, "PSNR skia vs cairo %.2f dB (> 35)" % p)
    return frames


# -- checks ---------------------------------------------------------------------------------

def check_matrix_order():
    # skia_render.sk_matrix transposes the row-vector 3x3; a point maps as (x, y, 1) * M.
    import skia_render
    h = layer_projection(200, 150, (200, 150), 60, 500)
    worst = 0.0
    for (x, y) in ((0, 0), (200, 0), (200, 150), (0, 150), (37, 91)):
        X, Y, W = planfile.homogeneous(h, x, y)
        mapped = skia_render.sk_matrix(h).mapXY(x, y)
        worst = max(worst, abs(mapped.x() - X / W), abs(mapped.y() - Y / W))
    check("SkMatrix from the row-vector homography", worst < 1e-3, "largest difference %.2g px" % worst)


def check_rotate_y():
    # A 200 x 150 layer centred at (200, 150), rotateY 60 degrees, perspective 500. Relative to
    # the anchor, (x, y, 0, 1) -> (x cos 60, y, -x sin 60, 1 + x sin 60 / 500): W = 1 + x * 0.0017321.
    #   right edge x = +100: W = 1.17321, X = 50 / 1.17321 = 42.62, half height 75 / 1.17321 = 63.93
    #   left edge  x = -100: W = 0.82679, X = -50 / 0.82679 = -60.47, half height 75 / 0.82679 = 90.71
    # So the image spans x 139.53 ... 242.62 (width 103.09), the left edge 181.42 high, the right 127.85.
    s60 = math.sin(math.radians(60))
    w_right, w_left = 1 + 100 * s60 / 500, 1 - 100 * s60 / 500
    left, right = 200 - 50 / w_left, 200 + 50 / w_right
    h_left, h_right = 150 / w_left, 150 / w_right
    h = layer_projection(200, 150, (200, 150), 60, 500)
    frames = both("rotateY 60, perspective 500", 400, 300,
                  [item((0, 0, 200, 150), {"solid": [1, 1, 1, 1]}, projection=h)])
    for peer, frame in frames.items():
        coverage = frame[..., 0] / 255
        width = coverage[150].sum()  # row through the centre: its coverage is the width
        # Column heights just inside each edge, against the straight top and bottom edges there.
        def height_at(x):
            return h_left + (h_right - h_left) * (x - left) / (right - left)
        cl, cr = math.floor(left) + 2, math.floor(right) - 2
        got_l, got_r = coverage[:, cl].sum(), coverage[:, cr].sum()
        want_l, want_r = height_at(cl + 0.5), height_at(cr + 0.5)
        ok = abs(width - (right - left)) < 0.25 and abs(got_l - want_l) < 0.25 and abs(got_r - want_r) < 0.25
        check("rotateY 60 (%s): width and edge heights" % peer, ok,
              "width %.2f (CA %.2f); column %d %.2f (CA %.2f); column %d %.2f (CA %.2f)" % (
                  width, right - left, cl, got_l, want_l, cr, got_r, want_r))


def check_projected_group():
    # A group (opacity 0.5) of two overlapping solids, rotated about y by -40 degrees: drawn flat,
    # then projected. Where they overlap only the top one shows, at half strength.
    h = layer_projection(240, 160, (200, 150), -40, 400)
    nested = [item((0, 0, 160, 160), {"solid": [1, 0, 0, 1]}), item((80, 0, 160, 160), {"solid": [0, 0, 1, 1]})]
    group = item((0, 0, 240, 160), {"group": nested}, opacity=0.5, projection=h)
    frames = both("projected group", 400, 300, [group], background=(1, 1, 1, 1))
    # The plane point (120, 80) (inside both, the blue one on top) lands at the projected centre.
    X, Y, W = planfile.homogeneous(h, 120, 80)
    for peer, frame in frames.items():
        pixel = frame[int(Y / W), int(X / W)]
        want = (127.5, 127.5, 255)  # blue at 0.5 over white: R = G = 0.5 * 255, B = 255
        ok = max(abs(pixel[0] - want[0]), abs(pixel[1] - want[1]), abs(pixel[2] - want[2])) <= 2
        check("projected group (%s): group opacity" % peer, ok, "centre pixel %s, want %s" % (
            tuple(int(v) for v in pixel[:3]), want))


def check_behind_eye():
    # Entirely behind the eye: (x, y, 1) * diag(1, 1, -1) has W = -1 everywhere: nothing is drawn.
    behind = (1, 0, 0, 0, 1, 0, 0, 0, -1)
    # Crossing the eye plane: a 400 x 100 layer at (200, 150), rotateY 80, perspective 100:
    # W = 1 + x sin 80 / 100 (x from the centre) is <= 0 for x <= -101.5, the left half.
    # The front part's right edge, x = 200: W = 1 + 200 * 0.98481 / 100 = 2.96962,
    # X = 200 + 200 * cos 80 / 2.96962 = 200 + 34.73 / 2.96962 = 211.70; the part behind the eye
    # (x = -200: W = -0.96962, X = 200 + 35.82) would land right of that if it were not cut.
    crossing = layer_projection(400, 100, (200, 150), 80, 100)
    right_edge = 200 + 200 * math.cos(math.radians(80)) / (1 + 200 * math.sin(math.radians(80)) / 100)
    items = [item((0, 0, 100, 100), {"solid": [1, 1, 1, 1]}, projection=behind),
             item((0, 0, 400, 100), {"solid": [1, 1, 1, 1]}, projection=crossing)]
    frames = both("behind the eye", 400, 300, items)
    for peer, frame in frames.items():
        beyond = frame[:, math.ceil(right_edge) + 1:, :3].max()
        drawn = frame[150, :math.floor(right_edge) - 1, 0].min()
        ok = beyond == 0 and drawn == 255 and np.isfinite(frame).all()
        check("behind the eye (%s)" % peer, ok,
              "max right of x = %.2f: %d (want 0); row 150 left of it min %d (want 255: the front part, "
              "to the canvas edge)" % (right_edge, beyond, drawn))


def check_backdrop_blur():
    # Black | white step at x = 100 (black background, white x >= 100), a backdrop blur of sigma 5 over
    # (20, 10, 160, 80): inside, row 50 follows 0.5 * (1 + erf((x + 0.5 - 100) / (5 sqrt 2))).
    sigma = 5.0
    items = [item((100, 0, 100, 100), {"solid": [1, 1, 1, 1]}),
             item((20, 10, 160, 80), {"backdropBlur": {"sigma": sigma}})]
    frames = both("backdrop blur", 200, 100, items)
    xs = np.arange(22, 178)
    want = np.array([127.5 * (1 + math.erf((x + 0.5 - 100) / (sigma * math.sqrt(2)))) for x in xs])
    for peer, frame in frames.items():
        error = np.abs(frame[50, 22:178, 0] - want).max()
        outside = max(frame[50, 10, 0], 255 - frame[50, 190, 0])  # beyond the shape: untouched
        check("backdrop blur step (%s)" % peer, error <= 2 and outside == 0,
              "largest difference from the erf profile %.2f/255 (<= 2); outside the shape %d off" % (error, outside))
    # Opacity 0.5 and the canvas edge: blur the whole 200 x 100 canvas at half strength, sigma 2 px in local
    # units under a 2x scale (4 px). Clamp: the rightmost column stays white (255), the leftmost black;
    # at the step, dst = 0.5 * blurred + 0.5 * dst: x = 100 was 255, blurred 0.5 * (1 + erf(0.5 / (4 sqrt 2)))
    # = 0.54974 * 255 = 140.18, so 0.5 * 140.18 + 0.5 * 255 = 197.59.
    items = [item((100, 0, 100, 100), {"solid": [1, 1, 1, 1]}),
             item((0, 0, 100, 50), {"backdropBlur": {"sigma": 2}}, transform=(2, 0, 0, 2, 0, 0), opacity=0.5)]
    frames = both("backdrop blur at half opacity", 200, 100, items)
    blurred = 255 * 0.5 * (1 + math.erf(0.5 / (4 * math.sqrt(2))))
    for peer, frame in frames.items():
        step = frame[50, 100, 0]
        # (Skia blends in two 8-bit passes, kDstOut then kPlus: a level of rounding.)
        ok = abs(step - (0.5 * blurred + 127.5)) <= 2 and frame[50, 199, 0] >= 254 and frame[50, 0, 0] <= 1
        check("backdrop blur opacity and clamp (%s)" % peer, ok,
              "x = 100: %.0f (want %.2f); x = 199: %.0f (255, one level of rounding allowed); x = 0: %.0f (0)" % (
                  step, 0.5 * blurred + 127.5, frame[50, 199, 0], frame[50, 0, 0]))
    # Inside a group's layer a backdrop blur draws nothing.
    items = [item((100, 0, 100, 100), {"solid": [1, 1, 1, 1]}),
             item((0, 0, 200, 100), {"group": [item((20, 10, 160, 80), {"backdropBlur": {"sigma": 5}})]})]
    for peer in ("skia", "cairo"):
        frame = draw(peer, 200, 100, items)
        ok = frame[50, 99, 0] == 0 and frame[50, 100, 0] == 255
        check("backdrop blur in a group draws nothing (%s)" % peer, ok,
              "x = 99, 100: %d, %d (0, 255)" % (frame[50, 99, 0], frame[50, 100, 0]))


def check_projected_blur():
    # A backdrop blur under the rotateY 60 projection blurs the step inside the projected quad only.
    h = layer_projection(200, 150, (200, 150), 60, 500)
    items = [item((200, 0, 200, 300), {"solid": [1, 1, 1, 1]}),
             item((0, 0, 200, 150), {"backdropBlur": {"sigma": 4}}, projection=h)]
    both("projected backdrop blur", 400, 300, items)


def main():
    check_matrix_order()
    check_rotate_y()
    check_projected_group()
    check_behind_eye()
    check_backdrop_blur()
    check_projected_blur()
    print("%d failed" % len(failures) if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
