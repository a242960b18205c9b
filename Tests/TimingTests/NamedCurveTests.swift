import Testing
import Timing

@Suite struct NamedCurveTests {
    // The published control points, copied from the sources rather than from NamedCurve.swift: Core
    // Animation's named functions, Shift's and Hero's curves (CAMediaTimingFunction+Hero.swift), and
    // LiquidTransition's Liquid/Timing.swift (easings.net's CSS Béziers).
    static let published: [NamedCurve: [Double]] = [
        .standard: [0.4, 0, 0.2, 1], .linear: [0, 0, 1, 1],
        .easeIn: [0.42, 0, 1, 1], .easeOut: [0, 0, 0.58, 1], .easeInOut: [0.42, 0, 0.58, 1], .default: [0.25, 0.1, 0.25, 1],
        .deceleration: [0, 0, 0.2, 1], .acceleration: [0.4, 0, 1, 1], .sharp: [0.4, 0, 0.6, 1],
        .easeOutBack: [0.175, 0.885, 0.32, 1.275],
        .easeInSine: [0.47, 0, 0.745, 0.715], .easeOutSine: [0.39, 0.575, 0.565, 1], .easeInOutSine: [0.445, 0.05, 0.55, 0.95],
        .easeInQuad: [0.55, 0.085, 0.68, 0.53], .easeOutQuad: [0.25, 0.46, 0.45, 0.94],
        .easeInOutQuad: [0.455, 0.03, 0.515, 0.955],
        .easeInCubic: [0.55, 0.055, 0.675, 0.19], .easeOutCubic: [0.215, 0.61, 0.355, 1],
        .easeInOutCubic: [0.645, 0.045, 0.355, 1],
        .easeInQuart: [0.895, 0.03, 0.685, 0.22], .easeOutQuart: [0.165, 0.84, 0.44, 1], .easeInOutQuart: [0.77, 0, 0.175, 1],
        .easeInQuint: [0.755, 0.05, 0.855, 0.06], .easeOutQuint: [0.23, 1, 0.32, 1], .easeInOutQuint: [0.86, 0, 0.07, 1],
        .easeInExpo: [0.95, 0.05, 0.795, 0.035], .easeOutExpo: [0.19, 1, 0.22, 1], .easeInOutExpo: [1, 0, 0, 1],
        .easeInCirc: [0.6, 0.04, 0.98, 0.335], .easeOutCirc: [0.075, 0.82, 0.165, 1], .easeInOutCirc: [0.785, 0.135, 0.15, 0.86],
        .easeInBack: [0.6, -0.28, 0.735, 0.045], .easeInOutBack: [0.68, -0.55, 0.265, 1.55],
    ]
    static let closedForms: Set<NamedCurve> = [
        .easeInElastic, .easeOutElastic, .easeInOutElastic, .easeInBounce, .easeOutBounce, .easeInOutBounce,
    ]

    @Test(arguments: NamedCurve.allCases)
    func controlPointsArePublishedOnes(curve: NamedCurve) {
        if let points = Self.published[curve] {
            let b = curve.bezier
            #expect(b.map { [$0.x1, $0.y1, $0.x2, $0.y2] } == points)
        } else {
            #expect(Self.closedForms.contains(curve))
            #expect(curve.bezier == nil)
        }
    }

    @Test(arguments: NamedCurve.allCases)
    func eitherABezierOrAClosedForm(curve: NamedCurve) {
        #expect((curve.bezier == nil) == (curve.closedFormValue(at: 0.5) != nil))
        #expect((curve.bezier == nil) == Self.closedForms.contains(curve))
    }

    @Test func everyCaseIsCoveredOnce() {
        #expect(Set(Self.published.keys).isDisjoint(with: Self.closedForms))
        #expect(Self.published.count + Self.closedForms.count == NamedCurve.allCases.count)
        #expect(NamedCurve(rawValue: "easeInOutCubic") == .easeInOutCubic)
        #expect(NamedCurve(rawValue: "default") == .default)
    }

    // import mpmath as mp; mp.mp.dps = 80
    // def bez(c, t):  # c: the four control values as doubles
    //     X = lambda s: 3*(1-s)**2*s*c[0] + 3*(1-s)*s**2*c[2] + s**3
    //     lo, hi = mp.mpf(0), mp.mpf(1)
    //     for _ in range(250): mid = (lo+hi)/2; lo, hi = (mid, hi) if X(mid) < t else (lo, mid)
    //     s = (lo+hi)/2; return 3*(1-s)**2*s*c[1] + 3*(1-s)*s**2*c[3] + s**3
    @Test(arguments: [
        (NamedCurve.default, 0.5, 0.80240338758485699057),
        (.easeInOutCubic, 0.3, 0.13150465517007117317),
        (.easeOutBack, 0.5, 1.0675526850696227415),
        (.easeInBack, 0.2, -0.075442189581990470031),
        (.easeInExpo, 0.8, 0.18408396386861138328),
    ])
    func bezierValuesMatchBisection(curve: NamedCurve, t: Double, expected: Double) throws {
        let easing = try #require(Easing(.named(curve)))
        #expect(abs(easing.value(at: t) - expected) < 1e-14)
    }

    // easings.net's formulas by hand. Bounce: n1 = 121/16 and the arcs are centred at 6/11, 9/11,
    // 21/22, so at 0.5 the offset is -1/22 and n1/484 = 1/64: 0.75 + 1/64; at 0.9, 0.81/16 + 0.9375;
    // at 0.95, 0.01/64 + 0.984375. Elastic: at 0.5 the power is 2^-5 and the sine is sin(150 deg) =
    // 1/2 (in: sin(30 deg)); InOut at 0.25 is -2^-5 sin(-2.7222 pi)/2 = sin(130 deg)/64, at 0.75
    // 1 + sin(310 deg)/64.
    @Test(arguments: [
        (NamedCurve.easeOutBounce, 0.2, 0.3025), (.easeOutBounce, 0.5, 0.765625), (.easeOutBounce, 0.9, 0.988125),
        (.easeOutBounce, 0.95, 0.98453125), (.easeInBounce, 0.5, 0.234375), (.easeInOutBounce, 0.25, 0.1171875),
        (.easeInOutBounce, 0.75, 0.8828125), (.easeOutElastic, 0.5, 1.015625), (.easeInElastic, 0.5, -0.015625),
        (.easeInOutElastic, 0.25, 0.766044443118978 / 64), (.easeInOutElastic, 0.75, 1 - 0.766044443118978 / 64),
    ])
    func closedFormsMatchEasingsNet(curve: NamedCurve, x: Double, expected: Double) throws {
        let value = try #require(curve.closedFormValue(at: x))
        #expect(abs(value - expected) < 1e-14)
    }

    @Test(arguments: Array(closedForms))
    func closedFormsAreExactAtTheEndsAndClamp(curve: NamedCurve) {
        #expect(curve.closedFormValue(at: 0) == 0)
        #expect(curve.closedFormValue(at: 1) == 1)
        #expect(curve.closedFormValue(at: -0.5) == 0)
        #expect(curve.closedFormValue(at: 1.5) == 1)
        #expect(curve.closedFormValue(at: .nan) == 0)
    }
}
