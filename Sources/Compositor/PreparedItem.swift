import Primitives
import FramePlan

/// A prepared item's fill: one case per fill type (`Fill`). The two switches
/// over paint kinds are below: `PreparedItem.append` (a plan's `Paint` to its
/// fill) and `PreparedItem.draw` (a fill to its drawing code).
enum PreparedFill: Sendable {
    case solid(SolidFill)
    case bitmap(BitmapFill)
    case border(BorderFill)
    case shadow(ShadowFill)
    case gradient(GradientFill)
    case layer(LayerFill)
    case backedGroup(BackedGroupFill)
    case backdrop(BackdropFill)
    case projected(ProjectedLayerFill)
    case projectedBackdrop(ProjectedBackdropFill)
}

/// A `DrawItem` after setup: geometry in kernel form, culled against the
/// target and its clips, paint resolved to its fill (a colour, a texture level
/// and texel mapping, a ring, a blurred shape or a group's layer). Built once
/// per display list (before any band is drawn), so every band sees identical
/// numbers: the basis of thread-count-independent output.
struct PreparedItem: Sendable {
    /// Where coverage can be non-zero; `span` and `fullSpan` per row.
    let shape: CoverageShape
    let clips: [CoverageShape]
    let fill: PreparedFill
    /// 0...1 (clamped), multiplied into coverage, and as 8-bit alpha (the interior's).
    let opacity: Float
    let opacityByte: UInt8
    /// Target pixels the item can touch: shape bounds within target and clip bounds.
    let bounds: PixelBox
    /// Pixels this item paints exactly opaque (so it hides what is under them), if any.
    let opaqueBox: PixelBox?
    /// The pixels of later opaque items' `opaqueBox`es that hide parts of this one (`Occlusion`), by `x0`; may overlap.
    var hiddenBy: [PixelBox] = []
    /// Without such a box: a later rotated opaque item whose full spans hide part of each row (`Occlusion`).
    var hiddenByRows: RowHider?
    /// The fill paints every pixel exactly opaque at full coverage (`Fill.paintsOpaque`).
    let paintsOpaque: Bool
    /// Pixels this item leaves alone because another item draws them (`LayerBypass`); usually none.
    var excluded: [PixelBox] = []
    /// The rows whose span, interior and edge coverage are computed once (`SteadyRows`), if any;
    /// nil draws every row the per-row way (the same bytes: tests compare the two).
    var steady: SteadyRows?

    /// `item.opacity` clamped to 0...1, NaN as 0: an item of opacity 0 is never prepared.
    static func opacity(of item: DrawItem) -> Double { item.opacity > 0 ? min(item.opacity, 1) : 0 }

    /// Appends what `item` draws to `items`, prepared against the pixel box
    /// `target`: nothing when it draws nothing (zero opacity, see each fill's
    /// `prepare` for the rest), usually one item, a group's items when its
    /// layer would be a no-op (`LayerFill.append`). The one place a paint
    /// becomes a fill. `threads`: bands for drawing projected items' plane layers.
    static func append(
        _ item: DrawItem, target: PixelBox, sources: Rasterizer.Sources, depth: Int, threads: Int,
        into items: inout [PreparedItem]
    ) {
        guard opacity(of: item) > 0 else { return }
        if item.projection != nil || item.clips.contains(where: { $0.projection != nil }) {
            // A backdrop blur reads the target, not a flat layer: the blur pass handles its projection.
            if case .backdropBlur(let sigma) = item.paint {
                // Inside a group's or a plane's layer there is no backdrop to read (as below).
                guard depth == 0 else { return }
                if let prepared = ProjectedBackdropFill.prepare(item, sigma: sigma, target: target) { items.append(prepared) }
                return
            }
            ProjectedLayerFill.append(item, target: target, sources: sources, depth: depth, threads: threads, into: &items)
            return
        }
        let prepared: PreparedItem?
        switch item.paint {
        case .solid(let color): prepared = SolidFill.prepare(item, color: color, target: target)
        case .bitmap(let reference): prepared = BitmapFill.prepare(item, reference, sources: sources, target: target)
        case .border(let width, let color): prepared = BorderFill.prepare(item, width: width, color: color, target: target)
        case .shadow(let color, let sigma): prepared = ShadowFill.prepare(item, color: color, sigma: sigma, target: target)
        case .gradient(let paint): prepared = GradientFill.prepare(item, paint, target: target)
        case .group(let content):
            LayerFill.append(
                item, content: content, target: target, sources: sources, depth: depth, threads: threads, into: &items)
            return
        case .backdropBlur(let sigma):
            // Inside a group's layer (inlined no-op groups included, so both
            // forms agree) there is no backdrop to read: nothing is drawn.
            guard depth == 0 else { return }
            prepared = BackdropFill.prepare(item, sigma: sigma, target: target)
        }
        if let prepared { items.append(prepared) }
    }

    /// Draws this item's rows that belong to band `band` of `split` into
    /// `target` (rows of `width` pixels from target pixel `origin` on). The one
    /// switch from a fill to its code: everything it calls is specialized for
    /// that fill.
    func draw(
        band: Int, of split: BandSplit, into target: UnsafeMutablePointer<UInt8>, width: Int,
        origin: (x: Int, y: Int) = (0, 0), scratch: RowScratch
    ) {
        switch fill {
        case .solid(let f): drawRows(f, band: band, of: split, into: target, width: width, origin: origin, scratch: scratch)
        case .bitmap(let f): drawRows(f, band: band, of: split, into: target, width: width, origin: origin, scratch: scratch)
        case .border(let f): drawRows(f, band: band, of: split, into: target, width: width, origin: origin, scratch: scratch)
        case .shadow(let f): drawRows(f, band: band, of: split, into: target, width: width, origin: origin, scratch: scratch)
        case .gradient(let f): drawRows(f, band: band, of: split, into: target, width: width, origin: origin, scratch: scratch)
        case .layer(let f): drawRows(f, band: band, of: split, into: target, width: width, origin: origin, scratch: scratch)
        case .backedGroup(let f):
            drawRows(f, band: band, of: split, into: target, width: width, origin: origin, scratch: scratch)
        case .backdrop(let f): drawRows(f, band: band, of: split, into: target, width: width, origin: origin, scratch: scratch)
        case .projected(let f):
            drawRows(f, band: band, of: split, into: target, width: width, origin: origin, scratch: scratch)
        case .projectedBackdrop(let f):
            drawRows(f, band: band, of: split, into: target, width: width, origin: origin, scratch: scratch)
        }
    }

    /// A backdrop blur: a pass boundary (`Rasterizer.drawBanded`, `Occlusion`).
    var backdrop: BackdropRegion? {
        switch fill {
        case .backdrop(let f): return f.region
        case .projectedBackdrop(let f): return f.region
        default: return nil
        }
    }

    private func drawRows<F: Fill>(
        _ fill: F, band: Int, of split: BandSplit, into target: UnsafeMutablePointer<UInt8>, width: Int,
        origin: (x: Int, y: Int), scratch: RowScratch
    ) {
        guard var painter = RowPainter(self, fill, target: target, width: width, origin: origin, scratch: scratch) else { return }
        Rasterizer.forEachRow(of: band, in: split, rows: bounds.y0 ..< bounds.y1) { y in painter.drawRow(y) }
    }

    /// For tests: `item` prepared against a `targetWidth x targetHeight`
    /// target, or nil when it draws nothing or is a group.
    init?(_ item: DrawItem, targetWidth: Int, targetHeight: Int, sources: Rasterizer.Sources) {
        if case .group = item.paint { return nil }
        var items: [PreparedItem] = []
        Self.append(
            item, target: PixelBox(x0: 0, y0: 0, x1: targetWidth, y1: targetHeight), sources: sources, depth: 0,
            threads: 1, into: &items)
        guard let first = items.first else { return nil }
        self = first
    }

    /// `item` drawn with `fill` inside `shape` (the item's own shape unless the
    /// fill draws beyond it: a shadow's extent) and the item's clips, at the
    /// item's opacity. Nil for degenerate or non-invertible geometry (shape or
    /// any clip) or nothing inside `target` and the clips.
    init?<F: Fill>(_ item: DrawItem, _ fill: F, shape: CoverageShape? = nil, target: PixelBox) {
        guard let (shape, clips, bounds) = Self.geometry(item, shape: shape, target: target) else { return nil }
        self.init(
            fill.prepared, shape: shape, clips: clips, opacity: Self.opacity(of: item), bounds: bounds,
            paintsOpaque: fill.paintsOpaque)
    }

    /// The coverage shape (`shape`, else the item's own), clips and pixel
    /// bounds within `target` of `item`; nil as for `init?(_:_:shape:target:)`.
    static func geometry(
        _ item: DrawItem, shape: CoverageShape? = nil, target: PixelBox
    ) -> (shape: CoverageShape, clips: [CoverageShape], bounds: PixelBox)? {
        guard let shape = shape ?? CoverageShape(transform: item.transform, shape: item.shape) else { return nil }
        var bounds = shape.bounds.intersection(target)
        var clips: [CoverageShape] = []
        clips.reserveCapacity(item.clips.count)
        for clip in item.clips {
            guard !bounds.isEmpty, let c = CoverageShape(transform: clip.transform, shape: clip.shape) else { return nil }
            bounds = bounds.intersection(c.bounds)
            clips.append(c)
        }
        guard !bounds.isEmpty else { return nil }
        return (shape, clips, bounds)
    }

    /// An item from its parts (`bounds` already within shape, clips and target);
    /// opacity in (0, 1].
    init(
        _ fill: PreparedFill, shape: CoverageShape, clips: [CoverageShape], opacity: Double, bounds: PixelBox,
        paintsOpaque: Bool
    ) {
        self.shape = shape
        self.clips = clips
        self.fill = fill
        self.opacity = Float(opacity)
        opacityByte = roundedByte(Float(opacity) * 255)
        self.bounds = bounds
        steady = SteadyRows(shape: shape, clips: clips, bounds: bounds)
        self.paintsOpaque = paintsOpaque
        opaqueBox = paintsOpaque ? Self.opaqueBox(shape: shape, clips: clips, opacityByte: opacityByte, bounds: bounds) : nil
    }

    /// This item's geometry cut to `box` (within its bounds), with `fill` and
    /// `opacity` instead of its own: what a group's layer would hold there,
    /// drawn onto the group's target (`LayerBypass`). `fill` paints `box` exactly opaque.
    func bypassing(to box: PixelBox, fill: PreparedFill, opacity: Double) -> PreparedItem {
        PreparedItem(fill, shape: shape, clips: clips, opacity: opacity, bounds: box.intersection(bounds), paintsOpaque: true)
    }

    /// Pixels where shape and every clip cover exactly 1 at opacity 1 (an
    /// opaque fill then replaces what is under them), if any.
    private static func opaqueBox(shape: CoverageShape, clips: [CoverageShape], opacityByte: UInt8, bounds: PixelBox) -> PixelBox? {
        guard opacityByte == 255, var box = shape.fullBox else { return nil }
        for clip in clips {
            guard let c = clip.fullBox else { return nil }
            box = box.intersection(c)
        }
        box = box.intersection(bounds)
        return box.isEmpty ? nil : box
    }
}
