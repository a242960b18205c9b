import Primitives
import FramePlan

/// A `DrawItem` after setup: geometry in kernel form, culled against the
/// target and its clips, paint resolved to a colour or a texel mapping.
/// Built once per display list (before any band is drawn), so every band sees
/// identical numbers: the basis of thread-count-independent output.
struct PreparedItem: Sendable {
    enum Fill: Sendable {
        /// Premultiplied RGBA8.
        case solid(SIMD4<UInt8>)
        /// Bilinear samples of `images[index]` or `snapshots[index]`.
        case bitmap(BitmapReference, TexelMapping)
    }

    let shape: CoverageShape
    let clips: [CoverageShape]
    let fill: Fill
    /// 0...1 (clamped), multiplied into coverage.
    let opacity: Float
    /// Target pixels the item can touch: shape bounds within target and clip bounds.
    let bounds: PixelBox

    /// Nil when the item draws nothing: zero opacity or colour alpha, degenerate
    /// or non-invertible geometry (item or any clip), an unknown or empty bitmap,
    /// a snapshot referenced where snapshots are not allowed, or nothing inside the target.
    init?(_ item: DrawItem, targetWidth: Int, targetHeight: Int,
          imageSizes: [(width: Int, height: Int)], snapshotSizes: [(width: Int, height: Int)]) {
        let opacity = item.opacity > 0 ? min(item.opacity, 1) : 0  // NaN -> 0
        guard opacity > 0, let shape = CoverageShape(transform: item.transform, shape: item.shape) else { return nil }
        var bounds = shape.bounds.intersection(PixelBox(x0: 0, y0: 0, x1: targetWidth, y1: targetHeight))
        var clips: [CoverageShape] = []
        clips.reserveCapacity(item.clips.count)
        for clip in item.clips {
            guard !bounds.isEmpty, let c = CoverageShape(transform: clip.transform, shape: clip.shape) else { return nil }
            bounds = bounds.intersection(c.bounds)
            clips.append(c)
        }
        guard !bounds.isEmpty else { return nil }

        switch item.paint {
        case .solid(let color):
            let premultiplied = Compositor.premultipliedPixel(color)
            guard premultiplied.w > 0 else { return nil }
            fill = .solid(premultiplied)
        case .bitmap(let reference):
            let size: (width: Int, height: Int)
            switch reference {
            case .image(let i):
                guard imageSizes.indices.contains(i) else { return nil }
                size = imageSizes[i]
            case .snapshot(let i):
                guard snapshotSizes.indices.contains(i) else { return nil }
                size = snapshotSizes[i]
            }
            guard let mapping = TexelMapping(transform: item.transform, rect: item.shape.rect,
                                             sourceWidth: size.width, sourceHeight: size.height)
            else { return nil }
            fill = .bitmap(reference, mapping)
        case .border, .shadow:
            // Not drawn yet: the engine does not emit them until the compositor does.
            return nil
        }
        self.shape = shape
        self.clips = clips
        self.opacity = Float(opacity)
        self.bounds = bounds
    }
}
