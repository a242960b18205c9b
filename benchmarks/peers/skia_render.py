#!/usr/bin/env python3
"""Draws a shiftrender frame plan with Skia (skia-python, CPU raster backend,
one thread) and times the drawing. See benchmarks/README.md.

Semantics of docs/frame-plan.md, item by item, into a premultiplied
N32 surface without a colour space (Skia's legacy mode: blending in sRGB-encoded
values, as shiftrender and UIKit do):
- transforms: SkMatrix::MakeAll(a, c, tx, b, d, ty, 0, 0, 1) on the canvas;
- shapes: SkRRect with circular corners, anti-aliased;
- clips: each clip's rounded rect under its own matrix, clipRRect(intersect, AA);
- solid: the colour with alpha x opacity;
- image / snapshot: drawImageRect of the whole bitmap onto shape.rect (texel
  centres at (i + 0.5) / width, edges clamped), bilinear filtering as
  shiftrender's compositor does today (--mipmaps: trilinear), alpha =
  opacity, inside the rounded shape as an anti-aliased clip;
- border: drawDRRect(shape, shape inset by width with radius max(0, r - w));
- shadow: the rounded rect filled with the colour through a normal blur mask
  filter of sigma `sigma` in local units (Skia scales it by the matrix);
- gradient: a linear, radial or sweep gradient shader (clamped, colours
  interpolated premultiplied) whose local matrix maps the unit square onto
  shape.rect, as Core Animation lays a gradient out (planfile.gradient_frame):
  radial is a unit circle scaled by end - start per axis (an ellipse), sweep
  is rotated to start at end - start (Skia's sweep runs clockwise with y
  down, as CAGradientLayer's conic does); one colour or degenerate geometry
  fills with the colour drawn there;
- group: after the item's clips, the shape as an anti-aliased clip, then
  saveLayer(shape bounds, a paint of alpha `opacity`), the nested items drawn
  (each sets its own full matrix: same target space), restore() blends the
  layer (group opacity: overlapping nested items do not show through).
- projection (3-D): the item under its local -> target homography as a
  perspective SkMatrix (the row-vector 3x3 transposed: sk_matrix), its
  geometry first cut (path ops) to the part in front of the eye and near the
  canvas; a projected group draws its nested items with the projection after
  their own transforms inside a saveLayer; a projected shadow is blurred flat
  in an offscreen of its plane and drawn in perspective;
- backdropBlur: snapshot, exact separable Gaussian (MatrixConvolution, canvas
  edges repeated), dst = blurred * a + dst * (1 - a) inside the clip (see
  draw_backdrop_blur); inside a group it draws nothing.
Bitmaps are decoded (and their mipmaps built) before timing; the plan is
parsed before timing. The timed loop is the drawing only.
"""
import math, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import planfile  # noqa: E402

try:
    import skia
except ImportError:
    print("skia-python is not installed (run benchmarks/setup-peers.sh)", file=sys.stderr)
    sys.exit(3)


def sk_matrix(m):
    """A 3x3 map in Core Animation's row-vector order ((x, y, 1) * M) as an
    SkMatrix, which multiplies column vectors (M^T * (x, y, 1)^T): the transpose."""
    return skia.Matrix.MakeAll(m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8])


def load_bitmap(path, mipmaps):
    image = skia.Image.MakeFromEncoded(skia.Data.MakeFromFileName(path))
    if image is None:
        raise SystemExit("cannot decode %s" % path)
    image = image.makeRasterImage()
    return (image.withDefaultMipmaps() or image) if mipmaps else image


def main():
    parser = planfile.common_arguments(__doc__.splitlines()[0])
    parser.add_argument("--mipmaps", action="store_true",
                        help="trilinear (linear mipmaps) instead of bilinear sampling")
    parser.add_argument("--edges", help="write, per (strided) frame, a W x H byte mask of the pixels within "
                                        "1.5 px of an item's or clip's outline (shadows left out), for the "
                                        "fidelity check")
    args = parser.parse_args()
    if args.version:
        print(skia.__version__)
        return
    plan = planfile.Plan(args.plan)
    images = [load_bitmap(p, args.mipmaps) for (p, _, _) in plan.images]
    snapshots = [load_bitmap(p, args.mipmaps) for (p, _, _) in plan.snapshots]
    # Skia's native pixel order (N32: BGRA on little-endian): its fast blitters
    # serve only N32; an RGBA8 surface is up to 9x slower for bitmap draws.
    info = skia.ImageInfo.MakeN32Premul(plan.width, plan.height)
    surface = skia.Surface.MakeRaster(info)
    canvas = surface.getCanvas()
    if args.mipmaps:
        sampling = skia.SamplingOptions(skia.FilterMode.kLinear, skia.MipmapMode.kLinear)
    else:
        sampling = skia.SamplingOptions(skia.FilterMode.kLinear)
    background = skia.Color4f(*plan.background)
    Matrix, RRect, Rect, Paint, Color4f = skia.Matrix, skia.RRect, skia.Rect, skia.Paint, skia.Color4f
    intersect = skia.ClipOp.kIntersect
    fast = skia.Canvas.kFast_SrcRectConstraint  # the whole bitmap: sampling clamps at its edges
    blur_style = skia.kNormal_BlurStyle
    clamp = skia.TileMode.kClamp

    def matrix(t):
        a, b, c, d, tx, ty = t
        return Matrix.MakeAll(a, c, tx, b, d, ty, 0, 0, 1)

    sampling_linear = skia.SamplingOptions(skia.FilterMode.kLinear)

    def rrect(rect, radius):
        return RRect.MakeRectXY(Rect.MakeXYWH(*rect), radius, radius)

    def fill(r, g, b, a):
        paint = Paint(Color4f(r, g, b, a))
        paint.setAntiAlias(True)
        return paint

    def draw_bitmap(bitmap, shape, rect, radius, opacity):
        # drawImageRect of the whole bitmap onto shape.rect (texel centres at
        # (i + 0.5) / width of the rect, edges clamped), under the rounded
        # shape as an anti-aliased clip. (An image shader drawn as the rounded
        # rect is equivalent but copies the bitmap on every draw in this
        # binding: 10x slower.)
        if radius > 0:
            canvas.clipRRect(shape, intersect, True)
        paint = Paint()
        paint.setAntiAlias(True)
        paint.setAlphaf(opacity)
        canvas.drawImageRect(bitmap, Rect.MakeWH(bitmap.width(), bitmap.height()), Rect.MakeXYWH(*rect),
                             sampling, paint, fast)

    premul = skia.GradientShader.kInterpolateColorsInPremul_Flag

    def gradient_paint(payload, rect, opacity):
        kind, colors, locations = payload[0], payload[1], payload[2]
        (x, y, w, h), (sx, sy), (dx, dy) = planfile.gradient_frame(payload, rect)
        solid = planfile.gradient_is_solid(payload, (dx, dy))
        if solid is not None:
            r, g, b, a = solid
            return fill(r, g, b, a * opacity)
        argb = [Color4f(*c).toColor() for c in colors]
        unit = Matrix.MakeAll(w, 0, x, 0, h, y, 0, 0, 1)
        if kind == "axial":
            shader = skia.GradientShader.MakeLinear(
                [skia.Point(sx, sy), skia.Point(sx + dx, sy + dy)], argb, locations, clamp, premul, unit)
        elif kind == "radial":
            local = Matrix.Concat(unit, Matrix.MakeAll(dx, 0, sx, 0, dy, sy, 0, 0, 1))
            shader = skia.GradientShader.MakeRadial(skia.Point(0, 0), 1, argb, locations, clamp, premul, local)
        else:
            angle = math.degrees(math.atan2(dy, dx)) if (dx or dy) else 0.0
            local = Matrix.Concat(Matrix.Concat(unit, Matrix.Translate(sx, sy)), Matrix.RotateDeg(angle))
            shader = skia.GradientShader.MakeSweep(0, 0, argb, locations, clamp, 0, 360, premul, local)
        paint = Paint()
        paint.setAntiAlias(True)
        paint.setShader(shader)
        paint.setAlphaf(opacity)
        return paint

    def draw_group(items, shape, rect, opacity, clip_path=None):
        if clip_path is None:
            canvas.clipRRect(shape, intersect, True)
        else:
            canvas.clipPath(clip_path, intersect, True)
        paint = Paint()
        paint.setAlphaf(opacity)
        canvas.saveLayer(Rect.MakeXYWH(*rect) if clip_path is None else None, paint)
        draw_items(items, in_group=True)
        canvas.restore()

    def draw_frame(items):
        canvas.resetMatrix()
        canvas.clear(background)
        draw_items(items)

    # -- projection (3-D items) ------------------------------------------------
    # A projected item is drawn under its full local -> target map as a Skia
    # perspective matrix, but only the part of its geometry that is in front of
    # the eye and near the canvas: `visible` (planfile.visible_polygon) cuts a
    # big local rectangle at W >= NEAR_W and at the canvas grown by 4 px, and
    # every path drawn is intersected with it (path ops), so Skia never maps a
    # point behind the eye (nor one absurdly far away). The cut's own edges lie
    # off the canvas: they add no anti-aliasing of their own.
    pad = 4.0
    canvas_box = (-pad, -pad, plan.width + pad, plan.height + pad)

    def visible(m, rect):
        span = 4 * (abs(rect[0]) + abs(rect[1]) + rect[2] + rect[3]) + 1e4
        return planfile.visible_polygon(m, planfile.rect_polygon(rect, span), canvas_box)

    def polygon_path(points):
        return skia.Path.Polygon([skia.Point(x, y) for (x, y) in points], True)

    def rrect_path(rect, radius):
        path = skia.Path()
        path.addRRect(rrect(rect, radius))
        return path

    def visible_path(path, m, rect):
        window = visible(m, rect)
        if not window:
            return None
        return skia.Op(path, polygon_path(window), skia.kIntersect_PathOp)

    def clip_with(clip):
        """Intersects the canvas clip with one plan clip; False when it leaves nothing."""
        ct, crect, cradius, cprojection = clip
        if cprojection is None:
            canvas.setMatrix(matrix(ct))
            canvas.clipRRect(rrect(crect, cradius), intersect, True)
            return True
        m = planfile.item_map(ct, cprojection)
        path = visible_path(rrect_path(crect, cradius), m, crect)
        if path is None:
            return False
        canvas.setMatrix(sk_matrix(m))
        canvas.clipPath(path, intersect, True)
        return True

    def bitmap_shader(bitmap, rect):
        x, y, w, h = rect
        local = Matrix.MakeAll(w / bitmap.width(), 0, x, 0, h / bitmap.height(), y, 0, 0, 1)
        return bitmap.makeShader(clamp, clamp, sampling, local)

    def draw_projected(item, in_group):
        (transform, rect, radius, kind, payload, opacity, clips, projection) = item
        m = planfile.item_map(transform, projection)
        canvas.setMatrix(sk_matrix(m))
        shape_path = rrect_path(rect, radius)
        if kind == "border":
            width, color = payload
            x, y, w, h = rect
            if 2 * width < min(w, h):
                inner = (x + width, y + width, w - 2 * width, h - 2 * width)
                shape_path = skia.Op(shape_path, rrect_path(inner, planfile.clamp_radius(inner, max(0.0, radius - width))),
                                     skia.kDifference_PathOp)
        if kind == "shadow":
            draw_projected_shadow(m, rect, radius, payload, opacity)
            return
        path = visible_path(shape_path, m, rect)
        if path is None:
            return
        if kind == "group":
            draw_group(planfile.in_plane(payload, projection), None, rect, opacity, clip_path=path)
            return
        if kind == "backdropBlur":
            canvas.clipPath(path, intersect, True)
            draw_backdrop_blur(payload * planfile.blur_scale(transform, rect, projection), opacity)
            return
        if kind in ("solid", "border"):
            r, g, b, a = payload if kind == "solid" else payload[1]
            paint = fill(r, g, b, a * opacity)
        elif kind in ("image", "snapshot"):
            paint = Paint()
            paint.setAntiAlias(True)
            paint.setAlphaf(opacity)
            paint.setShader(bitmap_shader((images if kind == "image" else snapshots)[payload], rect))
        elif kind == "gradient":
            paint = gradient_paint(payload, rect, opacity)
        canvas.drawPath(path, paint)

    def draw_projected_shadow(m, rect, radius, payload, opacity):
        # A shadow is blurred flat in its plane, then projected: drawn with the
        # blur mask filter into a local-space raster at the projection's
        # largest density over the visible part, then that raster is drawn
        # (bilinear) under the perspective matrix. (Skia's blur under a
        # perspective matrix would blur in target space.)
        (r, g, b, a), sigma = payload
        reach = 3 * sigma
        area = (rect[0] - reach, rect[1] - reach, rect[2] + 2 * reach, rect[3] + 2 * reach)
        window = planfile.visible_polygon(m, planfile.rect_polygon(area), canvas_box)
        if not window:
            return
        density = max(planfile.largest_scale(m, window), 1e-3)
        density = min(density, 4096 / max(area[2], area[3]))
        w, h = max(1, math.ceil(area[2] * density)), max(1, math.ceil(area[3] * density))
        layer = skia.Surface.MakeRaster(skia.ImageInfo.MakeN32Premul(w, h))
        flat = layer.getCanvas()
        flat.clear(Color4f(0, 0, 0, 0))
        flat.setMatrix(Matrix.MakeAll(density, 0, -area[0] * density, 0, density, -area[1] * density, 0, 0, 1))
        paint = fill(r, g, b, a)
        if sigma > 0:
            paint.setMaskFilter(skia.MaskFilter.MakeBlur(blur_style, sigma))
        flat.drawRRect(rrect(rect, radius), paint)
        image = layer.makeImageSnapshot()
        paint = Paint()
        paint.setAntiAlias(True)
        paint.setAlphaf(opacity)
        local = Matrix.MakeAll(1 / density, 0, area[0], 0, 1 / density, area[1], 0, 0, 1)
        paint.setShader(image.makeShader(skia.TileMode.kDecal, skia.TileMode.kDecal, sampling_linear, local))
        canvas.drawPath(polygon_path(window), paint)

    # -- backdrop blur -----------------------------------------------------------
    # Read, blur, draw: the target so far is snapshotted (only the clip's device
    # bounds grown by the kernel's reach, cut to the canvas), blurred by an exact
    # separable Gaussian (two MatrixConvolution passes, kernel cut at 3 sigma and
    # normalised; clamp tile mode at the subset's edges, which are the canvas
    # edges wherever the kernel reaches them), then blended inside the current
    # clip as dst = blurred * a + dst * (1 - a): a kDstOut pass of alpha a, then
    # the blurred pixels added (kPlus) at alpha a; the anti-aliased clip's
    # coverage multiplies a in both. Skia's own Blur filter (ImageFilters.Blur,
    # also what a SaveLayerRec backdrop uses) approximates the Gaussian with box
    # passes: 4.3/255 off on a step edge at sigma 4, over the 2/255 this
    # reference is held to.
    def gaussian_filter(sigma):
        r = max(1, math.ceil(3 * sigma))
        weights = [math.exp(-0.5 * (i / sigma) ** 2) for i in range(-r, r + 1)]
        total = sum(weights)
        weights = [w / total for w in weights]
        across = skia.ImageFilters.MatrixConvolution(skia.ISize(2 * r + 1, 1), weights, 1.0, 0.0, skia.IPoint(r, 0),
                                                     clamp, True, None)
        return skia.ImageFilters.MatrixConvolution(skia.ISize(1, 2 * r + 1), weights, 1.0, 0.0, skia.IPoint(0, r),
                                                   clamp, True, across), r

    def draw_backdrop_blur(device_sigma, opacity):
        bounds = canvas.getDeviceClipBounds()
        if bounds.isEmpty() or not (device_sigma > 0 and math.isfinite(device_sigma)):
            return  # sigma 0: the target itself, unchanged
        blur, r = gaussian_filter(device_sigma)
        # The backdrop the kernel reads: the clip's bounds grown by r, the canvas's
        # edge pixels repeated beyond it (a clamp-tiled shader of the snapshot);
        # the filters' own tile mode would not act at the canvas edge here.
        x0, y0, x1, y1 = bounds.left() - r, bounds.top() - r, bounds.right() + r, bounds.bottom() + r
        inside = skia.IRect.MakeLTRB(max(0, x0), max(0, y0), min(plan.width, x1), min(plan.height, y1))
        if inside.isEmpty():
            return
        snapshot = surface.makeImageSnapshot(inside)
        padded = skia.Surface.MakeRaster(skia.ImageInfo.MakeN32Premul(x1 - x0, y1 - y0))
        repeat = Paint()
        repeat.setBlendMode(skia.BlendMode.kSrc)
        repeat.setShader(snapshot.makeShader(clamp, clamp, skia.SamplingOptions(),
                                             Matrix.Translate(inside.left() - x0, inside.top() - y0)))
        padded.getCanvas().drawPaint(repeat)
        backdrop = padded.makeImageSnapshot()
        canvas.resetMatrix()
        erase = Paint(Color4f(0, 0, 0, opacity))
        erase.setBlendMode(skia.BlendMode.kDstOut)
        canvas.drawPaint(erase)
        add = Paint()
        add.setAlphaf(opacity)
        add.setBlendMode(skia.BlendMode.kPlus)
        add.setImageFilter(blur)
        canvas.drawImage(backdrop, x0, y0, skia.SamplingOptions(), add)

    def draw_items(items, in_group=False):
        for item in items:
            (transform, rect, radius, kind, payload, opacity, clips, projection) = item
            if opacity <= 0 or rect[2] <= 0 or rect[3] <= 0:
                continue
            if kind == "backdropBlur" and in_group:
                continue  # inside a group's layer there is no backdrop: nothing is drawn
            canvas.save()
            if not all(clip_with(clip) for clip in clips):
                canvas.restore()
                continue
            if projection is not None:
                draw_projected(item, in_group)
                canvas.restore()
                continue
            canvas.setMatrix(matrix(transform))
            shape = rrect(rect, radius)
            if kind == "solid":
                r, g, b, a = payload
                canvas.drawRRect(shape, fill(r, g, b, a * opacity))
            elif kind == "image":
                draw_bitmap(images[payload], shape, rect, radius, opacity)
            elif kind == "snapshot":
                draw_bitmap(snapshots[payload], shape, rect, radius, opacity)
            elif kind == "border":
                width, (r, g, b, a) = payload
                x, y, w, h = rect
                if 2 * width >= min(w, h):
                    canvas.drawRRect(shape, fill(r, g, b, a * opacity))
                else:
                    inner = (x + width, y + width, w - 2 * width, h - 2 * width)
                    canvas.drawDRRect(shape, rrect(inner, planfile.clamp_radius(inner, max(0.0, radius - width))),
                                      fill(r, g, b, a * opacity))
            elif kind == "shadow":
                (r, g, b, a), sigma = payload
                paint = fill(r, g, b, a * opacity)
                if sigma > 0:
                    paint.setMaskFilter(skia.MaskFilter.MakeBlur(blur_style, sigma))
                canvas.drawRRect(shape, paint)
            elif kind == "gradient":
                canvas.drawRRect(shape, gradient_paint(payload, rect, opacity))
            elif kind == "group":
                draw_group(payload, shape, rect, opacity)
            elif kind == "backdropBlur":
                canvas.clipRRect(shape, intersect, True)
                draw_backdrop_blur(payload * planfile.transform_scale(transform), opacity)
            canvas.restore()

    def frame_rgba():
        return surface.toarray(colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kPremul_AlphaType).tobytes()

    planfile.run("skia", skia.__version__, args, plan, draw_frame, frame_rgba)
    if args.edges:
        write_edges(args, plan, matrix, rrect)


def write_edges(args, plan, matrix, rrect):
    surface = skia.Surface.MakeRaster(skia.ImageInfo.MakeA8(plan.width, plan.height))
    canvas = surface.getCanvas()
    pen = skia.Paint()
    pen.setStyle(skia.Paint.kStroke_Style)
    pen.setStrokeWidth(3)
    pen.setAntiAlias(False)
    box = (-4.0, -4.0, plan.width + 4.0, plan.height + 4.0)

    def outline_items(items):
        for item in items:
            (transform, rect, radius, kind, payload, opacity, clips, projection) = item
            if kind in ("shadow", "backdropBlur") or opacity <= 0:
                continue
            if kind == "group":
                yield from outline_items(payload if projection is None else planfile.in_plane(payload, projection))
            yield item

    def outline(t, r, cr, projection):
        path = skia.Path()
        path.addRRect(rrect(r, cr))
        if projection is None:
            path.transform(matrix(t))
            return path
        m = planfile.item_map(t, projection)  # cut in front of the eye and near the canvas first
        span = 4 * (abs(r[0]) + abs(r[1]) + r[2] + r[3]) + 1e4
        window = planfile.visible_polygon(m, planfile.rect_polygon(r, span), box)
        if not window:
            return None
        path = skia.Op(path, skia.Path.Polygon([skia.Point(x, y) for (x, y) in window], True), skia.kIntersect_PathOp)
        path.transform(sk_matrix(m))
        return path

    with open(args.edges, "wb") as out:
        for items in plan.frames[::max(1, args.stride)]:
            canvas.clear(skia.Color4f(0, 0, 0, 0))
            for (transform, rect, radius, kind, payload, opacity, clips, projection) in outline_items(items):
                outlines = [(transform, rect, radius, projection)] + list(clips)
                if kind == "border":
                    bw = payload[0]
                    x, y, w, h = rect
                    if 2 * bw < min(w, h):
                        inner = (x + bw, y + bw, w - 2 * bw, h - 2 * bw)
                        outlines.append((transform, inner, planfile.clamp_radius(inner, max(0.0, radius - bw)),
                                         projection))
                for (t, r, cr, p) in outlines:
                    path = outline(t, r, cr, p)
                    if path is not None:
                        canvas.drawPath(path, pen)
            out.write(surface.toarray(colorType=skia.kAlpha_8_ColorType).tobytes())


if __name__ == "__main__":
    main()
