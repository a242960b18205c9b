public import Primitives

/// What one frame (or one snapshot) shows: items drawn back to front with
/// source-over onto the background.
public struct DisplayList: Sendable, Hashable {
    public var items: [DrawItem]
    public init(items: [DrawItem] = []) { self.items = items }
}

/// One drawing operation: fill `shape` (under `transform`, then `projection`
/// if any) with `paint`, scaled by `opacity` and restricted to every shape in `clips`.
public struct DrawItem: Sendable, Hashable {
    /// Maps the item's local coordinates to target pixels (to its plane, when `projection` is set).
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
    /// A layer with a 3-D transform, flattened as Core Animation draws it: the
    /// item (shape and paint under `transform`; a group's items) is drawn flat
    /// in its plane, whose coordinates `transform` lands in, and the plane is
    /// mapped to target pixels by this homography, perspective-correctly,
    /// cut at the eye plane (`Homography.visiblePolygon`). Nil: the plane is
    /// the target (every 2-D item). `clips` are in target pixels either way
    /// (each clip has its own map).
    public var projection: Homography?

    public init(
        transform: AffineTransform2D, shape: RoundedRect, paint: Paint,
        opacity: Double = 1, clips: [Clip] = [], label: String = "", projection: Homography? = nil
    ) {
        self.projection = projection
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
/// which may move differently from the item it clips): `shape` under
/// `transform`, then `projection` if any (an ancestor with a 3-D transform), in target pixels.
public struct Clip: Sendable, Hashable, Codable {
    public var transform: AffineTransform2D
    public var shape: RoundedRect
    public var projection: Homography?
    public init(transform: AffineTransform2D, shape: RoundedRect, projection: Homography? = nil) {
        self.transform = transform
        self.shape = shape
        self.projection = projection
    }
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
