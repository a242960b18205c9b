import Testing
import Timing

/// SplitMix64: the same intervals on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct EasingTests {
    static let allCurves: [CurveSpec] =
        NamedCurve.allCases.map { .named($0) } + [.cubicBezier(TimingCurve(0.3, -0.4, 0.7, 1.6))]
        + SpringCase.all.map { .spring($0.spec) }

    // Springs for the range test beyond SpringCase: nearly critical (an envelope sqrt(1 + B^2) e^(-lambda t)
    // would be 22 times too wide at the start), lightly damped, and the over-damped boundary v0 = -r2.
    static let rangeSprings: [CurveSpec] =
        SpringCase.all.map { .spring($0.spec) } + [
            .spring(.dampingRatio(0.999)), .spring(.physical(stiffness: 100, damping: 1, mass: 1, initialVelocity: 0)),
            .spring(.physical(stiffness: 100, damping: 30, mass: 1, initialVelocity: 15 + 125.0.squareRoot())),
        ]

    @Test(arguments: allCurves)
    func exactAtTheEnds(curve: CurveSpec) throws {
        let easing = try #require(Easing(curve))
        #expect(easing.value(at: 0) == 0)
        #expect(easing.value(at: 1) == 1)
    }

    @Test(arguments: allCurves)
    func outOfRangeAndNaNClamp(curve: CurveSpec) throws {
        let easing = try #require(Easing(curve))
        #expect(easing.value(at: -0.25) == 0)
        #expect(easing.value(at: -.infinity) == 0)
        #expect(easing.value(at: .nan) == 0)
        #expect(easing.value(at: 1.5) == 1)
        #expect(easing.value(at: .infinity) == 1)
    }

    @Test(arguments: SpringCase.all)
    func springIsScaledSoItSettlesAtUnitTimeOne(c: SpringCase) throws {
        let easing = try #require(Easing(.spring(c.spec)))
        let spring = Spring(c.spec)
        let settling = try #require(spring.settlingTime())
        for u in [0.01, 0.1, 0.37, 0.5, 0.9, 0.999] {
            #expect(easing.value(at: u) == spring.value(at: u * settling))
        }
    }

    @Test func standardIsShiftsCurve() {
        #expect(Easing.standard.curve == .named(.standard) && NamedCurve.standard.bezier == .shift)
        #expect(Easing.standard.value(at: 0.5) == TimingCurve.shift.value(at: 0.5))
        #expect(CurveSpec.standard == .named(.standard))
    }

    @Test func unsettledSpringsHaveNoEasing() {
        #expect(Easing(.spring(.physical(stiffness: 100, damping: 0, mass: 1, initialVelocity: 0))) == nil)
        #expect(Easing(.spring(.dampingRatio(0))) == nil)
        #expect(Easing(.spring(.durationBounce(duration: 0.5, bounce: 1))) == nil)
    }

    // A rigorous bound, tested as one: every one of 2000 evenly spread samples over each of 60 random
    // intervals (and a few chosen ones: whole, tiny, reversed, at the turning of easeInOutExpo)
    // lies inside the range.
    @Test(arguments: NamedCurve.allCases.map { CurveSpec.named($0) } + rangeSprings)
    func rangeEnclosesDenseSamples(curve: CurveSpec) throws {
        let easing = try #require(Easing(curve))
        var rng = SeededGenerator(state: 7)
        var intervals: [(Double, Double)] = [(0, 1), (0, 0.05), (0.95, 1), (0.5, 0.5 + 1e-12), (0.7, 0.2), (0.3, 0.3)]
        for _ in 0 ..< 60 {
            let a = Double.random(in: 0 ... 1, using: &rng)
            let b = Double.random(in: 0 ... 1, using: &rng)
            intervals.append(Bool.random(using: &rng) ? (min(a, b), max(a, b)) : (a, a + (b - a) * 0.01))
        }
        var misses = 0
        for (a, b) in intervals {
            let range = easing.range(from: a, to: b)
            let (lo, hi) = (min(a, b), max(a, b))
            for i in 0 ... 2000 {
                let v = easing.value(at: lo + (hi - lo) * Double(i) / 2000)
                if !range.contains(v) { misses += 1 }
            }
        }
        #expect(misses == 0)
    }

    // And a tight one: over the whole curve, the true extremes within 1e-8 (the range is widened by 1e-9).
    // Béziers: y'(s) = 0 solved in 40-digit arithmetic (mpmath.findroot). SwiftUI's default spring:
    // the textbook overshoot 1 + e^(-zeta pi / sqrt(1 - zeta^2)). Critically damped, k = 100, v0 = 25:
    // x' = 0 at t = -v0 / (lambda (lambda - v0)) = 1/6, x = 1 + 1.5 e^(-5/3). Over-damped, v0 = 50: x' = 0
    // by bisection in mpmath. Before isMonotone knew that fast springs overshoot, those two ranges were 0...1.
    @Test(arguments: [
        (CurveSpec.named(.standard), 0.0, 1.0), (.named(.linear), 0, 1), (.named(.easeOutBack), 0, 1.0868570539520325868),
        (.named(.easeInBack), -0.096882499996703766182, 1),
        (.named(.easeInOutBack), -0.092713220929102403914, 1.0927132209291024039),
        (.spring(.response(response: 0.5, dampingFraction: 0.825)), 0, 1.010191472540823),
        (.spring(.physical(stiffness: 100, damping: 20, mass: 1, initialVelocity: 25)), 0, 1 + 1.5 * 0.18887560283756183),
        (.spring(.physical(stiffness: 100, damping: 30, mass: 1, initialVelocity: 50)), 0, 1.584855164584704299763),
    ])
    func rangeOfAWholeCurveIsItsExtremes(curve: CurveSpec, lower: Double, upper: Double) throws {
        let range = try #require(Easing(curve)).range(from: 0, to: 1)
        #expect(abs(range.lowerBound - lower) < 1e-8)
        #expect(abs(range.upperBound - upper) < 1e-8)
    }

    @Test func rangeTakesNaNAsZeroAndNeverCrashes() throws {
        for curve in [CurveSpec.named(.easeOutElastic), .named(.easeInOutExpo), .spring(.dampingRatio(0.5))] {
            let easing = try #require(Easing(curve))
            let range = easing.range(from: .nan, to: 0.5)
            #expect(range.contains(0) && range.contains(easing.value(at: 0.5)))
            #expect(easing.range(from: 0.5, to: .nan).contains(easing.value(at: 0.5)))
            #expect(easing.range(from: .nan, to: .nan).contains(0))
        }
    }

    // Where progress steps back, isMonotone must say so; where it says monotone, 20000 samples never
    // decrease. Over-damped k = 100, c = 30: r2 = -15 - sqrt(125) = -26.18; critically damped k = 100,
    // c = 20: lambda = 10. Both used to count as monotone for any v0 >= 0. (The cases that are not
    // monotone turn back before they settle: v0 = 15 at t = 0.3 s, v0 = 27 at 0.24 s, zeta = 0.9 at
    // pi / w = 7.2 s with an overshoot of e^(-zeta pi / sqrt(1 - zeta^2)) = 0.0015.)
    @Test(arguments: [
        (CurveSpec.named(.standard), true), (.named(.linear), true), (.named(.easeInOutExpo), true),
        (.named(.easeOutBack), false), (.named(.easeInBack), false), (.named(.easeOutBounce), false),
        (.named(.easeInElastic), false), (.spring(.response(response: 0.5, dampingFraction: 0.825)), false),
        (.spring(.durationBounce(duration: 0.5, bounce: 0)), true), (.spring(.durationBounce(duration: 0.4, bounce: -0.5)), true),
        (.spring(.physical(stiffness: 100, damping: 20, mass: 1, initialVelocity: 10)), true),
        (.spring(.physical(stiffness: 100, damping: 20, mass: 1, initialVelocity: 15)), false),
        (.spring(.physical(stiffness: 100, damping: 30, mass: 1, initialVelocity: 26)), true),
        (.spring(.physical(stiffness: 100, damping: 30, mass: 1, initialVelocity: 27)), false),
        (.spring(.physical(stiffness: 100, damping: 30, mass: 1, initialVelocity: -0.5)), false),
        (.spring(.dampingRatio(1)), true), (.spring(.dampingRatio(0.9)), false),
    ])
    func isMonotoneIsRight(curve: CurveSpec, monotone: Bool) throws {
        let easing = try #require(Easing(curve))
        #expect(easing.isMonotone == monotone)
        var previous = 0.0
        var decreases = false
        for i in 1 ... 20000 {
            let v = easing.value(at: Double(i) / 20000)
            if v < previous { decreases = true }
            previous = v
        }
        #expect(decreases == !monotone)
    }

    @Test func naturalDurationIsTheSettlingTimeOfSpringsThatFixIt() throws {
        #expect(CurveSpec.named(.easeIn).naturalDuration == nil)
        #expect(CurveSpec.cubicBezier(.shift).naturalDuration == nil)
        #expect(CurveSpec.spring(.dampingRatio(0.8)).naturalDuration == nil)
        let hero = try #require(CurveSpec.spring(SpringSpec.heroDefault).naturalDuration)
        #expect(abs(hero - 0.4785289851365973) < 1e-9)
    }

    @Test func descriptions() {
        #expect(CurveSpec.standard.description == "standard")
        #expect(CurveSpec.cubicBezier(TimingCurve(0.4, 0, 0.2, 1)).description == "cubicBezier(0.4, 0, 0.2, 1)")
        #expect(CurveSpec.spring(.swiftUIDefault).description == "spring(response: 0.5, dampingFraction: 0.825)")
        #expect(CurveSpec.spring(.durationBounce(duration: 0.5, bounce: -0.2)).description == "spring(duration: 0.5, bounce: -0.2)")
        #expect(CurveSpec.spring(.heroDefault).description == "spring(stiffness: 250, damping: 30, mass: 1, initialVelocity: 0)")
        #expect(CurveSpec.spring(.dampingRatio(0.8)).description == "spring(dampingRatio: 0.8)")
    }
}

@Suite struct DampingRatioEasingTests {
    /// The scene's floor on dampingRatio is 0.01, which settles after about 688 of its own
    /// (w0 = 1) seconds: past the 600 s limit on spellings with a real time scale, but an easing still.
    @Test func theLightestDampingRatioAScenePassesHasAnEasing() throws {
        let easing = try #require(Easing(.spring(.dampingRatio(0.01))))
        #expect(easing.value(at: 0) == 0 && easing.value(at: 1) == 1)
        #expect(try #require(Spring(.dampingRatio(0.01)).settlingTime(limit: 1e9)) > 600)
    }
}
