import Primitives
import FramePlan

/// A backdrop blur with a projection (`DrawItem.projection`) or with clips
/// that have one: the same blur pass as `BackdropFill` (its `BackdropRegion`,
/// a pass boundary, blurred over the item's pixel bounds), composited with
/// `BlendKernels.replace` inside coverage taken from the projected geometry.
///
/// Why not a `PlaneLayer` like other projected items: a blur reads the
/// target, which has no flat form in the item's plane; what the projection
/// changes is only *where* the blurred target replaces the target (the
/// rounded rectangle under `projection . transform`, `ProjectedShape`,
/// eye-plane clipped) and how wide the blur is.
///
/// Geometry: with a projected item, `PreparedItem.shape` is its pixel bounds
/// box (the rows and runs `RowPainter` hands over), each row's run is cut to
/// the eye-clipped image outline (`ConvexPolygon.rowSpan`, a pixel of slack)
/// and coverage is `ProjectedShape`'s per pixel (0 behind the eye). With only
/// projected clips, the shape is the ordinary affine `CoverageShape`. Affine
/// clips stay `PreparedItem.clips`; projected clips multiply in here. A
/// projection that is affine (third column 0, 0, 1) is folded into the
/// transform and the item is an ordinary `BackdropFill` (exact fast paths).
///
/// Sigma in pixels (`pixelSigma`): the local sigma times the local-to-pixel
/// scale of the full map `F = transform . projection` at the shape's centre
/// `c`, the geometric mean of the Jacobian's axes there, `sqrt|det J(c)|`;
/// for a homography `det J(c) = det F / w(c)^3` with `w(c)` the homogeneous
/// W of `c` under F. So `sigma_px = sigma * sqrt(|det A| |det P| / w^3)`,
/// `A` the transform's 2x2 part, `P` the projection, `w` the third column of
/// `P` applied to `transform(c)`. For an affine F this is `BackdropFill`'s
/// scale. One sigma for the whole item (a constant-cost blur of the target
/// cannot vary per pixel); capped at `BackdropFill.maxPixelSigma`.
///
/// Draws nothing: as `BackdropFill`, plus a non-finite or singular map, a
/// shape entirely behind the eye or off the view, and a shape whose centre
/// is behind the eye (no scale to take the sigma from).
struct ProjectedBackdropFill: Fill {
    let region: BackdropRegion
    /// The item's shape under its projection, with its image outline; nil when only clips are projected.
    let projectedShape: ProjectedShape?
    let outline: ConvexPolygon
    let projectedClips: [ProjectedShape]

    /// Sigma in target pixels under `projection` at the centre of `shape`, or nil when the item blurs nothing.
    static func pixelSigma(_ sigma: Double, transform: AffineTransform2D, shape: Rect, projection: Homography) -> Double? {
        guard sigma > 0, sigma.isFinite else { return nil }
        let forward = Homography(affine: transform).concatenating(projection)
        guard forward.isFinite else { return nil }
        let w = forward.homogeneous(shape.center).w
        guard w >= Homography.nearW else { return nil }
        let scale = (abs(forward.determinant) / (w * w * w)).squareRoot()
        guard scale.isFinite, scale > 0 else { return nil }
        let pixels = min(sigma * scale, BackdropFill.maxPixelSigma)
        return pixels > 0 ? pixels : nil
    }

    /// The prepared blur of `item` (top level only: the caller checks the
    /// depth), or nil when it draws nothing.
    static func prepare(_ item: DrawItem, sigma: Double, target: PixelBox) -> PreparedItem? {
        var item = item
        if let affine = item.projection?.affine {
            item.transform = item.transform.concatenating(affine)
            item.projection = nil
        }
        var view = target
        var clips: [CoverageShape] = []
        var projectedClips: [ProjectedShape] = []
        for clip in item.clips {
            if let p = clip.projection, p.affine == nil {
                guard let c = ProjectedShape(transform: clip.transform, shape: clip.shape, projection: p) else { return nil }
                view = view.intersection(c.bounds)
                projectedClips.append(c)
            } else {
                let transform = clip.projection?.affine.map { clip.transform.concatenating($0) } ?? clip.transform
                guard let c = CoverageShape(transform: transform, shape: clip.shape) else { return nil }
                view = view.intersection(c.bounds)
                clips.append(c)
            }
            guard !view.isEmpty else { return nil }
        }
        guard let projection = item.projection else {
            guard !projectedClips.isEmpty else {
                // Every map was affine: the ordinary blur, clips folded.
                item.clips = item.clips.map { clip in
                    var folded = clip
                    if let affine = clip.projection?.affine {
                        folded.transform = clip.transform.concatenating(affine)
                        folded.projection = nil
                    }
                    return folded
                }
                return BackdropFill.prepare(item, sigma: sigma, target: target)
            }
            guard let pixels = BackdropFill.pixelSigma(sigma, transform: item.transform),
                let shape = CoverageShape(transform: item.transform, shape: item.shape)
            else { return nil }
            let bounds = shape.bounds.intersection(view)
            guard !bounds.isEmpty else { return nil }
            let fill = ProjectedBackdropFill(
                region: BackdropRegion(bounds: bounds, target: target, sigma: pixels), projectedShape: nil,
                outline: ConvexPolygon([]), projectedClips: projectedClips)
            return PreparedItem(
                fill.prepared, shape: shape, clips: clips, opacity: PreparedItem.opacity(of: item), bounds: bounds,
                paintsOpaque: false)
        }
        guard let pixels = pixelSigma(sigma, transform: item.transform, shape: item.shape.rect, projection: projection),
            let projected = ProjectedShape(transform: item.transform, shape: item.shape, projection: projection)
        else { return nil }
        let bounds = projected.bounds.intersection(view)
        guard !bounds.isEmpty else { return nil }
        // The image outline, cut near the view so points wrapped far off by a grazing plane never reach pixel maths.
        let forward = Homography(affine: item.transform).concatenating(projection)
        let outline = ConvexPolygon(forward.visiblePolygon(of: item.shape.rect)).clipped(
            minX: Double(view.x0) - 2, minY: Double(view.y0) - 2, maxX: Double(view.x1) + 2, maxY: Double(view.y1) + 2)
        guard !outline.isEmpty else { return nil }
        let box = RoundedRect(
            rect: Rect(
                x: Double(bounds.x0) + 0.25, y: Double(bounds.y0) + 0.25, width: Double(bounds.x1 - bounds.x0) - 0.5,
                height: Double(bounds.y1 - bounds.y0) - 0.5))
        guard let shape = CoverageShape(transform: .identity, shape: box) else { return nil }
        let fill = ProjectedBackdropFill(
            region: BackdropRegion(bounds: bounds, target: target, sigma: pixels), projectedShape: projected,
            outline: outline, projectedClips: projectedClips)
        return PreparedItem(
            fill.prepared, shape: shape, clips: clips, opacity: PreparedItem.opacity(of: item), bounds: bounds,
            paintsOpaque: false)
    }

    var prepared: PreparedFill { .projectedBackdrop(self) }
    /// Never an occluder (as `BackdropFill`).
    var paintsOpaque: Bool { false }

    struct Band {
        let blurred: BackdropFill.Band
        let shape: ProjectedShape?
        let outline: ConvexPolygon
        let clips: [ProjectedShape]
    }

    func band(columns: Range<Int>, scratch: RowScratch) -> Band? {
        guard let pixels = region.pixels else { return nil }
        let blurred = BackdropFill.Band(
            pixels: UnsafePointer(pixels), stride: region.stride, x0: region.bounds.x0, y0: region.read.y0)
        return Band(blurred: blurred, shape: projectedShape, outline: outline, clips: projectedClips)
    }

    static func drawRun(_ band: inout Band, y: Int, lower: Int, upper: Int, _ row: ItemRow) {
        let s = row.scratch
        var a = lower
        var b = upper
        if let shape = band.shape {
            let span = band.outline.rowSpan(y, grow: 1)
            a = max(a, span.lower)
            b = min(b, span.upper)
            guard a < b else { return }
            shape.coverageRow(y: y, x0: a, count: b - a, into: s.coverage + a)
        } else {
            row.shapeCoverage(y, a, b)
        }
        for clip in band.clips {
            clip.coverageRow(y: y, x0: a, count: b - a, into: s.clipCoverage + a)
            CoverageKernels.multiply(s.coverage + a, by: s.clipCoverage + a, count: b - a)
        }
        let live = row.alphaRun(y, a, b)
        guard live.lower < live.upper else { return }
        BlendKernels.replace(
            dst: row.pixel(live.lower, y), src: band.blurred.pixel(live.lower, y), alpha: UnsafePointer(s.alpha + live.lower),
            count: live.upper - live.lower)
    }

    /// None alone, as `BackdropFill` (the blurred pixels exist only while a frame is drawn).
    func referencePixel(_ item: PreparedItem, x: Int, y: Int) -> (coverage: Double, source: SIMD4<UInt8>)? { nil }
}
