import Primitives
import SceneModel
import Testing
@testable import TransitionEngine

/// Hero's cascade and arc, and keyframes, with numbers worked by hand.
@Suite struct CascadeArcKeyframeTests {
    typealias T = TimingEngineTests

    /// Four fading views on a 400 x 800 root whose centre is (200, 400):
    /// A [10, 300, 50, 50], B [200, 100, 50, 50] (inside a plain wrapper, which does not animate),
    /// C [100, 500, 50, 80], D [300, 200, 60, 50].
    static func cascadeScene(_ cascade: CascadeSpec, rootDelay: Double? = nil, aDelay: Double? = nil,
                             matched: Bool = false) -> TransitionTimeline {
        let fade = [AdditionalAnimation(.fade)]
        var a = view("A", [10, 300, 50, 50], animations: fade)
        a.shift.timing.delay = aDelay
        let wrapper = view("wrapper", [150, 50, 200, 200], color: nil, subviews: [view("B", [50, 50, 50, 50], animations: fade)])
        let c = view("C", [100, 500, 50, 80], animations: fade)
        let d = view("D", [300, 200, 60, 50], animations: fade)
        var subviews = [a, wrapper, c, d]
        if matched { subviews.append(view("M", [0, 700, 40, 40], id: "m")) }
        var to = root("to", subviews: subviews)
        to.shift.timing.cascade = cascade
        to.shift.timing.delay = rootDelay
        let from = root("from", subviews: matched ? [view("M0", [0, 0, 40, 40], id: "m")] : [])
        var s = scene(from: from, to: to)
        s.transition.baselineDuration = 0.3
        return TransitionTimeline(scene: s)
    }

    static func delays(_ t: TransitionTimeline) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: t.segments[0].views.compactMap { v in v.name.map { ($0, v.delay) } })
    }

    // Orders: topToBottom by minY (B 100, D 200, A 300, C 500); bottomToTop by maxY descending
    // (C 580, A 350, D 250, B 150); leftToRight by minX (A 10, C 100, B 200, D 300); rightToLeft by
    // maxX descending (D 360, B 250, C 150, A 60); radial by the centre's distance from (200, 400):
    // C (150, 540) 148.7, A (35, 325) 181.2, D (330, 225) 218.0, B (225, 125) 276.1; inverseRadial the reverse.
    @Test(arguments: [
        (CascadeDirection.topToBottom, "BDAC"), (.bottomToTop, "CADB"), (.leftToRight, "ACBD"),
        (.rightToLeft, "DBCA"), (.radial, "CADB"), (.inverseRadial, "BDAC"),
    ])
    func cascadeStartsViewsDeltaApartInItsDirection(direction: CascadeDirection, order: String) {
        let d = Self.delays(Self.cascadeScene(CascadeSpec(delta: 0.1, direction: direction)))
        for (i, name) in order.enumerated() {
            #expect(abs(d[String(name)]! - 0.1 * Double(i)) < 1e-12, "\(name) in \(direction)")
        }
        #expect(d["to"] == 0 && d["from"] == 0)
    }

    @Test func cascadeCountsFromTheCascadingViewsStartAndAddAMembersOwnDelay() {
        let d = Self.delays(Self.cascadeScene(CascadeSpec(delta: 0.1), rootDelay: 0.2, aDelay: 0.05))
        // Root starts at 0.2; B, D, A, C at 0.2 + 0, 0.1, 0.2, 0.3; A's own 0.05 on top.
        #expect(d["to"] == 0.2)
        #expect(abs(d["B"]! - 0.2) < 1e-12 && abs(d["D"]! - 0.3) < 1e-12 && abs(d["C"]! - 0.5) < 1e-12)
        #expect(abs(d["A"]! - 0.45) < 1e-12)
    }

    @Test func delayMatchedViewsWaitsForTheWholeCascade() {
        let plain = Self.delays(Self.cascadeScene(CascadeSpec(delta: 0.1), matched: true))
        #expect(plain["M"] == 0)
        let waiting = Self.delays(Self.cascadeScene(CascadeSpec(delta: 0.1, delayMatchedViews: true), matched: true))
        #expect(abs(waiting["M"]! - 0.4) < 1e-12)  // four members x 0.1
    }

    // MARK: Arc

    /// A matched card whose position runs from (50, 700) to (300, 100), linear over 1 s.
    static func arcCard(_ intensity: Double?, to: [Double] = [250, 50, 100, 100]) throws -> TransientView {
        var a = view("a", [0, 650, 100, 100], id: "card")
        a.shift.timing = TimingOptions(duration: 1, curve: .named(.linear), arc: intensity)
        let b = view("b", to, id: "card")
        return try T.named("b", in: T.timeline([b], from: [a]))
    }

    @Test func theArcsMidpointIsTheQuadraticBeziersAtHalfProgress() throws {
        // from.y > to.y, so c = (to.x, from.y) = (300, 700); mid (175, 400).
        // Intensity 1: control (300, 700); B(0.5) = (50, 700)/4 + (300, 700)/2 + (300, 100)/4 = (237.5, 550).
        let full = T.state(try Self.arcCard(1), at: 0.5).position
        #expect(abs(full.x - 237.5) < 1e-9 && abs(full.y - 550) < 1e-9)
        // Intensity 0.5: control (237.5, 550); B(0.5) = (12.5, 175) + (118.75, 275) + (75, 25) = (206.25, 475).
        let half = T.state(try Self.arcCard(0.5), at: 0.5).position
        #expect(abs(half.x - 206.25) < 1e-9 && abs(half.y - 475) < 1e-9)
        // Without an arc: the straight line's midpoint.
        let straight = T.state(try Self.arcCard(nil), at: 0.5).position
        #expect(straight == Point(x: 175, y: 400))
        // The ends are exact.
        let card = try Self.arcCard(1)
        #expect(T.state(card, at: 0).position == Point(x: 50, y: 700) && T.state(card, at: 1).position == Point(x: 300, y: 100))
    }

    @Test func anArcUnder1PointAlongAnAxisStaysStraight() throws {
        // Ends at y 700.5: dy = 0.5 pt.
        let card = try Self.arcCard(1, to: [250, 650.5, 100, 100])
        #expect(card.arc == nil)
        #expect(T.state(card, at: 0.5).position == Point(x: 175, y: 700.25))
    }

    // MARK: Keyframes

    static func keyframed(_ tracks: [KeyframeTrack], curve: CurveSpec = .named(.linear)) throws -> TransientView {
        var v = view("k", [0, 0, 100, 100])
        v.shift.timing = TimingOptions(duration: 1, curve: curve, keyframes: tracks)
        return try T.named("k", in: T.timeline([v]))
    }

    @Test func keyframesInterpolateBetweenStopsAndHitThemExactly() throws {
        let alpha = KeyframeTrack(.alpha, [KeyframeStop(at: 0, .number(1)), KeyframeStop(at: 0.5, .number(0.2)), KeyframeStop(at: 1, .number(1))])
        let k = try Self.keyframed([alpha])  // a view with only keyframes animates on its own
        for (time, expected) in [(0.0, 1.0), (0.25, 0.6), (0.5, 0.2), (0.75, 0.6), (1.0, 1.0)] {
            #expect(abs(T.state(k, at: time).alpha - expected) < 1e-12, "t \(time)")
        }
    }

    @Test func keyframesHoldOutsideTheirStopsAndStepAtEqualStops() throws {
        let radius = KeyframeTrack(.cornerRadius, [KeyframeStop(at: 0.2, .number(10)), KeyframeStop(at: 0.8, .number(20))])
        let step = KeyframeTrack(
            .translate,
            [KeyframeStop(at: 0, .pair(0, 0)), KeyframeStop(at: 0.5, .pair(0, 0)), KeyframeStop(at: 0.5, .pair(0, -40)),
             KeyframeStop(at: 1, .pair(0, -40))])
        let k = try Self.keyframed([radius, step])
        #expect(T.state(k, at: 0.1).cornerRadius == 10)
        #expect(abs(T.state(k, at: 0.5).cornerRadius - 15) < 1e-12)
        #expect(T.state(k, at: 0.9).cornerRadius == 20)
        #expect(T.state(k, at: 0.49).transform.translate.y == 0)
        #expect(T.state(k, at: 0.5).transform.translate.y == -40)
    }

    @Test func keyframesFollowTheViewsCurvedProgress() throws {
        let scale = KeyframeTrack(.scale, [KeyframeStop(at: 0, .number(1)), KeyframeStop(at: 1, .number(2))])
        let k = try Self.keyframed([scale], curve: .named(.easeIn))
        let p = NamedCurve.easeIn.bezier!.value(at: 0.5)
        #expect(abs(T.state(k, at: 0.5).transform.scale.width - (1 + p)) < 1e-12)
        #expect(abs(T.state(k, at: 0.5).transform.scale.height - (1 + p)) < 1e-12)
    }
}
