import Primitives
import FramePlan

/// A `DrawItem` after setup: geometry in kernel form, culled against the
/// target and its clips, paint resolved to a colour, a texture level and texel
/// mapping, a ring, a blurred shape or a group's layer. Built once per display list (before any
/// band is drawn), so every band sees identical numbers: the basis of
/// thread-count-independent output.
struct PreparedItem: Sendable {
    enum Fill: Sendable {
        /// Premultiplied RGBA8.
        case solid(SIMD4<UInt8>)
        /// Bilinear samples of a texture level (the mip level suited to the scale).
        case bitmap(TexelMapping, Texture)
        /// The ring between `shape` and `inner`, in a premultiplied colour.
        case border(SIMD4<UInt8>, inner: CoverageShape)
        /// The shape blurred (`shape` is then the blur's 3-sigma extent).
        case shadow(SIMD4<UInt8>, ShadowShape)
        /// A group's layer, read 1:1 (layer pixel `(x, y)` is target pixel `(x, y)`).
        case layer(GroupLayer)
    }

    /// Where coverage can be non-zero; `span` and `fullSpan` per row.
    let shape: CoverageShape
    let clips: [CoverageShape]
    let fill: Fill
    /// 0...1 (clamped), multiplied into coverage, and as 8-bit alpha (the interior's).
    let opacity: Float
    let opacityByte: UInt8
    /// Target pixels the item can touch: shape bounds within target and clip bounds.
    let bounds: PixelBox
    /// Pixels this item paints exactly opaque (so it hides what is under them), if any.
    let opaqueBox: PixelBox?
    /// The pixels of a later opaque item's `opaqueBox` that hide part of this one (`Occlusion`).
    var hiddenBy: PixelBox?

    /// Nil when the item draws nothing: zero opacity or colour alpha, degenerate
    /// or non-invertible geometry (item or any clip), an unknown or empty bitmap,
    /// a snapshot referenced where snapshots are not allowed, a border of no
    /// width, or nothing inside the target. Also nil for `.group` items, which
    /// `Rasterizer.prepare` resolves (they need their nested list prepared).
    init?(_ item: DrawItem, targetWidth: Int, targetHeight: Int, sources: Rasterizer.Sources) {
        self.init(item, target: PixelBox(x0: 0, y0: 0, x1: targetWidth, y1: targetHeight), sources: sources)
    }

    /// The same, for a target that is the pixel box `target` (a group's layer
    /// holds target pixels `target` only).
    init?(_ item: DrawItem, target: PixelBox, sources: Rasterizer.Sources) {
        let opacity = item.opacity > 0 ? min(item.opacity, 1) : 0  // NaN -> 0
        guard opacity > 0 else { return nil }
        let fill: Fill
        switch item.paint {
        case .solid(let color):
            let premultiplied = Compositor.premultipliedPixel(color)
            guard premultiplied.w > 0 else { return nil }
            fill = .solid(premultiplied)
        case .bitmap(let reference):
            guard let chain = sources.chain(reference),
                  let (mapping, texture) = TexelMapping.forChain(chain, transform: item.transform, rect: item.shape.rect)
            else { return nil }
            fill = .bitmap(mapping, texture)
        case .border(let width, let color):
            let premultiplied = Compositor.premultipliedPixel(color)
            guard premultiplied.w > 0, width > 0 else { return nil }  // NaN too
            let r = item.shape.rect
            let insetRect = Rect(x: r.minX + width, y: r.minY + width, width: r.width - 2 * width, height: r.height - 2 * width)
            let insetRadius = max(0, (item.shape.cornerRadius.isNaN ? 0 : item.shape.cornerRadius) - width)
            if let inner = CoverageShape(transform: item.transform, shape: RoundedRect(rect: insetRect, cornerRadius: insetRadius)) {
                fill = .border(premultiplied, inner: inner)
            } else {
                fill = .solid(premultiplied)  // the border covers the whole shape
            }
        case .shadow(let color, let sigma):
            let premultiplied = Compositor.premultipliedPixel(color)
            guard premultiplied.w > 0, !sigma.isNaN else { return nil }
            if let shadow = ShadowShape(transform: item.transform, shape: item.shape, sigma: sigma) {
                fill = .shadow(premultiplied, shadow)
            } else {
                fill = .solid(premultiplied)  // sigma 0 (or unusable): the hard shape
            }
        case .group:
            return nil  // see `Rasterizer.appendGroup`
        }
        let shape: CoverageShape
        if case .shadow(_, let shadow) = fill {
            shape = shadow.extent
        } else {
            guard let s = CoverageShape(transform: item.transform, shape: item.shape) else { return nil }
            shape = s
        }
        var bounds = shape.bounds.intersection(target)
        var clips: [CoverageShape] = []
        clips.reserveCapacity(item.clips.count)
        for clip in item.clips {
            guard !bounds.isEmpty, let c = CoverageShape(transform: clip.transform, shape: clip.shape) else { return nil }
            bounds = bounds.intersection(c.bounds)
            clips.append(c)
        }
        guard !bounds.isEmpty else { return nil }

        self.shape = shape
        self.clips = clips
        self.fill = fill
        self.opacity = Float(opacity)
        opacityByte = roundedByte(Float(opacity) * 255)
        self.bounds = bounds
        opaqueBox = Self.opaqueBox(shape: shape, clips: clips, fill: fill, opacityByte: opacityByte, bounds: bounds)
    }

    /// A group item: `layer` composited inside `shape` and `clips` at `opacity`
    /// (0...1], over the layer's box (already within shape, clips and target).
    init(layer: GroupLayer, shape: CoverageShape, clips: [CoverageShape], opacity: Double) {
        self.shape = shape
        self.clips = clips
        fill = .layer(layer)
        self.opacity = Float(opacity)
        opacityByte = roundedByte(Float(opacity) * 255)
        bounds = layer.box
        opaqueBox = nil
    }

    private static func opaqueBox(shape: CoverageShape, clips: [CoverageShape], fill: Fill,
                                  opacityByte: UInt8, bounds: PixelBox) -> PixelBox? {
        guard opacityByte == 255 else { return nil }
        switch fill {
        case .solid(let c): guard c.w == 255 else { return nil }
        case .bitmap(_, let texture): guard texture.isOpaque else { return nil }
        case .border, .shadow, .layer: return nil
        }
        guard var box = shape.fullBox else { return nil }
        for clip in clips {
            guard let c = clip.fullBox else { return nil }
            box = box.intersection(c)
        }
        box = box.intersection(bounds)
        return box.isEmpty ? nil : box
    }
}
