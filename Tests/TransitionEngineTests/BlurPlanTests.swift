import FramePlan
import Primitives
import SceneModel
import Testing
@testable import TransitionEngine

/// Backdrop blur items: order, sigma (radius / 2, ours), opacity outside the group, the radius animating.
@Suite struct BlurPlanTests {
    static func card(alpha: Double = 1, radius: Double = 20, shadow: Bool = false) -> View {
        var v = view("card", [100, 200, 200, 100], color: RGBAColor(red: 0, green: 0, blue: 1, alpha: 0.5), id: "card")
        v.alpha = alpha
        v.blur = BlurSpec(style: .light, radius: radius)
        if shadow { v.shadow = ShadowSpec(color: .black, opacity: 0.5, radius: 4, offset: .zero) }
        return v
    }

    static func items(_ card: View) -> [DrawItem] {
        let s = scene(from: root("from", subviews: []), to: root("to", subviews: [card]))
        return TransitionTimeline(scene: s).motionDisplayList(segment: 0, time: 0).items.filter { $0.label.hasPrefix("card") }
    }

    @Test func blurComesAfterTheShadowAndBeforeTheTintAndBackground() {
        let items = Self.items(Self.card(shadow: true))
        #expect(items.map(\.paint) == [
            .shadow(color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.5), sigma: 4),
            .backdropBlur(sigma: 10),  // radius 20 / 2
            .solid(RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.3)),  // light's tint (docs/blur.md)
            .solid(RGBAColor(red: 0, green: 0, blue: 1, alpha: 0.5)),
        ])
        #expect(items[1].shape.rect == Rect(x: 0, y: 0, width: 200, height: 100) && items[1].opacity == 1)
    }

    @Test func aFadedBlurViewKeepsItsBlurOutsideTheGroup() throws {
        let items = Self.items(Self.card(alpha: 0.5))
        // The blur at the view's alpha, then tint and background faded together as one group.
        #expect(items.count == 2 && items[0].paint == .backdropBlur(sigma: 10) && items[0].opacity == 0.5)
        #expect(items[1].paint.groupItems.count == 2 && items[1].opacity == 0.5)
    }

    @Test func radiusZeroEmitsNoBlur() {
        #expect(!Self.items(Self.card(radius: 0)).contains { if case .backdropBlur = $0.paint { true } else { false } })
    }

    @Test func aMatchedPairBlursInFromNone() throws {
        var plain = view("card", [100, 200, 200, 100], id: "card")
        plain.blur = nil
        let s = scene(from: root("from", subviews: [plain]), to: root("to", subviews: [Self.card()]))
        let t = TransitionTimeline(scene: s)
        let pair = try #require(t.segments[0].views.first { $0.isMatched })
        let mid = pair.initial.interpolated(to: pair.final, 0.5)
        // Radius 0 -> 20 and the tint white 0 -> 0.3, keeping its colour.
        #expect(mid.blurRadius == 10 && mid.blurTint == RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.15))
    }

    @Test func keyframesSetTheBlurRadius() {
        var card = Self.card()
        card.shift.timing.keyframes = [KeyframeTrack(.blurRadius, [KeyframeStop(at: 0, .number(0)), KeyframeStop(at: 1, .number(30))])]
        let animation = KeyframeAnimation(card.shift.timing.keyframes)
        var state = ViewState(spec: card, size: Size(width: 200, height: 100), position: .zero)
        animation.apply(to: &state, at: 0.5)
        #expect(state.blurRadius == 15)
    }

    @Test func blurInAThreeDimensionalViewIsProjected() throws {
        var card = Self.card()
        card.transform = TransformSpec(rotateY: 30, perspective: 500)
        let items = Self.items(card)
        let blur = try #require(items.first { $0.paint == .backdropBlur(sigma: 10) })
        #expect(blur.projection != nil && items.last?.label == "card (plane)")
    }
}
