/// Rows of a group (`LayerFill`) drawn without its layer: bands of rows, each
/// across every pixel the group's shape and clips cover exactly 1 in them,
/// where the layer would hold a pixel computable straight away:
/// - *sole*: one item of the group paints exactly opaque there (its
///   `opaqueBox`) and no later item touches those pixels: the layer holds that
///   item's pixels;
/// - *backed*: an opaque solid paints them (its `opaqueBox`), then one bitmap
///   covers them exactly at opacity 1, and nothing else after the solid touches
///   them (a screen's snapshot over its background): the layer holds the
///   samples laid over the solid's colour (`BitmapFill.backing`).
/// Compositing the layer there at the group's opacity gives, pixel for pixel,
/// what drawing that item (or backed bitmap) straight onto the group's target
/// at the group's opacity gives: every kernel computes the same `BlendKernels`
/// source-over per pixel, and an opaque item at alpha 255 is stored, so what
/// the layer held before cannot matter. So those rows are drawn once, by a copy
/// of the item cut to them (`PreparedItem.bypassing`); the group's items and
/// its composite leave them alone (`PreparedItem.excluded`). Same bytes as the
/// layer path (`GroupTests` compares both), so the choice never shows.
///
/// Why: a screen cross-fading in a push or a modal is a group of its background
/// and its snapshot; through the layer each pixel is filled, blended onto,
/// read back and blended again. Drawn straight, the text-heavy benchmark scene
/// composites about a fifth faster (benchmarks/RESULTS.md).
///
/// Why whole rows only: a band narrower than the group's covered pixels leaves
/// slivers of content on both sides of every row (a rounded card's corners
/// leave 8 px) that still go through the layer, and the extra runs per row
/// cost more than the layer pass saved: cards bypassed inside their rounded
/// corners drew the transition benchmark 14% slower (benchmarks/RESULTS.md).
/// Outside a band's rows, only the group's own anti-aliased edge pixels remain.
/// A group of just a solid and a bitmap over it (a card's content) never gets
/// this far: `BackedGroupFill` draws it straight, edges included.
struct LayerBypass {
    /// Bands of fewer pixels go through the layer: each is an item of its own (set-up per band of threads).
    static let minimumArea = 64 * 64
    /// At most this many bands per group (the largest), for the same reason.
    static let maximumBands = 8

    /// The rows bypassed: disjoint boxes, each as wide as the pixels the group covers exactly 1.
    let bands: [PixelBox]
    /// What draws `bands` instead, cut to each and at the group's opacity (`PreparedItem.bypassing`):
    /// this item's geometry with `fill` (its own, or a bitmap given the solid's colour as backing).
    let direct: PreparedItem
    let fill: PreparedFill

    /// The largest bypass of a group whose prepared items are `content`, drawn
    /// into a layer of pixels `layer`, with shape and clips `shape`, `clips`;
    /// nil when no rows qualify.
    static func find(content: [PreparedItem], layer: PixelBox, shape: CoverageShape, clips: [CoverageShape]) -> LayerBypass? {
        // Within the layer: a group larger than the frame covers the frame's columns.
        guard let full = coveredBox(shape, clips)?.intersection(layer), !full.isEmpty else { return nil }
        var best: LayerBypass?
        var bestArea = 0
        // Every opaque item is a candidate (an opaque background is often hidden by a later opaque one).
        for (index, item) in content.enumerated() {
            guard let opaque = item.opaqueBox?.intersection(full), opaque.x0 == full.x0, opaque.x1 == full.x1,
                opaque.area > bestArea
            else { continue }
            let later = content.indices.dropFirst(index + 1)
            var candidates = [(region: opaque, blockers: Array(later), direct: item, fill: item.fill)]
            if case .solid(let solid) = item.fill,
                let top = later.first(where: { !content[$0].bounds.intersection(opaque).isEmpty }),
                case .bitmap(var bitmap) = content[top].fill, bitmap.backing == nil, content[top].opacityByte == 255,
                let covered = coveredBox(content[top].shape, content[top].clips)
            {
                bitmap.backing = unsafeBitCast(solid.color, to: UInt32.self)
                let region = opaque.intersection(covered).intersection(content[top].bounds)
                candidates.append((region, later.filter { $0 != top }, content[top], .bitmap(bitmap)))
            }
            for candidate in candidates where candidate.region.x0 == full.x0 && candidate.region.x1 == full.x1 {
                let bands = rows(of: candidate.region, without: candidate.blockers.map { content[$0].bounds })
                let area = bands.reduce(0) { $0 + $1.area }
                if area > bestArea {
                    best = LayerBypass(bands: bands, direct: candidate.direct, fill: candidate.fill)
                    bestArea = area
                }
            }
        }
        return best
    }

    /// The rows of `region` that no blocker touches, as bands as wide as `region`, of at
    /// least `minimumArea` pixels (at most `maximumBands`, the largest).
    private static func rows(of region: PixelBox, without blockers: [PixelBox]) -> [PixelBox] {
        var bands = [region]
        for blocker in blockers where blocker.x0 < region.x1 && region.x0 < blocker.x1 {
            bands = bands.flatMap { band -> [PixelBox] in
                guard blocker.y0 < band.y1, band.y0 < blocker.y1 else { return [band] }
                return [
                    PixelBox(x0: band.x0, y0: band.y0, x1: band.x1, y1: blocker.y0),
                    PixelBox(x0: band.x0, y0: blocker.y1, x1: band.x1, y1: band.y1),
                ].filter { !$0.isEmpty }
            }
        }
        bands = bands.filter { $0.area >= minimumArea }
        return bands.count > maximumBands ? Array(bands.sorted { $0.area > $1.area }.prefix(maximumBands)) : bands
    }

    /// The pixels where `shape` and every clip cover exactly 1, if they form a box.
    static func coveredBox(_ shape: CoverageShape, _ clips: [CoverageShape]) -> PixelBox? {
        guard var box = shape.fullBox else { return nil }
        for clip in clips {
            guard let c = clip.fullBox else { return nil }
            box = box.intersection(c)
        }
        return box.isEmpty ? nil : box
    }
}
