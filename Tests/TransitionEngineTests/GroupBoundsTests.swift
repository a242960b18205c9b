import FramePlan
import Primitives
import Testing
@testable import TransitionEngine

/// A group's layer must hold everything its items draw: the engine sizes it
/// from the plan's own paint extent (`DrawItem.paintCorners`), the one the
/// compositor draws within (`CompositorTests/PaintExtentTests`).
@Suite struct GroupBoundsTests {
    /// Anti-aliasing reaches half a pixel beyond an edge, at most diagonally.
    static let fringe = 0.5.squareRoot()

    static func holds(_ box: Rect, _ item: DrawItem) -> Bool {
        guard let p = item.paintBounds else { return true }
        return box.minX <= p.minX - fringe && box.minY <= p.minY - fringe
            && box.maxX >= p.maxX + fringe && box.maxY >= p.maxY + fringe
    }

    @Test func groupBoundsHoldEveryItemsPaintExtent() throws {
        var rng = SplitMix(state: 42)
        for trial in 0 ..< 200 {
            let t = AffineTransform2D.scale(Double.random(in: 0.3 ... 3, using: &rng), Double.random(in: 0.3 ... 3, using: &rng))
                .concatenating(.rotation(trial % 2 == 0 ? Double.random(in: -3.2 ... 3.2, using: &rng) : 0))
                .concatenating(.translation(Double.random(in: -50 ... 50, using: &rng), Double.random(in: -50 ... 50, using: &rng)))
            let r = Rect(
                x: Double.random(in: -20 ... 20, using: &rng), y: Double.random(in: -20 ... 20, using: &rng),
                width: Double.random(in: 0 ... 40, using: &rng), height: Double.random(in: 0 ... 40, using: &rng))
            let shape = RoundedRect(rect: r, cornerRadius: Double.random(in: 0 ... 10, using: &rng))
            let sigma = trial % 3 == 0 ? Double.random(in: 0 ... 0.3, using: &rng) : Double.random(in: 0 ... 12, using: &rng)
            let shadow = DrawItem(transform: t, shape: shape, paint: .shadow(color: .black, sigma: sigma))
            let card = DrawItem(transform: t, shape: shape, paint: .solid(.white))
            let box = try #require(GroupOpacity.bounds(of: [shadow, card]))
            #expect(Self.holds(box, shadow) && Self.holds(box, card), "sigma \(sigma) under \(t)")
        }
    }

    /// Under a rotation the blurred corner reaches diagonally: 3 sigma on each
    /// local axis is `3 sigma sqrt 2` along one target axis at 45 degrees, more
    /// than a margin of 3 sigma around the transformed corners would give.
    @Test func aRotatedShadowsLayerHoldsItsDiagonalReach() throws {
        let t = AffineTransform2D.rotation(.pi / 4).concatenating(.translation(100, 100))
        let shadow = DrawItem(
            transform: t, shape: RoundedRect(rect: Rect(x: -20, y: -20, width: 40, height: 40)),
            paint: .shadow(color: .black, sigma: 8))
        let card = DrawItem(transform: t, shape: shadow.shape, paint: .solid(.white))
        let wrapped = GroupOpacity.wrap([shadow, card], opacity: 0.5, label: "card")
        let group = try #require(wrapped.first)
        guard case .group = group.paint else {
            Issue.record("not a group")
            return
        }
        #expect(Self.holds(group.shape.rect, shadow))
        let reach = shadow.paint.reach(under: t)
        #expect(group.shape.rect.minX <= 100 - 20 * 2.squareRoot() - reach * 2.squareRoot())
    }
}

/// Deterministic pseudo-random numbers (SplitMix64), so failures reproduce.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
