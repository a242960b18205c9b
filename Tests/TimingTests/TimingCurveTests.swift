import Testing
import Timing

@Suite struct TimingCurveTests {
    // Reference values: x(s) = t solved by 250-step bisection in 80-digit arithmetic, then y(s)
    // (the Python is in NamedCurveTests.swift).
    @Test(arguments: [(0.25, 0.23658736046778156894), (0.5, 0.77556131111619775841), (0.75, 0.95936773673937598018)])
    func shiftCurveMatchesReference(t: Double, expected: Double) {
        #expect(abs(TimingCurve.shift.value(at: t) - expected) < 1e-14)
    }

    @Test func endpointsAreExactAndOutOfRangeClamps() {
        #expect(TimingCurve.shift.value(at: 0) == 0)
        #expect(TimingCurve.shift.value(at: 1) == 1)
        #expect(TimingCurve.shift.value(at: -3) == 0)
        #expect(TimingCurve.shift.value(at: 7) == 1)
        #expect(TimingCurve.shift.value(at: .nan) == 0)
    }

    @Test func curveIsMonotonic() {
        var previous = 0.0
        for i in 1 ... 1000 {
            let v = TimingCurve.shift.value(at: Double(i) / 1000)
            #expect(v >= previous)
            previous = v
        }
    }

    @Test func linearCurveIsIdentity() {
        for t in [0.1, 0.33, 0.9] { #expect(abs(TimingCurve.linear.value(at: t) - t) < 1e-15) }
    }

    // easeInOutExpo (1, 0, 0, 1) has x'(s) = 0 at s = 0.5: x - 0.5 = 4 (s - 0.5)^3, so t = 0.5 + 5e-13
    // is at s = 0.5 + 5e-5 and y = 0.500075002 (mpmath as above). Newton's method stopped at
    // |x(s) - t| < 1e-12 and returned y = 0.5000000000007. The tolerance covers the rounding of
    // x(s) itself there (1e-16 in x moves s by ~4e-9 at that slope).
    @Test func solvesWhereTheCurveIsVertical() {
        let expo = TimingCurve(1, 0, 0, 1)
        #expect(abs(expo.value(at: 0.5 + 5e-13) - 0.50007500222219867861) < 1e-7)
    }

    // Across the vertical tangent, t an ulp or two at a time: y climbs 1.5e-4 over these 4e-12 of
    // t and never steps back (bisection there; Newton's answers stepped back by 1.7e-7, the old stop
    // on |x(s) - t| by up to 7.5e-5).
    @Test func valuesNeverDecreaseAcrossAVerticalTangent() {
        let expo = TimingCurve(1, 0, 0, 1)
        var t = 0.5 - 2e-12
        let first = expo.value(at: t)
        var previous = first
        var largestStepBack = 0.0
        for _ in 0 ..< 60000 {
            t += 1e-16
            let v = expo.value(at: t)
            largestStepBack = max(largestStepBack, previous - v)
            previous = v
        }
        #expect(largestStepBack == 0)
        #expect(previous - first > 1e-4)
        #expect(t > 0.5 + 2e-12)
    }
}
