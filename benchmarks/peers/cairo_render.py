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
- projection (3-D): cairo has no perspective. The item is drawn flat in its
  plane into a raster at the projection's largest scale, and every target
  pixel centre is mapped back through the inverse homography and sampled
  bilinearly in numpy, W < 1e-6 masked (Painter.projected);
- backdropBlur: a separable Gaussian in numpy on premultiplied floats (cut at
  3 sigma, edges clamped) blended by the shape's coverage times the opacity;
  inside a group it draws nothing.
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


def surface_array(surface):
    """The pixels of an ARGB32 or A8 image surface as a numpy view (rows x width[, 4]),
    premultiplied, in memory order (B, G, R, A on little-endian)."""
    surface.flush()
    w, h, stride = surface.get_width(), surface.get_height(), surface.get_stride()
    if surface.get_format() == cairo.FORMAT_A8:
        return np.ndarray((h, stride), dtype=np.uint8, buffer=surface.get_data())[:, :w]
    return np.ndarray((h, stride // 4, 4), dtype=np.uint8, buffer=surface.get_data())[:, :w]


def gaussian_blur(pixels, x0, y0, x1, y1, sigma):
    """The premultiplied float pixels (H x W x C) in [y0, y1) x [x0, x1), blurred
    by a separable Gaussian of std dev `sigma` px, cut at 3 sigma and
    normalised; outside the image the edge pixels repeat (clamp)."""
    r = max(1, math.ceil(3 * sigma))
    weights = np.exp(-0.5 * (np.arange(-r, r + 1) / sigma) ** 2)
    weights /= weights.sum()
    h, w = pixels.shape[:2]
    ys = np.clip(np.arange(y0 - r, y1 + r), 0, h - 1)
    xs = np.clip(np.arange(x0 - r, x1 + r), 0, w - 1)
    source = pixels[ys][:, xs]
    across = np.zeros((source.shape[0], x1 - x0) + source.shape[2:], dtype=np.float64)
    for k, weight in enumerate(weights):
        across += weight * source[:, k:k + x1 - x0]
    out = np.zeros((y1 - y0, x1 - x0) + source.shape[2:], dtype=np.float64)
    for k, weight in enumerate(weights):
        out += weight * across[k:k + y1 - y0]
    return out


def sample_bilinear(flat, sx, sy):
    """Bilinear samples of the float image `flat` (H x W x C) at pixel
    coordinates (sx, sy) (pixel centres at integer + 0.5), zero outside."""
    h, w = flat.shape[:2]
    padded = np.zeros((h + 2, w + 2) + flat.shape[2:], dtype=flat.dtype)
    padded[1:-1, 1:-1] = flat
    fx, fy = sx - 0.5 + 1, sy - 0.5 + 1
    fx = np.clip(fx, 0, w + 0.999)  # beyond the padding ring: zero anyway
    fy = np.clip(fy, 0, h + 0.999)
    ix, iy = np.floor(fx).astype(np.int64), np.floor(fy).astype(np.int64)
    tx, ty = (fx - ix)[..., None], (fy - iy)[..., None]
    ix1, iy1 = np.minimum(ix + 1, w + 1), np.minimum(iy + 1, h + 1)
    top = padded[iy, ix] * (1 - tx) + padded[iy, ix1] * tx
    bottom = padded[iy1, ix] * (1 - tx) + padded[iy1, ix1] * tx
    return top * (1 - ty) + bottom * ty


class Painter:
    """Draws plan items with cairo onto one image surface whose pixels are
    `base` (an affine map) of the items' target space: the identity for the
    frame, a scale and offset for the flat raster of a projected item's plane.

    Projection (cairo has no perspective): `projected` draws the item flat in
    its plane, with this same Painter code, into an ARGB32 raster at the
    projection's largest scale over the part that is in front of the eye and
    on the canvas (planfile.visible_polygon), then maps every target pixel
    centre in that part's bounds back into the plane (inverse homography),
    samples the raster bilinearly and masks out W < NEAR_W. Clips with a
    projection become coverage masks the same way. The result is composited
    (premultiplied source-over) in numpy."""

    def __init__(self, surface, bitmaps, base, filter_mode, top_level):
        self.surface, self.ctx = surface, cairo.Context(surface)
        self.width, self.height = surface.get_width(), surface.get_height()
        self.images, self.snapshots = bitmaps
        self.base = base
        self.filter_mode = filter_mode
        self.top_level = top_level  # the frame itself: backdrop blurs read it
        self.box = (-4.0, -4.0, self.width + 4.0, self.height + 4.0)

    def matrix(self, t):
        return cairo.Matrix(*t).multiply(cairo.Matrix(*self.base))

    def full(self, t):
        """An affine item transform as this surface's 6 numbers."""
        m = self.matrix(t)
        return (m.xx, m.yx, m.xy, m.yy, m.x0, m.y0)

    def target_map(self, t, projection):
        """Local -> this surface's pixels (3x3)."""
        return planfile.compose(planfile.item_map(t, projection), planfile.affine_map(self.base))

    # -- items --------------------------------------------------------------------

    def draw_items(self, items, in_group=False):
        for item in items:
            (transform, rect, radius, kind, payload, opacity, clips, projection) = item
            if opacity <= 0 or rect[2] <= 0 or rect[3] <= 0:
                continue
            if kind == "backdropBlur":
                if not in_group and self.top_level:
                    self.draw_backdrop_blur(item)
                continue  # inside a group's layer (or a flat raster): nothing
            flat_clips = [c for c in clips if c[3] is None]
            projected_clips = [c for c in clips if c[3] is not None]
            if projection is None and not projected_clips:
                self.draw_item(item)
                continue
            bare = item[:6] + ([], None)
            if projection is None:
                layer = self.flat_layer(bare)
            else:
                layer = self.projected(lambda painter: painter.draw_item(bare),
                                       self.paint_polygon(item), projection)
            if layer is None:
                continue
            x0, y0, pixels = layer
            mask = self.clip_mask(clips, x0, y0, pixels.shape[1], pixels.shape[0])
            if mask is not None:
                self.composite(x0, y0, pixels * mask[..., None])

    def paint_polygon(self, item):
        """The item's paint rect (a shadow's grown by 3 sigma) under its
        transform: where it draws in its plane."""
        (transform, rect, radius, kind, payload, opacity, clips, projection) = item
        grow = 3 * payload[1] if kind == "shadow" else 0.0
        m = planfile.affine_map(transform)
        return [planfile.homogeneous(m, x, y)[:2] for (x, y) in planfile.rect_polygon(rect, grow)]

    def draw_item(self, item):
        (transform, rect, radius, kind, payload, opacity, clips, projection) = item
        ctx = self.ctx
        ctx.save()
        for (ct, crect, cradius, _) in clips:
            ctx.set_matrix(self.matrix(ct))
            rounded_rect(ctx, crect, cradius)
            ctx.clip()
        ctx.set_matrix(self.matrix(transform))
        if kind == "solid":
            r, g, b, a = payload
            ctx.set_source_rgba(r, g, b, a * opacity)
            rounded_rect(ctx, rect, radius)
            ctx.fill()
        elif kind == "image":
            self.draw_bitmap(self.images[payload], rect, radius, opacity)
        elif kind == "snapshot":
            self.draw_bitmap(self.snapshots[payload], rect, radius, opacity)
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
            self.draw_shadow(self.full(transform), rect, radius, color, sigma, opacity)
        elif kind == "gradient":
            rounded_rect(ctx, rect, radius)
            ctx.clip()
            ctx.set_source(gradient_source(payload, rect))
            ctx.paint_with_alpha(opacity)
        elif kind == "group":
            rounded_rect(ctx, rect, radius)
            ctx.clip()
            ctx.push_group()
            self.draw_items(payload, in_group=True)  # each item saves and restores its own state
            ctx.pop_group_to_source()
            ctx.paint_with_alpha(opacity)
        ctx.restore()

    def draw_bitmap(self, bitmap, rect, radius, opacity):
        ctx = self.ctx
        x, y, w, h = rect
        sx, sy = bitmap.get_width() / w, bitmap.get_height() / h
        pattern = cairo.SurfacePattern(bitmap)
        pattern.set_matrix(cairo.Matrix(sx, 0, 0, sy, -x * sx, -y * sy))  # user space -> bitmap space
        pattern.set_extend(cairo.EXTEND_PAD)
        pattern.set_filter(self.filter_mode)
        rounded_rect(ctx, rect, radius)
        ctx.clip()
        ctx.set_source(pattern)
        ctx.paint_with_alpha(opacity)

    def draw_shadow(self, transform, rect, radius, color, sigma, opacity):
        ctx, width, height = self.ctx, self.width, self.height
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
        m.set_matrix(cairo.Matrix(a, b, c, d, tx - mx0, ty - my0))
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
        ctx.set_matrix(cairo.Matrix())
        ctx.set_source_rgba(r, g, b_, alpha * opacity)
        ctx.mask_surface(mask, mx0, my0)

    # -- projection ---------------------------------------------------------------

    def projected(self, draw_flat, polygon, projection):
        """(x0, y0, pixels): what `draw_flat(painter)` draws in the plane of
        `projection`, mapped onto this surface; pixels are premultiplied floats
        in 0...1 over the target box [x0, x0 + w) x [y0, y0 + h), zero where the
        plane is behind the eye. `polygon`: where in the plane the drawing can
        be non-zero. None when none of it is in front of the eye on the surface."""
        m = planfile.compose(projection, planfile.affine_map(self.base))
        window = planfile.visible_polygon(m, polygon, self.box)
        if not window:
            return None
        image = planfile.project(m, window)
        x0 = max(0, math.floor(min(p[0] for p in image)))
        y0 = max(0, math.floor(min(p[1] for p in image)))
        x1 = min(self.width, math.ceil(max(p[0] for p in image)))
        y1 = min(self.height, math.ceil(max(p[1] for p in image)))
        inverse = planfile.inverse(m)
        if x1 <= x0 or y1 <= y0 or inverse is None:
            return None
        # The flat raster: the window's plane bounds at the largest density the map reaches there.
        px0, py0 = min(p[0] for p in window), min(p[1] for p in window)
        px1, py1 = max(p[0] for p in window), max(p[1] for p in window)
        density = max(planfile.largest_scale(m, window), 1e-6)
        density = min(density, 4096 / max(px1 - px0, py1 - py0, 1e-9))
        margin = 2 / density
        px0, py0, px1, py1 = px0 - margin, py0 - margin, px1 + margin, py1 + margin
        fw, fh = max(1, math.ceil((px1 - px0) * density)), max(1, math.ceil((py1 - py0) * density))
        flat_surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, fw, fh)
        flat = Painter(flat_surface, (self.images, self.snapshots),
                       (density, 0, 0, density, -px0 * density, -py0 * density), self.filter_mode, False)
        draw_flat(flat)
        flat_pixels = surface_array(flat_surface).astype(np.float32) / 255
        # Every target pixel centre back into the plane.
        u, v = np.meshgrid(np.arange(x0, x1) + 0.5, np.arange(y0, y1) + 0.5)
        i = inverse
        X, Y, Wh = u * i[0] + v * i[3] + i[6], u * i[1] + v * i[4] + i[7], u * i[2] + v * i[5] + i[8]
        with np.errstate(divide="ignore", invalid="ignore"):
            qx, qy = X / Wh, Y / Wh
            w_forward = qx * m[2] + qy * m[5] + m[8]  # W of the plane point: in front of the eye?
        front = np.isfinite(qx) & np.isfinite(qy) & (w_forward >= planfile.NEAR_W)
        qx, qy = np.where(front, qx, px0 - 1e3), np.where(front, qy, py0 - 1e3)
        pixels = sample_bilinear(flat_pixels, (qx - px0) * density, (qy - py0) * density)
        pixels[~front] = 0
        return x0, y0, pixels

    def flat_layer(self, item):
        """An unprojected item drawn alone onto a transparent copy of the
        surface: (0, 0, pixels), for clipping by projected clips."""
        scratch = cairo.ImageSurface(cairo.FORMAT_ARGB32, self.width, self.height)
        painter = Painter(scratch, (self.images, self.snapshots), self.base, self.filter_mode, False)
        painter.draw_item(item)
        return 0, 0, surface_array(scratch).astype(np.float32) / 255

    def clip_mask(self, clips, x0, y0, w, h):
        """The clips' coverage (0...1) over the box, or None when a clip leaves nothing."""
        mask = np.ones((h, w), dtype=np.float32)
        flat = [c for c in clips if c[3] is None]
        if flat:
            a8 = cairo.ImageSurface(cairo.FORMAT_A8, w, h)
            m = cairo.Context(a8)
            for (ct, crect, cradius, _) in flat:
                m.set_matrix(self.matrix(ct).multiply(cairo.Matrix(1, 0, 0, 1, -x0, -y0)))
                rounded_rect(m, crect, cradius)
                m.clip()
            m.paint()
            mask *= surface_array(a8).astype(np.float32) / 255
        for (ct, crect, cradius, cprojection) in clips:
            if cprojection is None:
                continue
            def fill_clip(painter, ct=ct, crect=crect, cradius=cradius):
                painter.ctx.set_matrix(painter.matrix(ct))
                rounded_rect(painter.ctx, crect, cradius)
                painter.ctx.set_source_rgba(1, 1, 1, 1)
                painter.ctx.fill()
            cm = planfile.affine_map(ct)
            polygon = [planfile.homogeneous(cm, x, y)[:2] for (x, y) in planfile.rect_polygon(crect)]
            layer = self.projected(fill_clip, polygon, cprojection)
            if layer is None:
                return None
            lx, ly, coverage = layer
            full = np.zeros((h, w), dtype=np.float32)
            ax0, ay0 = max(lx, x0), max(ly, y0)
            ax1, ay1 = min(lx + coverage.shape[1], x0 + w), min(ly + coverage.shape[0], y0 + h)
            if ax1 > ax0 and ay1 > ay0:
                full[ay0 - y0:ay1 - y0, ax0 - x0:ax1 - x0] = coverage[ay0 - ly:ay1 - ly, ax0 - lx:ax1 - lx, 3]
            mask *= full
        return mask

    def composite(self, x0, y0, source):
        """Premultiplied source-over of float pixels onto the surface at (x0, y0)."""
        h, w = source.shape[:2]
        target = surface_array(self.surface)[y0:y0 + h, x0:x0 + w]
        dst = target.astype(np.float32) / 255
        out = source + dst * (1 - source[..., 3:4])
        target[...] = np.clip(out * 255 + 0.5, 0, 255).astype(np.uint8)
        self.surface.mark_dirty()

    # -- backdrop blur ------------------------------------------------------------

    def draw_backdrop_blur(self, item):
        """dst = blurred * a + dst * (1 - a) inside the shape and clips, with a
        the opacity times the shape's and clips' coverage."""
        (transform, rect, radius, kind, sigma, opacity, clips, projection) = item
        device_sigma = sigma * planfile.blur_scale(transform, rect, projection) * planfile.transform_scale(self.base)
        if not (device_sigma > 0 and math.isfinite(device_sigma)):
            return  # sigma 0: the target itself, unchanged
        bare = item[:3] + ("solid", (1.0, 1.0, 1.0, 1.0), 1.0, [], None)
        if projection is None:
            _, _, shape = self.flat_layer(bare)
            x0 = y0 = 0
        else:
            layer = self.projected(lambda painter: painter.draw_item(bare), self.paint_polygon(item), projection)
            if layer is None:
                return
            x0, y0, shape = layer
        coverage = shape[..., 3]
        mask = self.clip_mask(clips, x0, y0, coverage.shape[1], coverage.shape[0])
        if mask is None:
            return
        coverage = coverage * mask * opacity
        rows, cols = np.nonzero(coverage > 0)
        if rows.size == 0:
            return
        by0, by1, bx0, bx1 = rows.min(), rows.max() + 1, cols.min(), cols.max() + 1
        pixels = surface_array(self.surface)
        blurred = gaussian_blur(pixels.astype(np.float64) / 255, x0 + bx0, y0 + by0, x0 + bx1, y0 + by1, device_sigma)
        a = coverage[by0:by1, bx0:bx1, None]
        target = pixels[y0 + by0:y0 + by1, x0 + bx0:x0 + bx1]
        out = blurred * a + target.astype(np.float64) / 255 * (1 - a)
        target[...] = np.clip(out * 255 + 0.5, 0, 255).astype(np.uint8)
        self.surface.mark_dirty()


def gradient_source(payload, rect):
    Matrix = cairo.Matrix
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
    Matrix = cairo.Matrix
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
    painter = Painter(surface, (images, snapshots), (1, 0, 0, 1, 0, 0),
                      cairo.FILTER_GOOD if args.mipmaps else cairo.FILTER_BILINEAR, True)
    ctx = painter.ctx
    bg = plan.background

    def draw_frame(items):
        ctx.reset_clip()
        ctx.set_matrix(cairo.Matrix())
        ctx.set_operator(cairo.OPERATOR_SOURCE)
        ctx.set_source_rgba(*bg)
        ctx.paint()
        ctx.set_operator(cairo.OPERATOR_OVER)
        painter.draw_items(items)
        surface.flush()

    def frame_rgba():
        stride = surface.get_stride()
        bgra = np.ndarray((height, stride // 4, 4), dtype=np.uint8, buffer=surface.get_data())[:, :width]
        return np.ascontiguousarray(bgra[:, :, [2, 1, 0, 3]]).tobytes()  # little-endian ARGB32 -> RGBA

    planfile.run("cairo", "%s (cairo %s)" % (cairo.version, cairo.cairo_version_string()),
                 args, plan, draw_frame, frame_rgba)


if __name__ == "__main__":
    main()
