import Foundation
import Primitives

/// A closed interval of reals, for bounding where a view can be between two
/// sampled times (`SnapshotRegion`). Only the operations that bound
/// `ViewGeometry.localToSuperview` are here. The bounds are sound but loose
/// (each use of a variable is treated as independent), which only makes a
/// snapshot hold more than it needs, never less.
struct Interval: Sendable, Equatable {
    var lo: Double
    var hi: Double

    init(_ a: Double, _ b: Double) {
        lo = min(a, b)
        hi = max(a, b)
    }

    init(_ value: Double) { self.init(value, value) }

    /// The values `lerp(a, b, p)` takes for `p` in `progress`: lerp is
    /// monotonic in `p`, so the ends are enough.
    init(lerp a: Double, _ b: Double, over progress: Interval) {
        self.init(lerp(a, b, progress.lo), lerp(a, b, progress.hi))
    }

    var magnitude: Double { max(abs(lo), abs(hi)) }
    var isFinite: Bool { lo.isFinite && hi.isFinite }

    static func + (x: Interval, y: Interval) -> Interval { Interval(x.lo + y.lo, x.hi + y.hi) }
    static func - (x: Interval, y: Interval) -> Interval { Interval(x.lo - y.hi, x.hi - y.lo) }

    static func * (x: Interval, y: Interval) -> Interval {
        let a = x.lo * y.lo
        let b = x.lo * y.hi
        let c = x.hi * y.lo
        let d = x.hi * y.hi
        return Interval(min(min(a, b), min(c, d)), max(max(a, b), max(c, d)))
    }

    /// Nil when `y` holds 0 (the quotient is unbounded).
    static func / (x: Interval, y: Interval) -> Interval? {
        guard y.lo > 0 || y.hi < 0 else { return nil }
        return x * Interval(1 / y.lo, 1 / y.hi)
    }

    /// cos over an interval of radians: the ends, plus 1 or -1 where a
    /// multiple of 2 pi (or pi plus one) lies inside.
    static func cosine(_ x: Interval) -> Interval {
        guard x.isFinite, x.hi - x.lo < 2 * .pi else { return Interval(-1, 1) }
        var lo = min(cos(x.lo), cos(x.hi))
        var hi = max(cos(x.lo), cos(x.hi))
        if 2 * .pi * (x.lo / (2 * .pi)).rounded(.up) <= x.hi { hi = 1 }
        if .pi + 2 * .pi * ((x.lo - .pi) / (2 * .pi)).rounded(.up) <= x.hi { lo = -1 }
        return Interval(lo, hi)
    }

    /// sin x = cos(x - pi / 2).
    static func sine(_ x: Interval) -> Interval { cosine(Interval(x.lo - .pi / 2, x.hi - .pi / 2)) }
}

/// A point whose coordinates are intervals: a box.
struct IntervalPoint: Sendable, Equatable {
    var x: Interval
    var y: Interval

    /// The box that also holds `other`.
    func union(_ other: IntervalPoint) -> IntervalPoint {
        IntervalPoint(
            x: Interval(min(x.lo, other.x.lo), max(x.hi, other.x.hi)),
            y: Interval(min(y.lo, other.y.lo), max(y.hi, other.y.hi)))
    }
}
