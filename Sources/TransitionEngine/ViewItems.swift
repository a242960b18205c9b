import FramePlan
import Primitives

/// Collects one view's draw items in Core Animation's order and hands them
/// back in the target's space (canvas or snapshot pixels), whatever the
/// view's map (docs/3d.md, "Items").
///
/// A view with a 2-D map draws as it always did: its parts carry the map as
/// their transform, and one `GroupOpacity.wrap` fades them with their
/// sublayers, so every 2-D plan keeps its bytes.
///
/// A view with a projective map draws its own parts (shadow, background,
/// gradient, contents, border) flat in its plane and hands each unbroken run
/// of them over as one `.group` item whose `projection` maps the plane to
/// target pixels: the compositor renders one plane layer per run, not one per
/// item. The plane is the view's local coordinates times `planeScale`, a
/// power of two near the most target pixels a local unit covers, so the
/// layer has about a pixel per target pixel where it is nearest the eye.
/// Transient sublayers come in between runs (they compose their own maps), so
/// a view with children has a run below them and one above (the border, as
/// Core Animation draws borders over sublayers). `masksToBounds` content is a
/// run of its own whose group shape is the rounded bounds (a group draws only
/// inside its shape), so it needs no clip inside the plane.
///
/// A backdrop blur (`Paint.backdropBlur`) reads what the target already
/// shows, which a group's layer does not have, so it is never wrapped: it
/// takes the view's alpha as its own opacity and the runs on either side of
/// it are faded as separate groups (`finish`).
struct ViewItems {
    private enum Part {
        case own([DrawItem], clippedToBounds: Bool)
        case backdrop(DrawItem)
        case target([DrawItem])
    }

    let map: PlaneMap
    let bounds: Rect
    let cornerRadius: Double
    let label: String
    /// Local units to plane units (1 for a 2-D view, whose plane is the target).
    let planeScale: Double
    /// Draws the view's own parts: under the map (2-D) or into the plane (3-D).
    let painter: LayerPainter
    private var parts: [Part] = []

    init(map: PlaneMap, bounds: Rect, cornerRadius: Double, label: String) {
        self.map = map
        self.bounds = bounds
        self.cornerRadius = cornerRadius
        self.label = label
        switch map {
        case .affine(let t):
            planeScale = 1
            painter = LayerPainter(transform: t, bounds: bounds, cornerRadius: cornerRadius, label: label)
        case .projective(let h, _):
            planeScale = Self.planeScale(h, bounds: bounds)
            painter = LayerPainter(
                transform: .scale(planeScale, planeScale), bounds: bounds, cornerRadius: cornerRadius, label: label)
        }
    }

    var isProjective: Bool { map.affine == nil }

    /// The plane to target pixels (nil for a 2-D view).
    var planeProjection: Homography? {
        guard case .projective(let h, _) = map else { return nil }
        return Homography(affine: .scale(1 / planeScale, 1 / planeScale)).concatenating(h)
    }

    /// Clips for the view's transient children, in target pixels: its rounded bounds with `masksToBounds`.
    func childClips(masksToBounds: Bool) -> [Clip] {
        guard masksToBounds else { return [] }
        switch map {
        case .affine: return painter.contentClips(masksToBounds: true)
        case .projective(let h, _):
            return [Clip(transform: .identity, shape: painter.shape, projection: h)]
        }
    }

    /// Clips for the view's own contents drawn with `painter`: the 2-D clips, none in a plane (its run's shape clips).
    func contentClips(masksToBounds: Bool) -> [Clip] {
        isProjective ? [] : painter.contentClips(masksToBounds: masksToBounds)
    }

    /// The view's own parts, drawn with `painter`, appended to the current run.
    mutating func own(_ items: [DrawItem]) {
        guard !items.isEmpty else { return }
        if case .own(let run, false)? = parts.last {
            parts[parts.count - 1] = .own(run + items, clippedToBounds: false)
        } else {
            parts.append(.own(items, clippedToBounds: false))
        }
    }

    /// Contents clipped to the rounded bounds (`masksToBounds`): in a plane, a run of their own.
    mutating func ownClipped(_ items: [DrawItem]) {
        guard !items.isEmpty else { return }
        if isProjective { parts.append(.own(items, clippedToBounds: true)) } else { own(items) }
    }

    /// Items already in target pixels (the transient children).
    mutating func target(_ items: [DrawItem]) {
        guard !items.isEmpty else { return }
        parts.append(.target(items))
    }

    /// The backdrop blur in the view's rounded bounds (radius in points; sigma = radius / 2, ours). Radius 0: none.
    mutating func backdropBlur(radius: Double) {
        guard radius > 0, radius.isFinite else { return }
        if let projection = planeProjection, projection.visiblePolygon(of: painter.shape.rect.scaled(by: planeScale)).isEmpty { return }
        parts.append(
            .backdrop(
                DrawItem(
                    transform: painter.transform, shape: painter.shape, paint: .backdropBlur(sigma: radius / 2),
                    label: label + " (blur)", projection: planeProjection)))
    }

    /// Everything in target space, faded by `opacity` as Core Animation
    /// fades a layer with its sublayers; a backdrop blur outside the groups.
    func finish(opacity: Double) -> [DrawItem] {
        var result: [DrawItem] = []
        var pending: [DrawItem] = []
        for part in parts {
            switch part {
            case .own(let items, let clipped): pending += isProjective ? plane(items, clippedToBounds: clipped) : items
            case .target(let items): pending += items
            case .backdrop(var item):
                result += GroupOpacity.wrap(pending, opacity: opacity, label: label)
                pending = []
                item.opacity = min(max(opacity, 0), 1)
                result.append(item)
            }
        }
        return result + GroupOpacity.wrap(pending, opacity: opacity, label: label)
    }

    /// One run of plane items as one projected group.
    private func plane(_ items: [DrawItem], clippedToBounds: Bool) -> [DrawItem] {
        guard let projection = planeProjection else { return items }
        let shape: RoundedRect
        if clippedToBounds {
            shape = RoundedRect(rect: bounds.scaled(by: planeScale), cornerRadius: cornerRadius * planeScale)
        } else {
            guard let box = GroupOpacity.bounds(of: items) else { return [] }
            shape = RoundedRect(rect: box)
        }
        // Entirely behind the eye: nothing to draw (the compositor would clip it all away).
        guard !projection.visiblePolygon(of: shape.rect).isEmpty else { return [] }
        return [
            DrawItem(
                transform: .identity, shape: shape, paint: .group(DisplayList(items: items)), label: label + " (plane)",
                projection: projection)
        ]
    }

    /// A power of two (1/16 ... 16) at or above the most target pixels one
    /// local unit spans at the bounds' corners in front of the eye (the
    /// Jacobian of the homography; its stretch grows as 1 / W^2 toward the
    /// eye, so the corners bound it over the bounds). Powers of two keep the
    /// plane's resolution from changing every frame.
    static func planeScale(_ h: Homography, bounds: Rect) -> Double {
        var stretch = 0.0
        let corners = [
            Point(x: bounds.minX, y: bounds.minY), Point(x: bounds.maxX, y: bounds.minY),
            Point(x: bounds.minX, y: bounds.maxY), Point(x: bounds.maxX, y: bounds.maxY),
        ]
        for p in corners {
            let (x, y, w) = h.homogeneous(p)
            guard w >= Homography.nearW else {
                stretch = .infinity  // the bounds cross the eye plane: as near as it gets
                continue
            }
            let w2 = w * w
            let dx = ((h.m11 * w - x * h.m13) / w2, (h.m12 * w - y * h.m13) / w2)
            let dy = ((h.m21 * w - x * h.m23) / w2, (h.m22 * w - y * h.m23) / w2)
            stretch = max(stretch, (dx.0 * dx.0 + dx.1 * dx.1).squareRoot(), (dy.0 * dy.0 + dy.1 * dy.1).squareRoot())
        }
        guard !stretch.isNaN, stretch > 0 else { return 1 }
        guard stretch.isFinite else { return 16 }
        return min(max(exp2(log2(stretch).rounded(.up)), 1.0 / 16), 16)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Rect {
    /// The rectangle with every coordinate times `k` (local units to plane units).
    func scaled(by k: Double) -> Rect { Rect(x: minX * k, y: minY * k, width: width * k, height: height * k) }
}
