#!/usr/bin/env python3
"""Draws a shiftrender frame plan with cairo (pycairo, image surface, one
thread) and times the drawing. See benchmarks/README.md.

Semantics of docs/frame-plan.md, item by item, into a premultiplied ARGB32
image surface (cairo blends in sRGB-encoded values, as shiftrender and UIKit
do):
- transforms: cairo.Matrix(a, b, c, d, tx, ty) on the context;
- shapes: rounded rectangles from four arcs, default (grey) anti-aliasing;
- clips: each clip's rounded rect under its own matrix, clip() (intersection);
- solid: the colour with alpha x opacity, fill();
- image / snapshot: a surface pattern whose matrix maps shape.rect onto the
  bitmap (texel centres at (i + 0.5) / width), EXTEND_PAD, FILTER_BILINEAR as
  shiftrender's compositor does today (--mipmaps: FILTER_GOOD, which
  box-filters when minifying); the rounded shape clips and
  paint_with_alpha(opacity) draws;
- border: the shape and the inset shape as one path, even-odd fill;
- shadow: cairo has no blur. The shape is filled into an A8 mask in device
  space (padded by 3 sigma), blurred by three box passes per axis (numpy;
  the usual approximation of a Gaussian of that sigma, within a few per cent),
  then used as a mask for the colour. This is counted in cairo's time, as it
  is the work shadows cost with cairo;
- gradient: a linear or radial pattern (EXTEND_PAD) whose matrix maps
  the item's local units into the unit square of shape.rect, as Core
  Animation lays a gradient out (planfile.gradient_frame); radial is a unit
  circle scaled by end - start per axis. cairo has no conic gradient: a mesh
  pattern of four-sided wedges around the start (one per degree, split at
  every stop so hard stops stay sharp) stands in, each wedge's colour linear
  between its edges (along chords rather than arcs: within a level for
  one-degree wedges). cairo interpolates stops as pixman does, not
  necessarily premultiplied; one colour or degenerate geometry fills with
  the colour drawn there;
- group: after the item's clips, the shape clips; push_group(), the nested
  items drawn (each sets its own full matrix: same target space),
  pop_group_to_source(), paint_with_alpha(opacity) (group opacity:
  overlapping nested items do not show through).
Bitmaps are decoded before timing; the plan is parsed before timing. The
timed loop is the drawing only.
"""
import math, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import planfile  # noqa: E402

try:
    import cairo
except ImportError:
    print("pycairo is not installed (run benchmarks/setup-peers.sh)", file=sys.stderr)
    sys.exit(3)
try:
    import numpy as np
except ImportError:
    print("numpy is not installed (run benchmarks/setup-peers.sh)", file=sys.stderr)
    sys.exit(3)


def rounded_rect(ctx, rect, r):
    x, y, w, h = rect
    if r <= 0:
        ctx.rectangle(x, y, w, h)
        return
    ctx.new_sub_path()
    ctx.arc(x + w - r, y + r, r, -math.pi / 2, 0)
    ctx.arc(x + w - r, y + h - r, r, 0, math.pi / 2)
    ctx.arc(x + r, y + h - r, r, math.pi / 2, math.pi)
    ctx.arc(x + r, y + r, r, math.pi, 3 * math.pi / 2)
    ctx.close_path()


def box_sizes(sigma, n=3):
    """Widths of n box filters whose succession approximates a Gaussian of
    standard deviation sigma (Kovesi's construction, as in W3C filter notes)."""
    ideal = math.sqrt(12 * sigma * sigma / n + 1)
    lower = int(math.floor(ideal))
    if lower % 2 == 0:
        lower -= 1
    upper = lower + 2
    m = round((12 * sigma * sigma - n * lower * lower - 4 * n * lower - 3 * n) / (-4 * lower - 4))
    return [lower if i < m else upper for i in range(n)]


def box_blur(a, width, axis):
    """Moving average of odd `width` along `axis` (zero outside), via a cumulative sum."""
    r = width // 2
    if r <= 0:
        return a
    pad = [(0, 0), (0, 0)]
    pad[axis] = (r + 1, r)
    c = np.cumsum(np.pad(a, pad), axis=axis, dtype=np.float32)
    n = a.shape[axis]
    if axis == 0:
        return (c[width:width + n] - c[:n]) / width
    return (c[:, width:width + n] - c[:, :n]) / width


def main():
    parser = planfile.common_arguments(__doc__.splitlines()[0])
    parser.add_argument("--mipmaps", action="store_true",
                        help="FILTER_GOOD (box filtering when minifying) instead of FILTER_BILINEAR")
    args = parser.parse_args()
    if args.version:
        print(cairo.version)
        return
    plan = planfile.Plan(args.plan)
    images = [cairo.ImageSurface.create_from_png(p) for (p, _, _) in plan.images]
    snapshots = [cairo.ImageSurface.create_from_png(p) for (p, _, _) in plan.snapshots]
    width, height = plan.width, plan.height
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, width, height)
    ctx = cairo.Context(surface)
    Matrix = cairo.Matrix
    identity = Matrix()
    filter_mode = cairo.FILTER_GOOD if args.mipmaps else cairo.FILTER_BILINEAR
    bg = plan.background

    def draw_bitmap(bitmap, rect, radius, opacity):
        x, y, w, h = rect
        sx, sy = bitmap.get_width() / w, bitmap.get_height() / h
        pattern = cairo.SurfacePattern(bitmap)
        pattern.set_matrix(Matrix(sx, 0, 0, sy, -x * sx, -y * sy))  # user space -> bitmap space
        pattern.set_extend(cairo.EXTEND_PAD)
        pattern.set_filter(filter_mode)
        rounded_rect(ctx, rect, radius)
        ctx.clip()
        ctx.set_source(pattern)
        ctx.paint_with_alpha(opacity)

    def draw_shadow(transform, rect, radius, color, sigma, opacity):
        a, b, c, d, tx, ty = transform
        scale = math.sqrt(abs(a * d - b * c))
        device_sigma = sigma * scale
        pad = math.ceil(3 * device_sigma) + 1
        x, y, w, h = rect
        corners = [(a * px + c * py + tx, b * px + d * py + ty) for px in (x, x + w) for py in (y, y + h)]
        x0 = max(0, math.floor(min(p[0] for p in corners)) - pad)
        y0 = max(0, math.floor(min(p[1] for p in corners)) - pad)
        x1 = min(width, math.ceil(max(p[0] for p in corners)) + pad)
        y1 = min(height, math.ceil(max(p[1] for p in corners)) + pad)
        if x1 <= x0 or y1 <= y0:
            return
        # The whole shape, not just its visible part, shapes the blur near the canvas edge.
        mx0 = math.floor(min(p[0] for p in corners)) - pad
        my0 = math.floor(min(p[1] for p in corners)) - pad
        mw = math.ceil(max(p[0] for p in corners)) + pad - mx0
        mh = math.ceil(max(p[1] for p in corners)) + pad - my0
        mask = cairo.ImageSurface(cairo.FORMAT_A8, mw, mh)
        m = cairo.Context(mask)
        m.set_matrix(Matrix(a, b, c, d, tx - mx0, ty - my0))
        rounded_rect(m, rect, radius)
        m.fill()
        mask.flush()
        if device_sigma > 0:
            stride = mask.get_stride()
            buf = np.ndarray((mh, stride), dtype=np.uint8, buffer=mask.get_data())
            v = buf[:, :mw].astype(np.float32)
            for size in box_sizes(device_sigma):
                v = box_blur(v, size, 1)
            for size in box_sizes(device_sigma):
                v = box_blur(v, size, 0)
            buf[:, :mw] = np.clip(v + 0.5, 0, 255).astype(np.uint8)
            mask.mark_dirty()
        r, g, b_, alpha = color
        ctx.set_matrix(identity)
        ctx.set_source_rgba(r, g, b_, alpha * opacity)
        ctx.mask_surface(mask, mx0, my0)

    def gradient_source(payload, rect):
        kind, colors, locations = payload[0], payload[1], payload[2]
        (x, y, w, h), (sx, sy), (dx, dy) = planfile.gradient_frame(payload, rect)
        solid = planfile.gradient_is_solid(payload, (dx, dy))
        if solid is not None:
            return cairo.SolidPattern(*solid)
        to_unit = Matrix(1 / w, 0, 0, 1 / h, -x / w, -y / h)  # user (local) space -> unit square
        if kind == "axial":
            pattern = cairo.LinearGradient(sx, sy, sx + dx, sy + dy)
            pattern.set_matrix(to_unit)
        elif kind == "radial":
            pattern = cairo.RadialGradient(0, 0, 0, 0, 0, 1)
            pattern.set_matrix(to_unit.multiply(Matrix(1 / dx, 0, 0, 1 / dy, -sx / dx, -sy / dy)))
        else:
            return conic_mesh(colors, locations, to_unit, (sx, sy), (dx, dy))
        pattern.set_extend(cairo.EXTEND_PAD)
        for location, color in zip(locations, colors):
            pattern.add_color_stop_rgba(location, *color)
        return pattern

    def conic_mesh(colors, locations, to_unit, s, d):
        angle = math.atan2(d[1], d[0]) if (d[0] or d[1]) else 0.0
        # Unit square -> the conic's own frame (start at the origin, 0 degrees towards the end).
        cos, sin = math.cos(angle), math.sin(angle)
        frame = Matrix(cos, -sin, sin, cos, 0, 0)
        frame = Matrix(1, 0, 0, 1, -s[0], -s[1]).multiply(frame)
        radius = 2 * (1.5 + abs(s[0]) + abs(s[1]))  # beyond every corner of the unit square
        cuts = sorted(set([k / 360 for k in range(361)] + [l for l in locations if 0 < l < 1]))
        mesh = cairo.MeshPattern()
        for t0, t1 in zip(cuts, cuts[1:]):
            c0 = planfile.gradient_color(colors, locations, t0)
            c1 = planfile.gradient_color(colors, locations, t1, left=True)
            a0, a1 = 2 * math.pi * t0, 2 * math.pi * t1
            inner = 1e-6
            mesh.begin_patch()
            mesh.move_to(inner * math.cos(a0), inner * math.sin(a0))
            mesh.line_to(radius * math.cos(a0), radius * math.sin(a0))
            mesh.line_to(radius * math.cos(a1), radius * math.sin(a1))
            mesh.line_to(inner * math.cos(a1), inner * math.sin(a1))
            for corner, color in enumerate((c0, c0, c1, c1)):
                mesh.set_corner_color_rgba(corner, *color)
            mesh.end_patch()
        mesh.set_matrix(to_unit.multiply(frame))
        return mesh

    def draw_group(items, rect, radius, opacity):
        rounded_rect(ctx, rect, radius)
        ctx.clip()
        ctx.push_group()
        draw_items(items)  # each item saves and restores, so the matrix is back to the group's
        ctx.pop_group_to_source()
        ctx.paint_with_alpha(opacity)

    def draw_frame(items):
        ctx.reset_clip()
        ctx.set_matrix(identity)
        ctx.set_operator(cairo.OPERATOR_SOURCE)
        ctx.set_source_rgba(*bg)
        ctx.paint()
        ctx.set_operator(cairo.OPERATOR_OVER)
        draw_items(items)
        surface.flush()

    def draw_items(items):
        for (transform, rect, radius, kind, payload, opacity, clips) in items:
            if opacity <= 0 or rect[2] <= 0 or rect[3] <= 0:
                continue
            ctx.save()
            for (ct, crect, cradius) in clips:
                ctx.set_matrix(Matrix(*ct))
                rounded_rect(ctx, crect, cradius)
                ctx.clip()
            ctx.set_matrix(Matrix(*transform))
            if kind == "solid":
                r, g, b, a = payload
                ctx.set_source_rgba(r, g, b, a * opacity)
                rounded_rect(ctx, rect, radius)
                ctx.fill()
            elif kind == "image":
                draw_bitmap(images[payload], rect, radius, opacity)
            elif kind == "snapshot":
                draw_bitmap(snapshots[payload], rect, radius, opacity)
            elif kind == "border":
                bw, (r, g, b, a) = payload
                x, y, w, h = rect
                ctx.set_source_rgba(r, g, b, a * opacity)
                rounded_rect(ctx, rect, radius)
                if 2 * bw < min(w, h):
                    inner = (x + bw, y + bw, w - 2 * bw, h - 2 * bw)
                    rounded_rect(ctx, inner, planfile.clamp_radius(inner, max(0.0, radius - bw)))
                    ctx.set_fill_rule(cairo.FILL_RULE_EVEN_ODD)
                ctx.fill()
            elif kind == "shadow":
                color, sigma = payload
                draw_shadow(transform, rect, radius, color, sigma, opacity)
            elif kind == "gradient":
                rounded_rect(ctx, rect, radius)
                ctx.clip()
                ctx.set_source(gradient_source(payload, rect))
                ctx.paint_with_alpha(opacity)
            elif kind == "group":
                draw_group(payload, rect, radius, opacity)
            ctx.restore()

    def frame_rgba():
        stride = surface.get_stride()
        bgra = np.ndarray((height, stride // 4, 4), dtype=np.uint8, buffer=surface.get_data())[:, :width]
        return np.ascontiguousarray(bgra[:, :, [2, 1, 0, 3]]).tobytes()  # little-endian ARGB32 -> RGBA

    planfile.run("cairo", "%s (cairo %s)" % (cairo.version, cairo.cairo_version_string()),
                 args, plan, draw_frame, frame_rgba)


if __name__ == "__main__":
    main()
