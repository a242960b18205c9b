import Testing
@testable import TransitionEngine

@Suite struct ShiftDurationTests {
    @Test func durationGrowsWithDistanceAndSaturatesAt500() {
        #expect(ShiftDuration.duration(baseline: 0.265, distance: 0) == 0.265)
        #expect(abs(ShiftDuration.duration(baseline: 0.265, distance: 250) - 0.3525) < 1e-12)
        #expect(abs(ShiftDuration.duration(baseline: 0.265, distance: 500) - 0.44) < 1e-12)
        #expect(abs(ShiftDuration.duration(baseline: 0.265, distance: 5000) - 0.44) < 1e-12)
        #expect(abs(ShiftDuration.duration(baseline: 1, distance: 100) - 1.035) < 1e-12)
    }
}
