public import Primitives

/// A checked scene: two view trees and how the transition between them behaves.
public struct Scene: Sendable {
    public var version: Int
    public var canvas: CanvasSpec
    public var fps: Double
    public var transition: TransitionSpec
    public var from: ViewSpec
    public var to: ViewSpec
    /// Decoded images by `ImageReference.resolvedPath`.
    public var images: [String: Bitmap]

    public init(version: Int = 1, canvas: CanvasSpec, fps: Double = 60, transition: TransitionSpec = TransitionSpec(),
                from: ViewSpec, to: ViewSpec, images: [String: Bitmap] = [:]) {
        self.version = version
        self.canvas = canvas
        self.fps = fps
        self.transition = transition
        self.from = from
        self.to = to
        self.images = images
    }
}

/// The output surface in points; pixels = points x `scale`.
public struct CanvasSpec: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public var scale: Double
    public var background: RGBAColor

    public init(width: Double, height: Double, scale: Double = 1, background: RGBAColor = .black) {
        self.width = width
        self.height = height
        self.scale = scale
        self.background = background
    }

    public var pixelWidth: Int { Int((width * scale).rounded()) }
    public var pixelHeight: Int { Int((height * scale).rounded()) }
}

public enum TransitionDirection: String, Sendable, CaseIterable {
    case present, dismiss, roundtrip
}

public enum ViewOrder: String, Sendable, CaseIterable {
    case auto, toViewsOnTop, fromViewsOnTop
}

/// Shift's `defaultAnimation`, given to the source root.
public enum DefaultAnimation: Sendable, Hashable {
    case none
    case fade
    /// Fade plus scale by this factor (Shift: down = 1.7, up = 0.7).
    case scale(Double)
}

public struct TransitionSpec: Sendable, Hashable {
    public var direction: TransitionDirection
    public var baselineDuration: Double
    public var viewOrder: ViewOrder
    public var defaultAnimation: DefaultAnimation
    /// Still time before and after the motion, in seconds.
    public var holdBefore: Double
    public var holdAfter: Double
    /// For `roundtrip`: still time between the present and the dismiss, in seconds.
    public var roundtripPause: Double

    public init(direction: TransitionDirection = .present, baselineDuration: Double = 0.265,
                viewOrder: ViewOrder = .auto, defaultAnimation: DefaultAnimation = .fade,
                holdBefore: Double = 0, holdAfter: Double = 0, roundtripPause: Double = 0.5) {
        self.direction = direction
        self.baselineDuration = baselineDuration
        self.viewOrder = viewOrder
        self.defaultAnimation = defaultAnimation
        self.holdBefore = holdBefore
        self.holdAfter = holdAfter
        self.roundtripPause = roundtripPause
    }
}
