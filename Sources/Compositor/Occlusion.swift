/// Culls what later opaque items hide. An item whose every pixel it paints is
/// exactly opaque (opacity 1, an opaque colour or texture, axis-aligned, clips
/// axis-aligned) has an `opaqueBox`; source-over at alpha 255 of an opaque
/// pixel *replaces* the destination, so anything drawn earlier inside that
/// box cannot change the frame. Hence, walking the list back to front:
/// - an item whose bounds lie inside a later opaque box is dropped;
/// - otherwise it remembers the later boxes that hide parts of it (`hiddenBy`,
///   the largest few), and the rasterizer skips those parts of each row: an
///   opaque wallpaper under a grid of cards is sampled between them only, not
///   under all but the largest (benchmarks/RESULTS.md);
/// - if a box covers the whole target, the background fill is skipped too.
/// Exact (same bytes as drawing everything) and cheap: items x boxes box tests.
///
/// A rotated opaque item (a card turning) has no box, but on each row the
/// pixels its shape and clips cover exactly 1 form a span (`RowHider`): an item
/// no box hides remembers the later rotated one that overlaps it most
/// (`hiddenByRows`), and the rasterizer skips that span of each row. A rotated
/// card's shadow is then drawn around the card, not under it too: the shadow's
/// rotated form evaluates its blur per pixel, and the benchmark scene with its
/// cards turned drew a third faster (benchmarks/RESULTS.md).
///
/// Backdrop blurs (`PreparedItem.backdrop`) read what is under them, so they
/// split the list into passes: an item is culled or trimmed only by opaque
/// items of its own pass (an opaque item after a blur must not hide what the
/// blur reads), a blur itself is never culled or trimmed, and the background
/// may be skipped only when an opaque item of the first pass covers the target.
enum Occlusion {
    /// Later boxes looked at per item; a long list of small opaque items gains little beyond this.
    static let maxBoxes = 64
    /// Boxes an item skips (the largest overlaps): each cuts the item's rows into one more run.
    static let maxHidingBoxes = 8

    /// Filters `items` in place; returns true when the target is entirely hidden by an item of the first pass.
    /// `rowHiders`: rotated opaque items hide rows too (`hiddenByRows`).
    static func cull(_ items: inout [PreparedItem], target: PixelBox, rowHiders: Bool = true) -> Bool {
        var boxes: [PixelBox] = []
        var hiders: [RowHider] = []
        var coversTarget = false
        var kept = [Bool](repeating: true, count: items.count)
        for i in items.indices.reversed() {
            if items[i].backdrop != nil {
                // A pass boundary: nothing later hides anything earlier.
                boxes.removeAll(keepingCapacity: true)
                hiders.removeAll(keepingCapacity: true)
                coversTarget = false
                continue
            }
            let bounds = items[i].bounds
            var hiding: [PixelBox] = []
            for box in boxes {
                let overlap = box.intersection(bounds)
                if overlap == bounds {
                    kept[i] = false
                    break
                }
                if !overlap.isEmpty { hiding.append(overlap) }
            }
            guard kept[i] else { continue }
            if hiding.count > maxHidingBoxes {
                hiding = Array(hiding.sorted { $0.area > $1.area }.prefix(maxHidingBoxes))
            }
            // Left to right, as `RowPainter` sweeps them.
            items[i].hiddenBy = hiding.count > 1 ? hiding.sorted { $0.x0 < $1.x0 } : hiding
            if hiding.isEmpty {
                var overlap = 0
                for hider in hiders {
                    let area = hider.bounds.intersection(bounds).area
                    if area > overlap {
                        items[i].hiddenByRows = hider
                        overlap = area
                    }
                }
            }
            if let box = items[i].opaqueBox, boxes.count < maxBoxes {
                boxes.append(box)
                if box.intersection(target) == target { coversTarget = true }
            } else if rowHiders, hiders.count < maxBoxes, let hider = RowHider(items[i]) {
                hiders.append(hider)
            }
        }
        if kept.contains(false) { items = items.indices.filter { kept[$0] }.map { items[$0] } }
        return coversTarget
    }
}

/// The pixels a later opaque item that is not axis-aligned covers exactly 1 on each row (`Occlusion`).
/// A class, so that the items it hides hold a reference, not a copy of its shapes: a larger
/// `PreparedItem` drew the benchmark plan 2.5% slower.
final class RowHider: Sendable {
    let shape: CoverageShape
    let clips: [CoverageShape]
    let bounds: PixelBox

    /// Nil unless `item` paints every pixel of its full spans exactly opaque (an opaque fill at
    /// opacity 1, drawn by itself) and has no box that would serve better.
    init?(_ item: PreparedItem) {
        guard item.paintsOpaque, item.opacityByte == 255, item.opaqueBox == nil, item.excluded.isEmpty else { return nil }
        shape = item.shape
        clips = item.clips
        bounds = item.bounds
    }

    /// The pixels of row `y` it hides, if any.
    @inline(__always)
    func span(_ y: Int) -> (lower: Int, upper: Int)? {
        guard bounds.y0 <= y, y < bounds.y1 else { return nil }
        let (f0, f1) = CoverageShape.fullSpan(row: y, of: shape, clips: clips)
        let lower = max(f0, bounds.x0), upper = min(f1, bounds.x1)
        return lower < upper ? (lower, upper) : nil
    }
}
