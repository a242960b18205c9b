/// Culls what later opaque items hide. An item whose every pixel it paints is
/// exactly opaque (opacity 1, an opaque colour or texture, axis-aligned, clips
/// axis-aligned) has an `opaqueBox`; source-over at alpha 255 of an opaque
/// pixel *replaces* the destination, so anything drawn earlier inside that
/// box cannot change the frame. Hence, walking the list back to front:
/// - an item whose bounds lie inside a later opaque box is dropped;
/// - otherwise it remembers the later box that hides most of it (`hiddenBy`),
///   and the rasterizer skips that part of each row;
/// - if a box covers the whole target, the background fill is skipped too.
/// Exact (same bytes as drawing everything) and cheap: items x boxes box tests.
///
/// Backdrop blurs (`PreparedItem.backdrop`) read what is under them, so they
/// split the list into passes: an item is culled or trimmed only by opaque
/// items of its own pass (an opaque item after a blur must not hide what the
/// blur reads), a blur itself is never culled or trimmed, and the background
/// may be skipped only when an opaque item of the first pass covers the target.
enum Occlusion {
    /// Later boxes looked at per item; a long list of small opaque items gains little beyond this.
    static let maxBoxes = 64

    /// Filters `items` in place; returns true when the target is entirely hidden by an item of the first pass.
    static func cull(_ items: inout [PreparedItem], target: PixelBox) -> Bool {
        var boxes: [PixelBox] = []
        var coversTarget = false
        var kept = [Bool](repeating: true, count: items.count)
        for i in items.indices.reversed() {
            if items[i].backdrop != nil {
                // A pass boundary: nothing later hides anything earlier.
                boxes.removeAll(keepingCapacity: true)
                coversTarget = false
                continue
            }
            let bounds = items[i].bounds
            var best: PixelBox?
            var bestArea = 0
            for box in boxes {
                let overlap = box.intersection(bounds)
                if overlap == bounds {
                    kept[i] = false
                    break
                }
                let area = overlap.isEmpty ? 0 : (overlap.x1 - overlap.x0) * (overlap.y1 - overlap.y0)
                if area > bestArea {
                    best = box
                    bestArea = area
                }
            }
            guard kept[i] else { continue }
            items[i].hiddenBy = best
            if let box = items[i].opaqueBox, boxes.count < maxBoxes {
                boxes.append(box)
                if box.intersection(target) == target { coversTarget = true }
            }
        }
        if kept.contains(false) { items = items.indices.filter { kept[$0] }.map { items[$0] } }
        return coversTarget
    }
}
