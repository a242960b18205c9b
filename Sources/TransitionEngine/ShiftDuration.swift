import Primitives

/// Shift's per-view duration: the baseline plus up to 0.175 s for a move of
/// 500 pt or more (`ViewContext.calculateDuration`).
public enum ShiftDuration {
    public static let additional = 0.175
    public static let saturatingDistance = 500.0

    public static func duration(baseline: Double, distance: Double) -> Double {
        let clamped = min(max(distance, 0), saturatingDistance)
        return baseline + additional * clamped / saturatingDistance
    }
}
