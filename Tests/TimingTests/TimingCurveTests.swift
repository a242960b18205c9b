import Testing
import Timing

@Suite struct TimingCurveTests {
    // Reference values computed independently by 200-step bisection on the
    // Bernstein form of cubic-bezier(0.4, 0, 0.2, 1) (Python, double precision).
    @Test(arguments: [(0.25, 0.23658736046778162), (0.5, 0.7755613111161977), (0.75, 0.9593677367393759)])
    func shiftCurveMatchesReference(t: Double, expected: Double) {
        #expect(abs(TimingCurve.shift.value(at: t) - expected) < 1e-4)
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
        for t in [0.1, 0.33, 0.9] { #expect(abs(TimingCurve.linear.value(at: t) - t) < 1e-9) }
    }
}
