public import Primitives

/// A scene: two screens and how the transition between them behaves.
public struct Scene: Sendable, Hashable {
    /// The format version the scene was written for (1 is the only one so far).
    public var version: Int
    public var canvas: CanvasSpec
    /// Frames per second of the output.
    public var fps: Double
    public var transition: TransitionSpec
    /// The root view of the screen being left.
    public var from: View
    /// The root view of the screen arriving.
    public var to: View
    /// The folder that relative image paths are resolved against: the scene
    /// file's folder for a scene read from a file; nil for the current directory.
    public var directory: String?

    public init(
        version: Int = 1, canvas: CanvasSpec, fps: Double = 60, transition: TransitionSpec = TransitionSpec(),
        from: View, to: View, directory: String? = nil
    ) {
        self.version = version
        self.canvas = canvas
        self.fps = fps
        self.transition = transition
        self.from = from
        self.to = to
        self.directory = directory
    }

    /// The root view of `screen`.
    public func root(_ screen: Screen) -> View { screen == .from ? from : to }

    /// The view at `address`, if there is one.
    public func view(at address: ViewAddress) -> View? {
        var view = root(address.screen)
        for index in address.indices {
            guard view.subviews.indices.contains(index) else { return nil }
            view = view.subviews[index]
        }
        return view
    }

    /// Calls `body` for every view of both screens in pre-order (`from` first),
    /// with its address and depth (0 for a root).
    public func forEachView(_ body: (View, ViewAddress, Int) throws -> Void) rethrows {
        func visit(_ view: View, _ address: ViewAddress) throws {
            try body(view, address, address.indices.count)
            for (i, subview) in view.subviews.enumerated() { try visit(subview, address.child(i)) }
        }
        try visit(from, ViewAddress(screen: .from))
        try visit(to, ViewAddress(screen: .to))
    }
}

/// Which screen of a scene.
public enum Screen: String, Sendable, CaseIterable {
    case from, to
}

/// The output surface in points; pixels = points x `scale`.
public struct CanvasSpec: Sendable, Hashable {
    public var width: Double
    public var height: Double
    /// Pixels per point (2 for @2x, 3 for @3x).
    public var scale: Double
    public var background: RGBAColor

    public init(width: Double, height: Double, scale: Double = 1, background: RGBAColor = .black) {
        self.width = width
        self.height = height
        self.scale = scale
        self.background = background
    }

    /// The output width in pixels (0 when the size is not a finite number).
    public var pixelWidth: Int { Self.pixels(width * scale) }
    public var pixelHeight: Int { Self.pixels(height * scale) }

    private static func pixels(_ value: Double) -> Int {
        let rounded = value.rounded()
        guard rounded.isFinite, rounded >= 0 else { return 0 }
        return rounded < 1e9 ? Int(rounded) : 1_000_000_000
    }
}

public enum TransitionDirection: String, Sendable, CaseIterable {
    case present, dismiss, roundtrip
}

/// Shift's `viewOrder`: which screen's views draw on top.
public enum ViewOrder: String, Sendable, CaseIterable {
    case auto, toViewsOnTop, fromViewsOnTop
}

/// Shift's `defaultAnimation`, given to the source root.
public enum DefaultAnimation: Sendable, Hashable {
    case none
    case fade
    /// Fade plus scale by this factor (Shift: down = 1.7, up = 0.7).
    case scale(Double)

    /// Shift's `.scale(.down)`.
    public static let scaleDown = DefaultAnimation.scale(1.7)
    /// Shift's `.scale(.up)`.
    public static let scaleUp = DefaultAnimation.scale(0.7)
}

/// How the transition as a whole behaves.
public struct TransitionSpec: Sendable, Hashable {
    public var direction: TransitionDirection
    /// Shift's base duration in seconds; each view adds time for the distance it travels.
    public var baselineDuration: Double
    public var viewOrder: ViewOrder
    public var defaultAnimation: DefaultAnimation
    /// Still time before and after the motion, in seconds.
    public var holdBefore: Double
    public var holdAfter: Double
    /// For `roundtrip`: still time between the present and the dismiss, in seconds.
    public var roundtripPause: Double
    /// Duration, delay, curve, cascade, arc and keyframes for every view that does not set its own.
    public var timing: TimingOptions
    /// How the roots move in a push or pop; nil: Shift's `defaultAnimation` alone.
    public var navigation: NavigationSpec?
    /// A modal presentation; nil: the presented root covers the canvas as in Shift.
    public var presentation: PresentationSpec?
    /// A finger that scrubs the (first) transition and lets go; nil: the transition plays by itself.
    public var interaction: InteractionSpec?

    public init(
        direction: TransitionDirection = .present, baselineDuration: Double = 0.265,
        viewOrder: ViewOrder = .auto, defaultAnimation: DefaultAnimation = .fade,
        holdBefore: Double = 0, holdAfter: Double = 0, roundtripPause: Double = 0.5,
        timing: TimingOptions = TimingOptions(), navigation: NavigationSpec? = nil, presentation: PresentationSpec? = nil,
        interaction: InteractionSpec? = nil
    ) {
        self.direction = direction
        self.baselineDuration = baselineDuration
        self.viewOrder = viewOrder
        self.defaultAnimation = defaultAnimation
        self.holdBefore = holdBefore
        self.holdAfter = holdAfter
        self.roundtripPause = roundtripPause
        self.timing = timing
        self.navigation = navigation
        self.presentation = presentation
        self.interaction = interaction
    }
}
