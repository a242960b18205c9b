import FramePlan
import Primitives

/// Core Animation composites a layer whose opacity is below 1 as a group: the
/// layer and its sublayers are flattened first, then faded together, so a
/// fading card's content does not let its own background show through.
/// Multiplying alphas down the tree instead would (a 50% card over white would
/// show 25% of its background through opaque content); so a view with alpha
/// below 1 that draws more than one item becomes one `.group` item.
enum GroupOpacity {
    /// `items` faded by `opacity`: untouched at 1, the single item's own opacity
    /// scaled when there is one, otherwise one group bounding them all.
    static func wrap(_ items: [DrawItem], opacity: Double, label: String) -> [DrawItem] {
        guard opacity < 1, !items.isEmpty else { return items }
        if items.count == 1 {
            var item = items[0]
            item.opacity *= opacity
            return [item]
        }
        guard let box = bounds(of: items) else { return [] }
        return [DrawItem(transform: .identity, shape: RoundedRect(rect: box), paint: .group(DisplayList(items: items)),
                         opacity: opacity, label: label + " (group)")]
    }

    /// Adds an ancestor's clips in front of each item's own.
    static func clipped(_ items: [DrawItem], by clips: [Clip]) -> [DrawItem] {
        guard !clips.isEmpty else { return items }
        return items.map { item in
            var item = item
            item.clips = clips + item.clips
            return item
        }
    }

    /// The whole-pixel box in target space that every item's paint falls in
    /// (shadows widened by 3 sigma), or nil when nothing has a finite extent.
    static func bounds(of items: [DrawItem]) -> Rect? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for item in items {
            let r = item.shape.rect
            let t = item.transform
            var margin = 0.0
            if case .shadow(_, let sigma) = item.paint {
                let scale = max((t.a * t.a + t.b * t.b).squareRoot(), (t.c * t.c + t.d * t.d).squareRoot())
                margin = 3 * sigma * scale
            }
            for corner in [Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.minY),
                           Point(x: r.minX, y: r.maxY), Point(x: r.maxX, y: r.maxY)] {
                let p = t.apply(corner)
                guard p.x.isFinite, p.y.isFinite else { continue }
                minX = min(minX, p.x - margin); maxX = max(maxX, p.x + margin)
                minY = min(minY, p.y - margin); maxY = max(maxY, p.y + margin)
            }
        }
        guard minX <= maxX, minY <= maxY else { return nil }
        let x0 = (minX - 1).rounded(.down), y0 = (minY - 1).rounded(.down)
        return Rect(x: x0, y: y0, width: (maxX + 1).rounded(.up) - x0, height: (maxY + 1).rounded(.up) - y0)
    }
}
