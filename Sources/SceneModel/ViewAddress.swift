/// Where a view stands in its scene: the screen, then the index of each
/// subview on the way down from the root. It is the view's identity: stable
/// for a given scene, free to compute, and printed as the place a scene file
/// would give (`to.subviews[2].subviews[0]`).
public struct ViewAddress: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var screen: Screen
    /// Subview indices from the root; empty for the root itself.
    public var indices: [Int]

    public init(screen: Screen, indices: [Int] = []) {
        self.screen = screen
        self.indices = indices
    }

    /// The address of this view's subview `index`.
    public func child(_ index: Int) -> ViewAddress { ViewAddress(screen: screen, indices: indices + [index]) }

    public var isRoot: Bool { indices.isEmpty }

    /// The place of this view (for messages about the view as a whole).
    public var place: ScenePlace {
        var place = ScenePlace.key(screen.rawValue)
        for index in indices { place = place.key("subviews").index(index) }
        return place
    }

    public var description: String { place.description }

    /// Pre-order: `from` before `to`, a view before its subviews, subviews in order.
    public static func < (lhs: ViewAddress, rhs: ViewAddress) -> Bool {
        if lhs.screen != rhs.screen { return lhs.screen == .from }
        return lhs.indices.lexicographicallyPrecedes(rhs.indices)
    }
}
