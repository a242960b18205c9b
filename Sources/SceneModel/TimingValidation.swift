import Primitives

// The rules of the timing keys (`duration`, `delay`, `curve`, `cascade`,
// `arc`, `keyframes`), on a view's `shift` and on the transition alike.
extension Checker {
    mutating func check(_ timing: TimingOptions, _ place: ScenePlace) {
        if let duration = timing.duration { number(duration, place.key("duration"), in: seconds) }
        if let delay = timing.delay { number(delay, place.key("delay"), in: seconds) }
        if let curve = timing.curve { check(curve, place.key("curve")) }
        if let cascade = timing.cascade { number(cascade.delta, place.key("cascade").key("delta"), in: seconds) }
        if let arc = timing.arc { number(arc, place.key("arc"), in: unit) }
        check(timing.keyframes, place.key("keyframes"))
    }

    mutating func check(_ curve: CurveSpec, _ place: ScenePlace) {
        switch curve {
        case .named:
            break
        case .cubicBezier(let c):
            // x must stay in 0...1 for time to run forwards (Core Animation and CSS refuse other x).
            let y = SceneLimits.maximumBezierControlY
            let bezier = place.key("cubicBezier")
            for (i, (value, range)) in [(c.x1, unit), (c.y1, -y ... y), (c.x2, unit), (c.y2, -y ... y)].enumerated() {
                component(value, bezier.index(i), in: range)
            }
        case .spring(let spring):
            check(spring, place.key("spring"))
        }
    }

    /// Each spelling's own numbers first; a spring whose numbers are sound
    /// must then come to rest within the longest clip, or a view using it
    /// would never end. `dampingRatio` is the exception: its length is the
    /// view's duration, so its own seconds mean nothing and only its ratio is bounded.
    mutating func check(_ spring: SpringSpec, _ place: ScenePlace) {
        let before = problems.count
        let advice: (underDamped: String, otherwise: String)
        switch spring {
        case .response(let response, let fraction):
            greaterThanZero(response, place.key("response"))
            atLeastZero(fraction, place.key("dampingFraction"))
            advice = ("give it a larger dampingFraction", "give it a shorter response")
        case .durationBounce(let duration, let bounce):
            greaterThanZero(duration, place.key("duration"))
            if finite(bounce, place.key("bounce")), !(bounce > -1 && bounce < 1) {
                report(place.key("bounce"), "\(Self.format(bounce)) is out of range: must be greater than -1 and less than 1")
            }
            advice = ("give it less bounce", "give it a shorter duration")
        case .physical(let stiffness, let damping, let mass, let velocity):
            greaterThanZero(stiffness, place.key("stiffness"))
            if finite(damping, place.key("damping")), damping < 0 {
                report(place.key("damping"), "\(Self.format(damping)) is negative damping: the spring would gain energy; give 0 or more")
            }
            greaterThanZero(mass, place.key("mass"))
            finite(velocity, place.key("initialVelocity"))
            advice = ("give it more damping", "give it more stiffness")
        case .dampingRatio(let ratio):
            let key = place.key("dampingRatio")
            if ratio.isFinite && ratio < SceneLimits.minimumDampingRatio {
                report(
                    key,
                    "\(Self.format(ratio)) is out of range: must be at least \(Self.format(SceneLimits.minimumDampingRatio)) "
                        + "(below it the spring rings over a hundred times before it settles)")
            } else {
                number(ratio, key, in: SceneLimits.minimumDampingRatio ... SceneLimits.maximumDampingRatio)
            }
            return
        }
        guard problems.count == before else { return }
        let physics = Spring(spring)
        if physics.settlingTime(limit: SceneLimits.maximumSeconds) == nil {
            report(
                place,
                "this spring does not settle (|1 - x| < \(Self.format(Spring.settlingTolerance))) within "
                    + "\(Self.format(SceneLimits.maximumSeconds)) s; "
                    + (physics.dampingRatio < 1 ? advice.underDamped : advice.otherwise))
        }
    }

    mutating func greaterThanZero(_ value: Double, _ place: ScenePlace) {
        if finite(value, place), value <= 0 { report(place, "\(Self.format(value)) is out of range: must be greater than 0") }
    }

    mutating func atLeastZero(_ value: Double, _ place: ScenePlace) {
        if finite(value, place), value < 0 { report(place, "\(Self.format(value)) is out of range: must be at least 0") }
    }

    // MARK: Keyframes

    /// One track per property, with stops in 0...1 that never decrease
    /// (equal neighbours are a step, as a gradient's hard stop), and values
    /// in the ranges of the view property each track drives.
    mutating func check(_ tracks: [KeyframeTrack], _ place: ScenePlace) {
        var seen = Set<KeyframeProperty>()
        for track in tracks {
            let name = track.property.rawValue
            let trackPlace = place.key(name)
            guard seen.insert(track.property).inserted else {
                report(trackPlace, "\(name) has keyframes twice; give each property one track")
                continue
            }
            // UIView.alpha is the layer's opacity: two tracks would drive one value.
            if track.property == .opacity && seen.contains(.alpha) || track.property == .alpha && seen.contains(.opacity) {
                report(trackPlace, "alpha and opacity are one UIKit property (UIView.alpha is the layer's opacity); give keyframes for one")
            }
            let limit = SceneLimits.maximumKeyframes
            if track.stops.isEmpty {
                report(trackPlace, "no keyframes; give at least one [stop, value] pair")
            } else if track.stops.count > limit {
                report(trackPlace, "\(track.stops.count) keyframes; the limit is \(limit)")
            }
            var previous: Double?
            for (i, stop) in track.stops.prefix(limit).enumerated() {
                let stopPlace = trackPlace.index(i)
                let before = problems.count
                number(stop.at, stopPlace.index(0), in: unit)
                if problems.count == before {
                    if let previous, stop.at < previous {
                        report(
                            stopPlace.index(0),
                            "\(Self.format(stop.at)) is less than the stop before it (\(Self.format(previous))); stops must not decrease")
                    }
                    previous = stop.at
                }
                check(stop.value, of: track.property, stopPlace.index(1))
            }
        }
    }

    mutating func check(_ value: KeyframeValue, of property: KeyframeProperty, _ place: ScenePlace) {
        let factor = SceneLimits.maximumScaleFactor
        let anchor = SceneLimits.maximumAnchor
        switch (property.kind, value) {
        case (.number, .number(let v)):
            let range: ClosedRange<Double>
            switch property {
            case .cornerRadius, .borderWidth: range = length
            case .shadowRadius: range = 0 ... SceneLimits.maximumShadowRadius
            case .rotate, .rotateX, .rotateY: range = -SceneLimits.maximumRotation ... SceneLimits.maximumRotation
            case .translateZ: range = coordinate
            case .blurRadius: range = 0 ... SceneLimits.maximumBlurRadius
            case .perspective:
                perspective(v, place)
                return
            default: range = unit  // alpha, opacity, shadowOpacity
            }
            number(v, place, in: range)
        case (.pair, .pair(let x, let y)):
            let range: ClosedRange<Double>
            switch property {
            case .size: range = length
            case .scale: range = -factor ... factor
            case .anchorPoint: range = -anchor ... anchor
            default: range = coordinate  // position, translate, shadowOffset
            }
            components([x, y], place, in: range)
        case (.color, .color(let c)):
            color(c, place)
        case (.pair, .number(let k)) where property == .scale:
            // One factor for both axes, as the format's `"scale": 2` and a transform's scale read it.
            number(k, place, in: -factor ... factor)
        default:
            let wanted: String
            switch property.kind {
            case .number: wanted = "a number"
            case .pair: wanted = "a pair"
            case .color: wanted = "a colour"
            }
            let given: String
            switch value {
            case .number: given = "a number"
            case .pair: given = "a pair"
            case .color: given = "a colour"
            }
            report(place, "\(property.rawValue) keyframes take \(wanted), not \(given)")
        }
    }
}
