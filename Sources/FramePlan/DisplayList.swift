public import Primitives

/// What one frame (or one snapshot) shows: items drawn back to front with
/// source-over onto the background.
public struct DisplayList: Sendable, Hashable {
    public var items: [DrawItem]
    public init(items: [DrawItem] = []) { self.items = items }
}

/// One drawing operation: fill `shape` (under `transform`) with `paint`,
/// scaled by `opacity` and restricted to every shape in `clips`.
public struct DrawItem: Sendable, Hashable {
    /// Maps the item's local coordinates to target pixels.
    public var transform: AffineTransform2D
    /// Where the paint lands, in local coordinates; its corners are rounded.
    public var shape: RoundedRect
    public var paint: Paint
    /// 0...1, multiplied into the paint.
    public var opacity: Double
    /// Every clip must contain a point for it to be drawn (an intersection).
    public var clips: [Clip]
    /// Which view this item draws, for people reading an exported plan; not used to draw.
    public var label: String

    public init(transform: AffineTransform2D, shape: RoundedRect, paint: Paint,
                opacity: Double = 1, clips: [Clip] = [], label: String = "") {
        self.transform = transform
        self.shape = shape
        self.paint = paint
        self.opacity = opacity
        self.clips = clips
        self.label = label
    }
}

/// A rectangle with circular corners of one radius (clamped to half the shorter side when drawn).
public struct RoundedRect: Sendable, Hashable, Codable {
    public var rect: Rect
    public var cornerRadius: Double
    public init(rect: Rect, cornerRadius: Double = 0) {
        self.rect = rect
        self.cornerRadius = cornerRadius
    }
}

/// A clipping shape with a transform of its own (it belongs to an ancestor view,
/// which may move differently from the item it clips).
public struct Clip: Sendable, Hashable, Codable {
    public var transform: AffineTransform2D
    public var shape: RoundedRect
    public init(transform: AffineTransform2D, shape: RoundedRect) {
        self.transform = transform
        self.shape = shape
    }
}

/// What fills a shape.
public enum Paint: Sendable, Hashable {
    /// A flat colour (straight alpha, sRGB).
    case solid(RGBAColor)
    /// A bitmap stretched so that its full extent covers `shape.rect`,
    /// sampled bilinearly (with area filtering where it is drawn smaller).
    case bitmap(BitmapReference)
    /// A border as Core Animation draws one: the ring between `shape` and
    /// `shape` inset by `width` on every side (inner corner radius
    /// `max(0, cornerRadius - width)`), filled with `color`. Local units.
    case border(width: Double, color: RGBAColor)
    /// A drop shadow: `shape` filled with `color` and blurred by a Gaussian of
    /// standard deviation `sigma` (local units; scaled by the transform like
    /// the shape). The engine has already offset `shape` by the shadow offset
    /// and folded the shadow opacity into `color`'s alpha.
    case shadow(color: RGBAColor, sigma: Double)
    /// Group opacity, as Core Animation composites a view whose alpha is below 1:
    /// the nested items (in the same target space as this item) are drawn onto
    /// a transparent layer, and the layer is drawn with this item's `opacity`,
    /// inside `shape` (under `transform`) and every clip. Overlapping parts of
    /// the view then do not show through each other. `shape` bounds the layer.
    indirect case group(DisplayList)
}

/// Which bitmap a `.bitmap` paint samples.
public enum BitmapReference: Sendable, Hashable {
    /// An index into `FramePlanSource.images`.
    case image(Int)
    /// An index into `FramePlanSource.snapshots` (rasterized by the compositor).
    case snapshot(Int)
}

/// Static content: a display list in its own pixel space, rasterized once
/// into a transparent bitmap of `pixelWidth x pixelHeight`.
/// Its items may use `.bitmap(.image(_))` but never `.bitmap(.snapshot(_))`.
public struct SnapshotDescription: Sendable, Hashable {
    public var name: String
    public var pixelWidth: Int
    public var pixelHeight: Int
    public var content: DisplayList

    public init(name: String, pixelWidth: Int, pixelHeight: Int, content: DisplayList) {
        self.name = name
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.content = content
    }
}
