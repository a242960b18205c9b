public import Primitives

/// One view of a screen, with UIKit's properties and Shift's options
/// (`shift`). Subviews are drawn in order, later ones on top (then by `zPosition`).
public struct View: Sendable, Hashable {
    /// A name for people: messages and `info` use it.
    public var name: String?
    /// In the superview's coordinates, as UIKit's `frame`; nil on a root means the whole canvas.
    public var frame: Rect?
    public var backgroundColor: RGBAColor?
    public var alpha: Double
    public var cornerRadius: Double
    public var masksToBounds: Bool
    public var borderWidth: Double
    public var borderColor: RGBAColor
    public var shadow: ShadowSpec?
    public var transform: TransformSpec
    public var anchorPoint: Point
    public var zPosition: Double
    public var isHidden: Bool
    public var image: ImageSource?
    public var contentMode: ContentMode
    /// Drawn like a UILabel above the background and image (nil: none).
    public var text: TextSpec?
    /// A CAGradientLayer drawn as the background, over `backgroundColor` (nil: none).
    public var gradient: GradientSpec?
    public var shift: ShiftOptions
    public var subviews: [View]
    /// Core Animation's `isDoubleSided`: false hides the view (and what is
    /// flattened into it) while its back faces the viewer.
    public var doubleSided: Bool
    /// A backdrop blur behind the view's content (UIVisualEffectView); nil: none.
    public var blur: BlurSpec?

    public init(
        name: String? = nil, frame: Rect? = nil, backgroundColor: RGBAColor? = nil, alpha: Double = 1,
        cornerRadius: Double = 0, masksToBounds: Bool = false, borderWidth: Double = 0,
        borderColor: RGBAColor = .black, shadow: ShadowSpec? = nil, transform: TransformSpec = .identity,
        anchorPoint: Point = Point(x: 0.5, y: 0.5), zPosition: Double = 0, isHidden: Bool = false,
        image: ImageSource? = nil, contentMode: ContentMode = .scaleToFill, text: TextSpec? = nil,
        gradient: GradientSpec? = nil, shift: ShiftOptions = ShiftOptions(), subviews: [View] = [],
        doubleSided: Bool = true, blur: BlurSpec? = nil
    ) {
        self.doubleSided = doubleSided
        self.blur = blur
        self.name = name
        self.frame = frame
        self.backgroundColor = backgroundColor
        self.alpha = alpha
        self.cornerRadius = cornerRadius
        self.masksToBounds = masksToBounds
        self.borderWidth = borderWidth
        self.borderColor = borderColor
        self.shadow = shadow
        self.transform = transform
        self.anchorPoint = anchorPoint
        self.zPosition = zPosition
        self.isHidden = isHidden
        self.image = image
        self.contentMode = contentMode
        self.text = text
        self.gradient = gradient
        self.shift = shift
        self.subviews = subviews
    }
}

/// Core Animation's layer shadow (`shadowColor`, `shadowOpacity`, `shadowRadius`, `shadowOffset`).
public struct ShadowSpec: Sendable, Hashable {
    public var color: RGBAColor
    public var opacity: Double
    public var radius: Double
    public var offset: Size

    /// Core Animation's defaults: black, opacity 0, radius 3, offset (0, -3).
    public init(
        color: RGBAColor = .black, opacity: Double = 0, radius: Double = 3,
        offset: Size = Size(width: 0, height: -3)
    ) {
        self.color = color
        self.opacity = opacity
        self.radius = radius
        self.offset = offset
    }
}

/// A view transform by components, applied about the anchor point: scale,
/// then `rotateX`, `rotateY`, `rotate` (about z), then translate (x, y and
/// `translateZ`), then `perspective`: the order of Core Animation's
/// decomposed transform, so the components are exactly what interpolation
/// works on (docs/3d.md). `matrix3D`, when given, is the whole transform.
/// 2-D transforms animate by component (Shift); 3-D ones as Core Animation
/// interpolates matrices (decomposed, rotation as a quaternion).
public struct TransformSpec: Sendable, Hashable {
    public var translate: Point
    public var scale: Size
    /// Degrees, clockwise on screen.
    public var rotate: Double
    /// Degrees about the view's horizontal axis (`CATransform3DMakeRotation(a, 1, 0, 0)`: a positive angle brings the bottom edge toward the viewer).
    public var rotateX: Double
    /// Degrees about the view's vertical axis (a positive angle takes the right edge away).
    public var rotateY: Double
    /// Points toward the viewer.
    public var translateZ: Double
    /// The eye's distance in points (`m34 = -1 / perspective`); nil: none (orthographic).
    public var perspective: Double?
    /// `CATransform3D`'s 16 numbers `m11 ... m44` in row-vector order; when
    /// set, the other components must be at their identity values.
    public var matrix3D: [Double]?

    public init(
        translate: Point = .zero, scale: Size = Size(width: 1, height: 1), rotate: Double = 0,
        rotateX: Double = 0, rotateY: Double = 0, translateZ: Double = 0, perspective: Double? = nil,
        matrix3D: [Double]? = nil
    ) {
        self.translate = translate
        self.scale = scale
        self.rotate = rotate
        self.rotateX = rotateX
        self.rotateY = rotateY
        self.translateZ = translateZ
        self.perspective = perspective
        self.matrix3D = matrix3D
    }

    public static let identity = TransformSpec()

    /// True when anything beyond a 2-D scale, rotation and translation is set.
    public var is3D: Bool { rotateX != 0 || rotateY != 0 || translateZ != 0 || perspective != nil || matrix3D != nil }
}

/// UIVisualEffectView with a UIBlurEffect: what is behind the view shows
/// blurred inside its rounded bounds, then the style's tint (docs/blur.md).
public struct BlurSpec: Sendable, Hashable {
    public var style: BlurStyle
    /// Points; the Gaussian's standard deviation is half of it (ours). Animates.
    public var radius: Double

    public init(style: BlurStyle = .regular, radius: Double = 20) {
        self.style = style
        self.radius = radius
    }
}

/// UIBlurEffect.Style's names; each one's tint is documented in docs/blur.md (ours).
public enum BlurStyle: String, Sendable, Hashable, CaseIterable {
    case extraLight, light, dark, regular, prominent
    case systemUltraThinMaterial, systemThinMaterial, systemMaterial, systemThickMaterial, systemChromeMaterial
    case systemUltraThinMaterialLight, systemThinMaterialLight, systemMaterialLight, systemThickMaterialLight
    case systemChromeMaterialLight
    case systemUltraThinMaterialDark, systemThinMaterialDark, systemMaterialDark, systemThickMaterialDark
    case systemChromeMaterialDark
}

/// UIKit's `UIView.ContentMode` values that place an image.
public enum ContentMode: String, Sendable, CaseIterable {
    case scaleToFill, aspectFit, aspectFill, center, top, bottom, left, right
    case topLeft, topRight, bottomLeft, bottomRight
}

/// Where a view's image comes from. A scene can be built and rendered
/// without touching the disk by giving images as data or bitmaps.
///
/// Encoded images are PNG or JPEG, told apart by their first bytes, not by a
/// file's extension. An image's size in points is its pixel size divided by
/// its scale: the scale a file's name declares (`Play@2x.png`, `Play@3x.jpg`,
/// as UIKit reads asset files; `declaredScale`), else the canvas scale.
public enum ImageSource: Sendable, Hashable {
    /// A PNG or JPEG file; a relative path is resolved against `Scene.directory`.
    /// A name ending `@2x` or `@3x` before the extension gives its pixels per point.
    case file(String)
    /// An encoded PNG or JPEG in memory, at the canvas scale.
    case encoded([UInt8])
    /// Decoded pixels (premultiplied RGBA8, at the canvas scale: an @2x image
    /// on an @2x canvas has two pixels per point).
    case bitmap(Bitmap)

    /// The pixels per point a file's name declares, as UIKit reads asset
    /// files: 2 for `Play@2x.png`, 3 for `icons/Play@3x.jpg` (the suffix
    /// just before the extension, or at the end of a name without one). Nil
    /// for other names and for data and bitmaps, which are taken at the
    /// canvas scale.
    public var declaredScale: Double? {
        guard case .file(let path) = self else { return nil }
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        let stem = name.lastIndex(of: ".").map { name[..<$0] } ?? name
        if stem.hasSuffix("@2x") { return 2 }
        if stem.hasSuffix("@3x") { return 3 }
        return nil
    }

    public static func == (lhs: ImageSource, rhs: ImageSource) -> Bool {
        switch (lhs, rhs) {
        case (.file(let a), .file(let b)): return a == b
        case (.encoded(let a), .encoded(let b)): return a == b
        case (.bitmap(let a), .bitmap(let b)): return a == b
        default: return false
        }
    }

    /// Cheap: sizes and a few bytes, so that hashing a large image does not read all of it.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .file(let path):
            hasher.combine(0)
            hasher.combine(path)
        case .encoded(let bytes):
            hasher.combine(1)
            hasher.combine(bytes.count)
            hasher.combine(bytes.prefix(64).reduce(0) { $0 &* 31 &+ Int($1) })
        case .bitmap(let bitmap):
            hasher.combine(2)
            hasher.combine(bitmap.width)
            hasher.combine(bitmap.height)
            hasher.combine(bitmap.pixels.prefix(64).reduce(0) { $0 &* 31 &+ Int($1) })
        }
    }

    /// How messages name the image: its path, or what it is.
    public var description: String {
        switch self {
        case .file(let path): return "\"\(path)\""
        case .encoded(let bytes): return "image data (\(bytes.count) bytes)"
        case .bitmap(let bitmap): return "a \(bitmap.width) x \(bitmap.height) bitmap"
        }
    }
}
