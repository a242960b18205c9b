// The rules of `transition.interaction`: a gesture with points, finite, in
// time order; a finite release velocity; a threshold rule's numbers in range.
// A gesture that leaves 0...1 progress renders (progress is clamped, as
// UIKit clamps `update(_:)`), so that is a warning, not an error.
extension Checker {
    mutating func check(_ interaction: InteractionSpec, _ place: ScenePlace) {
        let gesturePlace = place.key("gesture")
        let limit = SceneLimits.maximumGesturePoints
        if interaction.gesture.isEmpty {
            report(gesturePlace, "an empty gesture: give the finger's [time, translation] points, at least one")
        } else if interaction.gesture.count > limit {
            report(gesturePlace, "\(interaction.gesture.count) points; the limit is \(limit)")
        }
        var previous: Double?
        for (i, point) in interaction.gesture.prefix(limit).enumerated() {
            let pointPlace = gesturePlace.index(i)
            component(point.time, pointPlace.index(0), in: seconds)
            component(point.translation, pointPlace.index(1), in: coordinate)
            guard point.time.isFinite else { continue }
            if let previous, point.time <= previous {
                let f = Self.format
                report(
                    pointPlace.index(0),
                    "\(f(point.time)) s is not after the point before it (\(f(previous)) s); gesture times must increase")
            }
            previous = point.time
        }
        if let velocity = interaction.releaseVelocity {
            number(velocity, place.key("releaseVelocity"), in: -SceneLimits.maximumCoordinate ... SceneLimits.maximumCoordinate)
        }
        if case .threshold(let threshold, let weight) = interaction.rule {
            number(threshold, place.key("rule").key("threshold"), in: unit)
            number(weight, place.key("rule").key("velocity"), in: 0 ... SceneLimits.maximumVelocityWeight)
        }
    }
}

/// What an interaction says that renders, but probably not as meant.
enum InteractionWarnings {
    /// Points of the gesture whose progress leaves 0...1: the first below and the first above, each
    /// with how many more there are, so a long gesture past the edge is one line, not hundreds.
    static func warnings(in scene: Scene) -> [SceneProblem] {
        guard let interaction = scene.transition.interaction else { return [] }
        let extent = interaction.extent(of: scene.canvas)
        guard extent.isFinite, extent > 0 else { return [] }
        let side = interaction.axis.isHorizontal ? "width" : "height"
        let gesturePlace = ScenePlace.key("transition").key("interaction").key("gesture")
        var below: [Int] = []
        var above: [Int] = []
        for (i, point) in interaction.gesture.prefix(SceneLimits.maximumGesturePoints).enumerated()
        where point.translation.isFinite {
            let progress = interaction.axis.sign * point.translation / extent
            if progress < 0 { below.append(i) } else if progress > 1 { above.append(i) }
        }
        let f = Checker.format
        var problems: [(first: Int, problem: SceneProblem)] = []
        for (points, bound) in [(below, 0.0), (above, 1.0)] {
            guard let first = points.first else { continue }
            let translation = interaction.gesture[first].translation
            let progress = interaction.axis.sign * translation / extent
            var message =
                "translation \(f(translation)) pt is progress \(f((progress * 1000).rounded() / 1000)) of the "
                + "\(f(extent))-pt canvas \(side) (axis \(interaction.axis.rawValue)): the transition holds at \(f(bound)) there"
            if points.count > 1 { message += " (and at \(points.count - 1) more point\(points.count == 2 ? "" : "s"))" }
            problems.append((first, SceneProblem(.warning, at: gesturePlace.index(first).index(1), message)))
        }
        return problems.sorted { $0.first < $1.first }.map(\.problem)
    }
}
