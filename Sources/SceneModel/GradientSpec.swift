public import Primitives

/// CAGradientLayer's model (`gradient` in a scene): drawn as the view's
/// background, clipped by its corner radius, laid out again in the view's
/// current bounds on every frame. Points are unit coordinates of the bounds
/// ((0, 0) top left, (1, 1) bottom right), as in Core Animation on iOS.
public struct GradientSpec: Sendable, Hashable {
    /// CAGradientLayerType.
    public enum Kind: String, Sendable, CaseIterable {
        /// Along the line from `startPoint` to `endPoint`; constant across it.
        case axial
        /// Ellipses centred on `startPoint`; `endPoint` lies on the outermost (the last colour).
        case radial
        /// Around `startPoint`, starting in the direction of `endPoint`, clockwise on screen.
        case conic
    }

    public var type: Kind
    /// Straight alpha, sRGB; interpolated in premultiplied sRGB as Core Animation does.
    public var colors: [RGBAColor]
    /// Where each colour sits, 0...1 and non-decreasing; nil spreads them evenly (CAGradientLayer's nil).
    public var locations: [Double]?
    public var startPoint: Point
    public var endPoint: Point

    /// CAGradientLayer's defaults: axial, top centre to bottom centre, colours evenly spread.
    public init(
        type: Kind = .axial, colors: [RGBAColor], locations: [Double]? = nil,
        startPoint: Point = Point(x: 0.5, y: 0), endPoint: Point = Point(x: 0.5, y: 1)
    ) {
        self.type = type
        self.colors = colors
        self.locations = locations
        self.startPoint = startPoint
        self.endPoint = endPoint
    }
}
