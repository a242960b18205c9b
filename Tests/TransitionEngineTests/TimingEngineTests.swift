import FramePlan
import Primitives
import SceneModel
import Testing
@testable import TransitionEngine

/// The timing keys as the engine plays them (docs/timing.md), with numbers
/// worked by hand from the contract's formulas.
@Suite struct TimingEngineTests {
    /// A 100 x 100 card at x 100...200 that arrives from 100 pt to its left:
    /// its position runs from (50, 50) to (150, 50).
    static func movingCard(_ timing: TimingOptions, alpha: Bool = false) -> View {
        var card = view("card", [100, 0, 100, 100], animations: [AdditionalAnimation(.move(dx: -100, dy: 0))])
        if alpha { card.shift.animations.append(AdditionalAnimation(.fade)) }
        card.shift.timing = timing
        return card
    }

    static func timeline(_ to: [View], from: [View] = [], transition: TimingOptions = TimingOptions(),
                         direction: TransitionDirection = .present) -> TransitionTimeline {
        var s = scene(from: root("from", subviews: from), to: root("to", subviews: to), direction: direction)
        s.transition.timing = transition
        #expect(SceneValidator.problems(in: s).filter { $0.severity == .error }.isEmpty)
        return TransitionTimeline(scene: s)
    }

    static func named(_ name: String, in timeline: TransitionTimeline, segment: Int = 0) throws -> TransientView {
        try #require(timeline.segments[segment].views.first { $0.name == name })
    }

    static func state(_ view: TransientView, at time: Double) -> ViewState { view.state(at: view.progress(at: time)) }

    // MARK: Delay and duration

    @Test func aDelayedViewHoldsThenMovesOverItsOwnDuration() throws {
        let t = Self.timeline([Self.movingCard(TimingOptions(duration: 0.4, delay: 0.1, curve: .named(.linear)))])
        let card = try Self.named("card", in: t)
        #expect(card.delay == 0.1 && card.duration == 0.4)
        #expect(Self.state(card, at: 0.05).position.x == 50)
        #expect(Self.state(card, at: 0.1).position.x == 50)
        // (0.3 - 0.1) / 0.4 = 0.5 of the way: 50 + 100 * 0.5.
        #expect(abs(Self.state(card, at: 0.3).position.x - 100) < 1e-9)
        #expect(Self.state(card, at: 0.5).position.x == 150)
        // The roots keep Shift's formula (0.265 s, no travel); the card ends last, at 0.5 s.
        #expect(t.segments[0].duration == 0.5)
        #expect(t.frameCount == 31)  // ceil(0.5 * 60) + 1
    }

    @Test func theClipLastsUntilItsLongestDelayedViewEnds() throws {
        let late = Self.movingCard(TimingOptions(duration: 0.3, delay: 0.5, curve: .named(.linear)))
        var early = view("early", [0, 300, 50, 50], animations: [AdditionalAnimation(.fade)])
        early.shift.timing.duration = 0.6
        let t = Self.timeline([late, early])
        // early ends at 0.6 s, the delayed card at 0.5 + 0.3 = 0.8 s.
        #expect(abs(t.segments[0].duration - 0.8) < 1e-12)
        #expect(t.frameCount == 49)  // ceil(0.8 * 60) + 1
        let card = try Self.named("card", in: t)
        #expect(Self.state(card, at: 30.0 / 60).position.x == 50)  // frame 30: t = 0.5, just starting
        #expect(abs(Self.state(card, at: 39.0 / 60).position.x - 100) < 1e-9)  // frame 39: t = 0.65, halfway
    }

    @Test func transitionKeysAreDefaultsAViewsOwnKeysOverride() throws {
        let plain = view("plain", [0, 300, 50, 50], animations: [AdditionalAnimation(.fade)])
        let own = Self.movingCard(TimingOptions(duration: 0.2, curve: .named(.easeIn)))
        let t = Self.timeline([plain, own], transition: TimingOptions(duration: 1, delay: 0.25, curve: .named(.linear)))
        let p = try Self.named("plain", in: t)
        let c = try Self.named("card", in: t)
        #expect(p.duration == 1 && p.delay == 0.25 && p.easing.curve == .named(.linear))
        #expect(c.duration == 0.2 && c.delay == 0.25 && c.easing.curve == .named(.easeIn))
    }

    @Test func aSpringWithoutADurationLastsItsSettlingTimeAndPlaysInRealSeconds() throws {
        let spring = CurveSpec.spring(.response(response: 0.5, dampingFraction: 0.3))
        let t = Self.timeline([Self.movingCard(TimingOptions(curve: spring), alpha: true)])
        let card = try Self.named("card", in: t)
        // Worked in Python from the closed form: w0 = 4 pi, lambda = 0.3 w0, w = w0 sqrt(1 - 0.09);
        // |1 - x| last reaches 0.001 at 1.68131 s (1e-6 s steps).
        #expect(abs(card.duration - 1.681312) < 1e-4)
        // x(0.1) = 0.549700, x(0.2) = 1.245929, x(0.3) = 1.334504.
        for (time, x) in [(0.1, 0.5497001908075181), (0.2, 1.2459294467738307), (0.3, 1.334503629211305)] {
            #expect(abs(Self.state(card, at: time).position.x - (50 + 100 * x)) < 1e-6, "t \(time)")
        }
        // The position overshoots 150; the fade, on the same curve, stops at 1.
        #expect(Self.state(card, at: 0.3).position.x > 183)
        #expect(Self.state(card, at: 0.3).alpha == 1)
        #expect(Self.state(card, at: card.duration).position.x == 150)
    }

    @Test func overshootStaysInsideEachPropertysRange() throws {
        var card = Self.movingCard(TimingOptions(duration: 1, curve: .named(.easeInOutBack)))
        card.shift.animations += [
            AdditionalAnimation(.fade), AdditionalAnimation(.cornerRadius(0)), AdditionalAnimation(.bounds(Rect(x: 0, y: 0, width: 0, height: 0))),
            AdditionalAnimation(.backgroundColor(RGBAColor(red: 0, green: 0, blue: 0))), AdditionalAnimation(.shadowOpacity(0)),
        ]
        card.cornerRadius = 20
        card.shadow = ShadowSpec(color: .black, opacity: 1, radius: 4, offset: Size(width: 0, height: 2))
        let t = Self.timeline([card])
        let v = try Self.named("card", in: t)
        // easeInOutBack's control points (0.68, -0.55) and (0.265, 1.55) take progress below 0 early on...
        let early = Self.state(v, at: 0.1)
        #expect(v.progress(at: 0.1) < 0)
        #expect(early.position.x < 50)  // positions may go past their ends
        #expect(early.alpha == 0 && early.shadowOpacity == 0 && early.size.width == 0 && early.cornerRadius == 0)
        #expect(early.backgroundColor.red == 0)
        // ...and above 1 late.
        let late = Self.state(v, at: 0.9)
        #expect(v.progress(at: 0.9) > 1)
        #expect(late.position.x > 150 && late.size.width > 100 && late.cornerRadius > 20)
        #expect(late.alpha == 1 && late.shadowOpacity == 1 && late.backgroundColor.red == 1)
    }

    @Test func aContentCrossFadeStaysWithin0And1UnderAnOvershootingCurve() throws {
        var a = view("a", [0, 600, 100, 100], color: RGBAColor(red: 0, green: 0, blue: 1), id: "pair")
        a.shift.timing.curve = .spring(.response(response: 0.4, dampingFraction: 0.2))
        var b = view("b", [200, 100, 150, 150], color: RGBAColor(red: 1, green: 0, blue: 0), id: "pair")
        b.subviews = [view("inner", [10, 10, 20, 20])]
        let t = Self.timeline([b], from: [a])
        #expect(try Self.named("b", in: t).easing.curve == a.shift.timing.curve)  // the leaving view's curve, none arriving
        func opacities(_ items: [DrawItem]) -> [Double] {
            items.flatMap { item -> [Double] in
                if case .group(let g) = item.paint { return [item.opacity] + opacities(g.items) }
                return [item.opacity]
            }
        }
        let all = (0 ..< t.frameCount).flatMap { opacities(t.displayList(frame: $0).items) }
        #expect(all.count > 100)
        #expect(all.allSatisfy { (0 ... 1).contains($0) })
    }

    // MARK: Matched pairs

    @Test func aPairPlaysOnTheArrivingViewsKeysThenTheLeavingOnes() throws {
        var a = view("a", [0, 600, 100, 100], id: "pair")
        a.shift.timing = TimingOptions(duration: 0.2, delay: 0.1, curve: .named(.linear))
        var b = view("b", [200, 100, 100, 100], id: "pair")
        b.shift.timing.duration = 0.6
        let present = Self.timeline([b], from: [a])
        let pair = try Self.named("b", in: present)
        #expect(pair.duration == 0.6 && pair.delay == 0.1 && pair.easing.curve == .named(.linear))
        // Dismissing, `to` is still the arriving screen: the same keys.
        let dismiss = Self.timeline([b], from: [a], direction: .dismiss)
        let back = try Self.named("a", in: dismiss)
        #expect(back.duration == 0.6 && back.delay == 0.1)
    }
}
