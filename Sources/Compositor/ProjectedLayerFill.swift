import Primitives
import FramePlan

/// A projected item (`DrawItem.projection`): its `PlaneLayer` (the item drawn
/// flat) sampled perspective-correctly per target pixel (`ProjectedSampling`:
/// inverse homography, per-pixel mip level, bilinear), times the clips'
/// coverage and the item's opacity, blended source-over.
///
/// Why a flat layer, then perspective sampling: every paint kind (and a
/// group's whole content) keeps its one 2-D drawing path, anti-aliasing
/// included; the projection costs one sampling pass per covered pixel, and
/// 2-D items never see it. Edges stay anti-aliased because the layer's own
/// edges are anti-aliased and surrounded by transparent texels, which
/// bilinear sampling blends in.
///
/// Geometry in `PreparedItem` terms: `shape` is the bounds box (the rows and
/// runs `RowPainter` hands over); the true per-row run is the layer's image
/// outline (`ConvexPolygon.rowSpan`, a pixel of slack), and pixels inside it
/// but not seeing the layer (behind the eye, outside the texture) get alpha 0.
/// Clips: affine ones stay `PreparedItem.clips` (exact coverage, spans);
/// clips with a projection are `ProjectedShape`s multiplied in here. The item
/// never hides anything (`paintsOpaque` is false): its edge pixels are
/// resampled, so no box of it is provably exactly opaque.
struct ProjectedLayerFill: Fill {
    let layer: PlaneLayer
    let projectedClips: [ProjectedShape]

    /// Appends the prepared form of `item` (with a projection, or with a clip
    /// that has one) to `items`; nothing when it draws nothing. The layer is
    /// drawn with `threads` bands (same bytes for any count).
    static func append(
        _ item: DrawItem, target: PixelBox, sources: Rasterizer.Sources, depth: Int, threads: Int,
        into items: inout [PreparedItem]
    ) {
        let opacity = PreparedItem.opacity(of: item)
        guard opacity > 0, depth < LayerFill.maxGroupDepth else { return }
        var view = target
        var clips: [CoverageShape] = []
        var projectedClips: [ProjectedShape] = []
        for clip in item.clips {
            if let p = clip.projection, p.affine == nil {
                guard let c = ProjectedShape(transform: clip.transform, shape: clip.shape, projection: p) else { return }
                view = view.intersection(c.bounds)
                projectedClips.append(c)
            } else {
                let transform = clip.projection?.affine.map { clip.transform.concatenating($0) } ?? clip.transform
                guard let c = CoverageShape(transform: transform, shape: clip.shape) else { return }
                view = view.intersection(c.bounds)
                clips.append(c)
            }
            guard !view.isEmpty else { return }
        }
        guard let layer = PlaneLayer(
                item: item, projection: item.projection ?? .identity, view: view, sources: sources, depth: depth,
                threads: threads),
            !layer.bounds.isEmpty
        else { return }
        let b = layer.bounds
        let box = RoundedRect(
            rect: Rect(x: Double(b.x0) + 0.25, y: Double(b.y0) + 0.25, width: Double(b.x1 - b.x0) - 0.5,
                height: Double(b.y1 - b.y0) - 0.5))
        guard let shape = CoverageShape(transform: .identity, shape: box) else { return }
        let fill = ProjectedLayerFill(layer: layer, projectedClips: projectedClips)
        items.append(
            PreparedItem(fill.prepared, shape: shape, clips: clips, opacity: opacity, bounds: b, paintsOpaque: false))
    }

    var prepared: PreparedFill { .projected(self) }
    var paintsOpaque: Bool { false }

    struct Band {
        let texels: ProjectedSampling.Texels
        let outline: ConvexPolygon
        let clips: [ProjectedShape]
    }

    func band(columns: Range<Int>, scratch: RowScratch) -> Band? {
        Band(texels: layer.texels, outline: layer.outline, clips: projectedClips)
    }

    static func drawRun(_ band: inout Band, y: Int, lower: Int, upper: Int, _ row: ItemRow) {
        let span = band.outline.rowSpan(y, grow: 1)
        let a = max(lower, span.lower)
        let b = min(upper, span.upper)
        guard a < b else { return }
        let n = b - a
        let s = row.scratch
        ProjectedSampling.coordinates(
            band.texels, y: y, x0: a, count: n, offsets: s.pixelOffsets, levels: s.pixelLevels,
            weightsX: s.pixelWeightsX, weightsY: s.pixelWeightsY, live: s.coverage + a)
        for clip in band.clips {
            clip.coverageRow(y: y, x0: a, count: n, into: s.clipCoverage + a)
            CoverageKernels.multiply(s.coverage + a, by: s.clipCoverage + a, count: n)
        }
        let live = row.alphaRun(y, a, b)
        guard live.lower < live.upper else { return }
        ProjectedSampling.gather(
            band.texels, offsets: s.pixelOffsets, levels: s.pixelLevels, weightsX: s.pixelWeightsX,
            weightsY: s.pixelWeightsY, count: n, into: UnsafeMutableRawPointer(s.source))
        BlendKernels.sourceOver(
            dst: row.pixel(live.lower, y), src: s.source + (live.lower - a) * 4, alpha: UnsafePointer(s.alpha + live.lower),
            count: live.upper - live.lower)
    }

    /// The layer's sample and whether the pixel sees it, times the projected
    /// clips' coverage (the affine clips and opacity are the caller's).
    func referencePixel(_ item: PreparedItem, x: Int, y: Int) -> (coverage: Double, source: SIMD4<UInt8>)? {
        let r = ProjectedSampling.referencePixel(layer.texels, x: x, y: y)
        var coverage = r.live ? 1.0 : 0
        for clip in projectedClips { coverage *= clip.referenceCoverage(x: x, y: y) }
        let p = r.sample
        return (coverage, SIMD4(UInt8(p & 0xFF), UInt8((p >> 8) & 0xFF), UInt8((p >> 16) & 0xFF), UInt8(p >> 24)))
    }
}
