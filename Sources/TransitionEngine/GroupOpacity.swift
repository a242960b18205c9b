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
        return [
            DrawItem(
                transform: .identity, shape: RoundedRect(rect: box), paint: .group(DisplayList(items: items)),
                opacity: opacity, label: label + " (group)")
        ]
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

    /// The whole-pixel box in target space that every item's paint falls in,
    /// or nil when nothing has a finite extent. Each item's extent is the plan's
    /// own (`DrawItem.paintCorners`: a shadow's blur included, as the compositor
    /// draws it), padded by one pixel for the anti-aliased fringe (coverage
    /// reaches at most `sqrt(1/2)` pixel beyond an edge) and rounded outward.
    static func bounds(of items: [DrawItem]) -> Rect? {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for item in items {
            for p in item.paintCorners {
                guard p.x.isFinite, p.y.isFinite else { continue }
                minX = min(minX, p.x)
                maxX = max(maxX, p.x)
                minY = min(minY, p.y)
                maxY = max(maxY, p.y)
            }
        }
        guard minX <= maxX, minY <= maxY else { return nil }
        let x0 = (minX - 1).rounded(.down)
        let y0 = (minY - 1).rounded(.down)
        return Rect(x: x0, y: y0, width: (maxX + 1).rounded(.up) - x0, height: (maxY + 1).rounded(.up) - y0)
    }
}
