import Primitives
import FramePlan

/// The flat plane layer of one projected item (`DrawItem.projection`), as Core
/// Animation flattens a layer with a 3-D transform: the item drawn flat, with
/// the ordinary 2-D rasterizer, into a transparent texture covering its part
/// of the plane, with mip levels; `ProjectedLayerFill` then maps it to the
/// target perspective-correctly.
///
/// Extent: the item's `paintRect` under `transform` (plane units) is the
/// plane box; only the part whose image lands in the view (target, group box
/// and clip bounds, grown by 2 px) is kept, found by cutting the eye-clipped
/// image (`Homography.visiblePolygon`) to the view and mapping it back. So a
/// plane grazing the eye plane, whose image runs off to infinity, costs only
/// what is on screen.
///
/// Density `s` (texels per plane unit): the largest magnification of the
/// projection (spectral norm of its Jacobian, plane units -> target pixels)
/// at the kept part's vertices, edge midpoints and centroid, so no target
/// pixel is magnified from the layer (a texel is at most a pixel wide).
/// Caps (memory and the samplers' 2^22 coordinate range): at most `maxSide`
/// texels a side and `maxTexels` in all (64 MB of RGBA8, plus up to 3x that in
/// rip-map levels in the worst, edge-on case); beyond them the layer is
/// magnified (blurrier, never wrong in place).
///
/// Layout: layer texel `(i, j)` has its centre at plane point
/// `((i + 0.5 + ox) / s, (j + 0.5 + oy) / s)`, with integer `ox, oy` and
/// `padding` transparent-or-content texels around the kept box, so the
/// content's anti-aliased edges fade to transparent texels before the
/// texture's own edge (bilinear samples near the edge read them; the
/// texture's padding copies them).
///
/// Determinism: the item is drawn at preparation with the frame's threads
/// (`Rasterizer.drawBanded` with up to `threads` bands, whose bytes never
/// depend on the band count), and its copy and levels are made there too, with
/// the same threads in blocks of rows (`Texture`; `MipChain` is
/// order-independent): pure in the item.
final class PlaneLayer: @unchecked Sendable {
    static let maxSide = 4096
    static let maxTexels = 1 << 24
    static let padding = 2

    /// Texels per plane unit.
    let density: Double
    /// Target pixels of the layer's image, cut to the view grown by 2 px.
    let outline: ConvexPolygon
    /// Pixels the item may touch (within the view).
    let bounds: PixelBox
    /// The map and levels the samplers read (pointers into `textures`, owned here).
    let texels: ProjectedSampling.Texels
    let chain: MipChain
    private let textures: [Texture]
    private let bases: UnsafeMutablePointer<UnsafeRawPointer>
    private let rowBytes: UnsafeMutablePointer<Int>

    /// Where a plane layer lies and how large it is, worked out before anything is drawn (`PlaneLayer.init` draws
    /// what this says; `ProjectedMemory` counts it): the density, the texel box and the levels the samplers read.
    struct Extent {
        /// Texels per plane unit.
        var density: Double
        /// The layer's first texel, in texels from the plane's origin (padding included).
        var ox: Int
        var oy: Int
        var width: Int
        var height: Int
        /// Target pixel index -> base texel coordinates (texel centres at integers).
        var map: Homography
        /// The levels built and read: enough for the largest minification at the probes, one spare.
        var maxLevelX: Int
        var maxLevelY: Int
        /// The view grown by 2 px, which the layer's image is cut to.
        var grown: (minX: Double, minY: Double, maxX: Double, maxY: Double)

        /// Nil when nothing is drawn: a non-finite or singular projection or transform, a degenerate box, or
        /// nothing in front of the eye inside the view.
        init?(item: DrawItem, projection h: Homography, view: PixelBox) {
            guard !view.isEmpty, h.isFinite, let g = h.inverted else { return nil }
            let t = item.transform
            let r = item.paintRect
            let corners = [
                Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.minY), Point(x: r.minX, y: r.maxY), Point(x: r.maxX, y: r.maxY),
            ].map(t.apply)
            guard corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }), let box = PlaneLayer.boundingBox(corners), box.width > 0,
                box.height > 0, [box.minX, box.minY, box.maxX, box.maxY].allSatisfy({ $0.isFinite && abs($0) < 1e9 })
            else { return nil }
            let grown = (
                minX: Double(view.x0) - 2, minY: Double(view.y0) - 2, maxX: Double(view.x1) + 2, maxY: Double(view.y1) + 2
            )
            let visible = ConvexPolygon(h.visiblePolygon(of: box))
                .clipped(minX: grown.minX, minY: grown.minY, maxX: grown.maxX, maxY: grown.maxY)
            guard !visible.isEmpty else { return nil }
            // Target points probing the kept part: vertices, edge midpoints, centroid.
            var probes = visible.points
            for i in visible.points.indices {
                let a = visible.points[i]
                let b = visible.points[(i + 1) % visible.points.count]
                probes.append(Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2))
            }
            let n = Double(visible.points.count)
            probes.append(Point(x: visible.points.reduce(0) { $0 + $1.x } / n, y: visible.points.reduce(0) { $0 + $1.y } / n))
            var plane: [Point] = []
            var magnification = 0.0
            for q in probes {
                let back = g.homogeneous(q)
                guard back.w > 0 else { continue }
                let p = Point(x: back.x / back.w, y: back.y / back.w)
                guard p.x.isFinite, p.y.isFinite else { continue }
                plane.append(p)
                magnification = max(magnification, PlaneLayer.magnification(h, at: p))
            }
            guard let keptBounds = PlaneLayer.boundingBox(plane) else { return nil }
            let kept = (
                minX: max(box.minX, keptBounds.minX), minY: max(box.minY, keptBounds.minY),
                maxX: min(box.maxX, keptBounds.maxX), maxY: min(box.maxY, keptBounds.maxY)
            )
            guard kept.minX <= kept.maxX, kept.minY <= kept.maxY, magnification.isFinite, magnification > 0 else { return nil }
            let keptW = max(kept.maxX - kept.minX, 1e-9)
            let keptH = max(kept.maxY - kept.minY, 1e-9)
            let sideCap = Double(PlaneLayer.maxSide - 2 * PlaneLayer.padding - 2) / max(keptW, keptH)
            let areaCap =
                (Double(PlaneLayer.maxTexels) / (keptW * keptH)).squareRoot() - Double(2 * PlaneLayer.padding + 2) / max(keptW, keptH)
            let s = min(magnification, sideCap, areaCap)
            guard s > 0, s.isFinite, abs(kept.minX * s) < 1e9, abs(kept.maxX * s) < 1e9, abs(kept.minY * s) < 1e9,
                abs(kept.maxY * s) < 1e9
            else { return nil }
            let ox = Int((kept.minX * s).rounded(.down)) - PlaneLayer.padding
            let oy = Int((kept.minY * s).rounded(.down)) - PlaneLayer.padding
            let width = Int((kept.maxX * s).rounded(.up)) + PlaneLayer.padding - ox
            let height = Int((kept.maxY * s).rounded(.up)) + PlaneLayer.padding - oy
            guard width > 0, height > 0, width <= PlaneLayer.maxSide, height <= PlaneLayer.maxSide, width * height <= PlaneLayer.maxTexels
            else { return nil }
            // Target pixel index -> base texel coordinates (texel centres at integers).
            let map = Homography(affine: .translation(0.5, 0.5)).concatenating(g)
                .concatenating(AffineTransform2D.scale(s, s).concatenating(.translation(-Double(ox) - 0.5, -Double(oy) - 0.5)))
            guard map.isFinite else { return nil }
            // Levels: enough for the largest minification at the probes, one spare.
            var most = (x: 0.0, y: 0.0)
            for q in probes {
                guard let j = map.derivatives(at: Point(x: q.x - 0.5, y: q.y - 0.5)) else { continue }
                most.x = max(most.x, (j.xByX * j.xByX + j.xByY * j.xByY).squareRoot())
                most.y = max(most.y, (j.yByX * j.yByX + j.yByY * j.yByY).squareRoot())
            }
            (maxLevelX, maxLevelY) = MipChain.levelIndices(
                texelsPerPixelX: most.x.isFinite ? 2 * most.x : .greatestFiniteMagnitude,
                texelsPerPixelY: most.y.isFinite ? 2 * most.y : .greatestFiniteMagnitude, width: width, height: height)
            (density, self.ox, self.oy, self.width, self.height, self.map, self.grown) = (s, ox, oy, width, height, map, grown)
        }
    }

    /// Nil when nothing is drawn: a non-finite or singular projection or
    /// transform, a degenerate box, nothing in front of the eye inside the
    /// view, or an item that draws nothing flat.
    init?(
        item: DrawItem, projection h: Homography, view: PixelBox, sources: Rasterizer.Sources, depth: Int, threads: Int
    ) {
        guard let extent = Extent(item: item, projection: h, view: view) else { return nil }
        let (s, ox, oy, width, height, grown) = (extent.density, extent.ox, extent.oy, extent.width, extent.height, extent.grown)
        let t = item.transform

        // The item drawn flat: plane -> layer texels is scale(s) then translate(-origin).
        let toLayer = AffineTransform2D.scale(s, s).concatenating(.translation(-Double(ox), -Double(oy)))
        var flat = item
        flat.projection = nil
        flat.opacity = 1
        flat.clips = []
        flat.transform = t.concatenating(toLayer)
        // A group's items are in its target space, here the plane: they move into the layer with it.
        if case .group(let content) = item.paint { flat.paint = .group(Self.placed(content, by: toLayer)) }
        var list = Rasterizer.prepare(
            DisplayList(items: [flat]), target: PixelBox(x0: 0, y0: 0, x1: width, y1: height), sources: sources,
            depth: depth + 1, threads: threads)
        guard !list.items.isEmpty else { return nil }
        list.layers = GroupLayer.postOrder(list.items)
        var bitmap = Bitmap(width: width, height: height)
        // Banded like a frame (`drawBanded` gives the same bytes for any band count), at most one band per 16 rows.
        let bands = max(1, min(threads, (height + Rasterizer.chunkRows - 1) / Rasterizer.chunkRows))
        let scratch = (0 ..< bands).map { _ in RowScratch(width: width) }
        Rasterizer.drawBanded(list, background: nil, target: &bitmap, scratch: scratch, layers: LayerPool())
        chain = MipChain(bitmap, threads: threads, pool: sources.texturePool, tracksInk: false)

        let map = extent.map
        let (maxLx, maxLy) = (extent.maxLevelX, extent.maxLevelY)
        var textures: [Texture] = []
        for lx in 0 ... maxLx {
            for ly in 0 ... maxLy { textures.append(chain.level(lx, ly)) }
        }
        bases = .allocate(capacity: textures.count)
        rowBytes = .allocate(capacity: textures.count)
        for (i, texture) in textures.enumerated() {
            bases[i] = texture.base
            rowBytes[i] = texture.rowBytes
        }
        self.textures = textures
        texels = ProjectedSampling.Texels(
            map: map, width: width, height: height, maxLevelX: maxLx, maxLevelY: maxLy,
            levelBases: UnsafePointer(bases), levelRowBytes: UnsafePointer(rowBytes))
        density = s

        let layerRect = Rect(
            x: Double(ox) / s, y: Double(oy) / s, width: Double(width) / s, height: Double(height) / s)
        outline = ConvexPolygon(h.visiblePolygon(of: layerRect))
            .clipped(minX: grown.minX, minY: grown.minY, maxX: grown.maxX, maxY: grown.maxY)
        let b = outline.bounds ?? Rect.zero
        bounds = outline.isEmpty
            ? .empty
            : PixelBox.centres(minX: b.minX - 1, minY: b.minY - 1, maxX: b.maxX + 1, maxY: b.maxY + 1).intersection(view)
    }

    deinit {
        bases.deallocate()
        rowBytes.deallocate()
    }

    /// `list` with its target space mapped by `t`: each item's and clip's map to
    /// the target followed by `t` (after a projection, when there is one), and a
    /// group's items, which live in its target space unless it has a projection, moved likewise.
    static func placed(_ list: DisplayList, by t: AffineTransform2D) -> DisplayList {
        DisplayList(items: list.items.map { item in
            var item = item
            if let projection = item.projection {
                item.projection = projection.concatenating(t)
            } else {
                item.transform = item.transform.concatenating(t)
                if case .group(let content) = item.paint { item.paint = .group(placed(content, by: t)) }
            }
            item.clips = item.clips.map { clip in
                var clip = clip
                if let projection = clip.projection {
                    clip.projection = projection.concatenating(t)
                } else {
                    clip.transform = clip.transform.concatenating(t)
                }
                return clip
            }
            return item
        })
    }

    /// The largest scale (target pixels per plane unit, any direction) of `h` at plane point `p`:
    /// the spectral norm of `d(X/W, Y/W)/d(x, y)`; 0 behind the eye.
    static func magnification(_ h: Homography, at p: Point) -> Double {
        guard let j = h.derivatives(at: p) else { return 0 }
        let (a, b, c, d) = (j.xByX, j.xByY, j.yByX, j.yByY)
        let sum = a * a + b * b + c * c + d * d
        let det = a * d - b * c
        let root = max(0, sum * sum - 4 * det * det).squareRoot()
        return ((sum + root) / 2).squareRoot()
    }

    /// Bounding box of the finite points among `points` (nil when there is none).
    fileprivate static func boundingBox(_ points: [Point]) -> Rect? {
        let finite = points.filter { $0.x.isFinite && $0.y.isFinite }
        guard let first = finite.first else { return nil }
        var (x0, y0, x1, y1) = (first.x, first.y, first.x, first.y)
        for p in finite {
            x0 = min(x0, p.x)
            x1 = max(x1, p.x)
            y0 = min(y0, p.y)
            y1 = max(y1, p.y)
        }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
