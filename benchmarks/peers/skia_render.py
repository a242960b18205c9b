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

    def matrix(t):
        a, b, c, d, tx, ty = t
        return Matrix.MakeAll(a, c, tx, b, d, ty, 0, 0, 1)

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
    clamp = skia.TileMode.kClamp

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

    def draw_group(items, shape, rect, opacity):
        canvas.clipRRect(shape, intersect, True)
        paint = Paint()
        paint.setAlphaf(opacity)
        canvas.saveLayer(Rect.MakeXYWH(*rect), paint)
        draw_items(items)
        canvas.restore()

    def draw_frame(items):
        canvas.resetMatrix()
        canvas.clear(background)
        draw_items(items)

    def draw_items(items):
        for (transform, rect, radius, kind, payload, opacity, clips) in items:
            if opacity <= 0 or rect[2] <= 0 or rect[3] <= 0:
                continue
            canvas.save()
            for (ct, crect, cradius) in clips:
                canvas.setMatrix(matrix(ct))
                canvas.clipRRect(rrect(crect, cradius), intersect, True)
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
    def outline_items(items):
        for (transform, rect, radius, kind, payload, opacity, clips) in items:
            if kind == "shadow" or opacity <= 0:
                continue
            if kind == "group":
                yield from outline_items(payload)
            yield transform, rect, radius, kind, payload, opacity, clips

    with open(args.edges, "wb") as out:
        for items in plan.frames[::max(1, args.stride)]:
            canvas.clear(skia.Color4f(0, 0, 0, 0))
            for (transform, rect, radius, kind, payload, opacity, clips) in outline_items(items):
                outlines = [(transform, rect, radius)] + list(clips)
                if kind == "border":
                    bw = payload[0]
                    x, y, w, h = rect
                    if 2 * bw < min(w, h):
                        inner = (x + bw, y + bw, w - 2 * bw, h - 2 * bw)
                        outlines.append((transform, inner, planfile.clamp_radius(inner, max(0.0, radius - bw))))
                for (t, r, cr) in outlines:
                    path = skia.Path()
                    path.addRRect(rrect(r, cr))
                    path.transform(matrix(t))
                    canvas.drawPath(path, pen)
            out.write(surface.toarray(colorType=skia.kAlpha_8_ColorType).tobytes())


if __name__ == "__main__":
    main()
