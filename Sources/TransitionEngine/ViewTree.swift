import Primitives
import SceneModel

/// One screen's views in pre-order, each placed in canvas points. Views that
/// are hidden (`isHidden` or `shift.isHidden`) are left out with their subtrees:
/// they take no part in the transition.
struct ViewTree {
    struct Node {
        /// The view without its subviews (they are nodes of their own).
        let spec: View
        let address: ViewAddress
        let parent: Int?
        var children: [Int] = []
        /// The view's bounds size in points.
        let size: Size
        /// UIKit's `layer.position` in the superview's coordinates.
        let position: Point
        /// Maps the view's local coordinates (bounds origin at 0,0) to its superview's.
        let toSuperview: PlaneMap
        /// Maps the view's local coordinates to the canvas (the transition container).
        let toCanvas: PlaneMap
    }

    let screen: Screen
    private(set) var nodes: [Node] = []

    /// A root without a frame fills `canvas` (points). `screen` is the role
    /// the tree plays in a segment; `sceneScreen` where its views stand in the
    /// scene (they differ for the dismiss half of a roundtrip).
    init(root: View, screen: Screen, canvas: Size, sceneScreen: Screen? = nil) {
        self.screen = screen
        add(root, address: ViewAddress(screen: sceneScreen ?? screen), parent: nil, canvas: canvas)
    }

    private mutating func add(_ spec: View, address: ViewAddress, parent: Int?, canvas: Size) {
        guard !spec.isHidden, !spec.shift.isHidden else { return }
        let frame = spec.frame ?? (parent == nil ? Rect(origin: .zero, size: canvas) : .zero)
        let size = frame.size
        let position = Point(
            x: frame.minX + spec.anchorPoint.x * size.width,
            y: frame.minY + spec.anchorPoint.y * size.height)
        let toSuperview = ViewGeometry.map(
            size: size, anchorPoint: spec.anchorPoint,
            position: position, transform: spec.transform)
        let toCanvas = parent.map { toSuperview.concatenating(nodes[$0].toCanvas) } ?? toSuperview
        let index = nodes.count
        var stripped = spec
        stripped.subviews = []
        nodes.append(
            Node(
                spec: stripped, address: address, parent: parent, size: size, position: position,
                toSuperview: toSuperview, toCanvas: toCanvas))
        if let parent { nodes[parent].children.append(index) }
        for (i, subview) in spec.subviews.enumerated() { add(subview, address: address.child(i), parent: index, canvas: canvas) }
    }
}

/// The UIKit layer geometry shared by static views and animated states.
enum ViewGeometry {
    /// `p -> position + transform(p - anchorPoint * size)`: the layer model of UIKit,
    /// with the transform applied about the anchor point as scale, then rotate, then translate.
    static func localToSuperview(size: Size, anchorPoint: Point, position: Point, transform: TransformSpec) -> AffineTransform2D {
        AffineTransform2D.translation(-anchorPoint.x * size.width, -anchorPoint.y * size.height)
            .concatenating(matrix(of: transform))
            .concatenating(.translation(position.x, position.y))
    }

    static func matrix(of t: TransformSpec) -> AffineTransform2D {
        AffineTransform2D.scale(t.scale.width, t.scale.height)
            .concatenating(.rotation(t.rotate * .pi / 180))
            .concatenating(.translation(t.translate.x, t.translate.y))
    }
}
