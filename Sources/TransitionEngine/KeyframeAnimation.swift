import Primitives
import SceneModel

/// A view's `keyframes` (LiquidTransition's `addCustomAnimation`, TransitKit's
/// ProgressLine): each listed property is a piecewise-linear function of the
/// view's curved progress, replacing its from/to interpolation.
///
/// Between two stops the value is interpolated linearly; before the first
/// stop it holds the first value, after the last the last (CSS keyframes
/// would fall back to the view's own values there; a track names the whole
/// motion, so holding is what a user who gave stops only from 0.2 means).
/// Equal neighbouring stops make a step, taking the later value from that
/// stop on. A spring's progress past 0...1 goes on along the end segment when
/// that segment ends at 0 or 1, so keyframed properties overshoot like
/// interpolated ones; the view's ranges are applied afterwards
/// (`ViewState.clampedToRanges`). A track that plays backward (the way
/// back: `--reverse`, a roundtrip's dismiss) is the same function at
/// 1 - progress, so the two directions are mirror images.
struct KeyframeAnimation: Sendable, Equatable {
    struct Track: Sendable, Equatable {
        var property: KeyframeProperty
        var stops: [Double]
        /// Each stop's value as components: 1 for a number, 2 for a pair, 4 for a colour.
        var values: [[Double]]
        /// Evaluated at 1 - progress.
        var playsBackward = false
    }

    let tracks: [Track]

    init(_ tracks: [KeyframeTrack]) {
        self.tracks = tracks.compactMap { track in
            guard !track.stops.isEmpty else { return nil }
            return Track(
                property: track.property == .opacity ? .alpha : track.property,
                stops: track.stops.map(\.at),
                values: track.stops.map { stop in
                    switch stop.value {
                    case .number(let v): return track.property == .scale ? [v, v] : [v]
                    case .pair(let x, let y): return [x, y]
                    case .color(let c): return [c.red, c.green, c.blue, c.alpha]
                    }
                },
                playsBackward: track.playsBackward)
        }
    }

    var isEmpty: Bool { tracks.isEmpty }

    /// Sets every keyframed property of `state` to its value at progress `p`.
    func apply(to state: inout ViewState, at p: Double) {
        for track in tracks { Self.set(track.property, track.value(at: p), in: &state) }
    }

    /// The track for `property`, if it has keyframes (the last one wins, as in a file's later key).
    func track(_ property: KeyframeProperty) -> Track? { tracks.last { $0.property == property } }

    private static func set(_ property: KeyframeProperty, _ v: [Double], in s: inout ViewState) {
        func color() -> RGBAColor { RGBAColor(red: v[0], green: v[1], blue: v[2], alpha: v[3]) }
        // A keyframed transform component: the transform is the per-component one (the 3-D interpolation
        // cannot take one component from a track), with this component set.
        switch property {
        case .translate, .scale, .rotate, .rotateX, .rotateY, .translateZ, .perspective: s.decomposedTransform = nil
        default: break
        }
        switch property {
        case .alpha, .opacity: s.alpha = v[0]
        case .cornerRadius: s.cornerRadius = v[0]
        case .borderWidth: s.borderWidth = v[0]
        case .borderColor: s.borderColor = color()
        case .backgroundColor: s.backgroundColor = color()
        case .shadowColor: s.shadowColor = color()
        case .shadowOpacity: s.shadowOpacity = v[0]
        case .shadowRadius: s.shadowRadius = v[0]
        case .shadowOffset: s.shadowOffset = Size(width: v[0], height: v[1])
        case .position: s.position = Point(x: v[0], y: v[1])
        case .size: s.size = Size(width: v[0], height: v[1])
        case .translate: s.transform.translate = Point(x: v[0], y: v[1])
        case .scale: s.transform.scale = Size(width: v[0], height: v[1])
        case .rotate: s.transform.rotate = v[0]
        case .anchorPoint: s.anchorPoint = Point(x: v[0], y: v[1])
        case .rotateX: s.transform.rotateX = v[0]
        case .rotateY: s.transform.rotateY = v[0]
        case .translateZ: s.transform.translateZ = v[0]
        case .perspective: s.transform.perspective = v[0]
        case .blurRadius: s.blurRadius = v[0]
        }
    }
}

extension KeyframeAnimation.Track {
    /// The components at progress `p`.
    func value(at p: Double) -> [Double] { value(asWrittenAt: playsBackward ? 1 - p : p) }

    /// The components at progress `p` of the stops as written.
    private func value(asWrittenAt p: Double) -> [Double] {
        let last = stops.count - 1
        if stops.count >= 2, p > 1, stops[last] == 1, stops[last - 1] < 1 { return along(last - 1, p) }
        if stops.count >= 2, p < 0, stops[0] == 0, stops[1] > 0 { return along(0, p) }
        if p < stops[0] { return values[0] }
        // The last stop at or before p: the later of equal stops gives a step.
        guard let i = stops.lastIndex(where: { $0 <= p }), i < last else { return values[last] }
        return along(i, p)
    }

    /// On the line through stops `i` and `i + 1` (which differ).
    private func along(_ i: Int, _ p: Double) -> [Double] {
        let t = (p - stops[i]) / (stops[i + 1] - stops[i])
        return zip(values[i], values[i + 1]).map { lerp($0, $1, t) }
    }

    /// Each component's bounds for progress in `p`: the values at the ends
    /// and at every stop between them (the function is linear in between).
    func range(over played: Interval) -> [Interval] {
        let p = playsBackward ? Interval(1 - played.hi, 1 - played.lo) : played
        var samples = [value(asWrittenAt: p.lo), value(asWrittenAt: p.hi)]
        for (stop, v) in zip(stops, values) where stop > p.lo && stop < p.hi { samples.append(v) }
        return (0 ..< values[0].count).map { c in
            Interval(samples.map { $0[c] }.min()!, samples.map { $0[c] }.max()!)
        }
    }
}
