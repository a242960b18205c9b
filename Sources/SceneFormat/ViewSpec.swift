public import Primitives

/// One view of a screen, with UIKit's properties and Shift's options.
public struct ViewSpec: Sendable, Hashable {
    /// Where the view stands in the scene file, e.g. `to.subviews[2]`; used in messages.
    public var path: String
    public var name: String?
    /// In the superview's coordinates; nil on a root means the whole canvas.
    public var frame: Rect?
    public var backgroundColor: RGBAColor?
    public var alpha: Double = 1
    public var cornerRadius: Double = 0
    public var masksToBounds: Bool = false
    public var borderWidth: Double = 0
    public var borderColor: RGBAColor = .black
    public var shadow: ShadowSpec?
    public var transform: TransformSpec = .identity
    public var anchorPoint: Point = Point(x: 0.5, y: 0.5)
    public var zPosition: Double = 0
    public var isHidden: Bool = false
    public var image: ImageReference?
    public var contentMode: ContentMode = .scaleToFill
    public var shift: ShiftOptions = ShiftOptions()
    public var subviews: [ViewSpec] = []

    public init(path: String, frame: Rect? = nil) {
        self.path = path
        self.frame = frame
    }
}

public struct ShadowSpec: Sendable, Hashable {
    public var color: RGBAColor = .black
    public var opacity: Double = 0
    public var radius: Double = 3
    public var offset: Size = Size(width: 0, height: -3)
    public init() {}
}

/// A view transform by components; they animate separately (not by matrix entries).
/// Applied about the anchor point: scale, then rotate, then translate.
public struct TransformSpec: Sendable, Hashable {
    public var translate: Point
    public var scale: Size
    /// Degrees, clockwise on screen.
    public var rotate: Double

    public init(translate: Point = .zero, scale: Size = Size(width: 1, height: 1), rotate: Double = 0) {
        self.translate = translate
        self.scale = scale
        self.rotate = rotate
    }

    public static let identity = TransformSpec()
}

/// An image file as the scene wrote it and as it was found.
public struct ImageReference: Sendable, Hashable {
    public var written: String
    public var resolvedPath: String
    public init(written: String, resolvedPath: String) {
        self.written = written
        self.resolvedPath = resolvedPath
    }
}

/// UIKit's `UIView.ContentMode` values that place an image.
public enum ContentMode: String, Sendable, CaseIterable {
    case scaleToFill, aspectFit, aspectFill, center, top, bottom, left, right
    case topLeft, topRight, bottomLeft, bottomRight
}
