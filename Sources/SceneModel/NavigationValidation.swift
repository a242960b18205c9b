import Primitives

extension ComposedNavigation {
    /// Both the file reader and the validator say this, so a file and a Swift-built scene read the same.
    public static let mirrorWithPop = "mirror and an explicit pop together: mirror makes the pop the push mirrored; give one or the other"
}

// The rules of `transition.navigation` and `transition.presentation`.
extension Checker {
    mutating func check(navigation: NavigationSpec?, presentation: PresentationSpec?, _ place: ScenePlace) {
        if case .composed(let composed)? = navigation { check(composed, place.key("navigation")) }
        if let dimming = presentation?.dimming {
            let dimmingPlace = place.key("presentation").key("dimming")
            color(dimming.color, dimmingPlace.key("color"))
            number(dimming.opacity, dimmingPlace.key("opacity"), in: unit)
        }
        if navigation != nil && presentation != nil {
            report(
                place.key("presentation"),
                "a transition is a push/pop or a presentation, not both; give navigation or presentation")
        }
    }

    /// Without a pop, the push's sides stand at the navigation's own place, as a file writes them.
    mutating func check(_ composed: ComposedNavigation, _ place: ScenePlace) {
        guard let pop = composed.pop else {
            check(composed.push, place)
            return
        }
        if composed.mirror { report(place.key("mirror"), ComposedNavigation.mirrorWithPop) }
        check(composed.push, place.key("push"))
        check(pop, place.key("pop"))
    }

    mutating func check(_ sides: RootTransitions, _ place: ScenePlace) {
        let limit = SceneLimits.maximumAtomicTransitions
        for (side, list) in [("insertion", sides.insertion), ("removal", sides.removal)] {
            if list.count > limit { report(place.key(side), "\(list.count) atomic transitions; the limit is \(limit)") }
            for (i, atomic) in list.prefix(limit).enumerated() { check(atomic, place.key(side).index(i).key(atomic.name)) }
        }
    }

    mutating func check(_ atomic: AtomicTransition, _ place: ScenePlace) {
        let turns = -SceneLimits.maximumRotation ... SceneLimits.maximumRotation
        switch atomic {
        case .move, .opacity, .bringToFront, .sendToBack, .identity:
            break
        case .offset(let x, let y):
            components([x, y], place, in: coordinate)
        case .rotate(let degrees):
            number(degrees, place, in: turns)
        case .rotate3D(let angle, let axis, let perspective):
            number(angle, place.key("angle"), in: turns)
            let axisPlace = place.key("axis")
            let before = problems.count
            for (i, component) in [axis.x, axis.y, axis.z].enumerated() { finite(component, axisPlace.index(i)) }
            if problems.count == before, axis.x == 0, axis.y == 0, axis.z == 0 {
                report(axisPlace, "[0, 0, 0] is no axis: give the direction to turn about, e.g. [0, 1, 0] for the vertical")
            }
            // m34 = perspective / max(width, height): at 0 the turn has no depth (a flat squash,
            // which scale says), and below 0 the vanishing point is behind the viewer.
            if finite(perspective, place.key("perspective")), perspective <= 0 {
                report(
                    place.key("perspective"),
                    "\(Self.format(perspective)) is out of range: must be greater than 0 (m34 = perspective / max(width, height); "
                        + "0 gives a turn without depth, a flat squash, and below 0 the vanishing point is behind the viewer)")
            }
        case .scale(let factor):
            // 0 is allowed: the engine uses the least nonzero magnitude, as seed 004's Scale() does.
            number(factor, place, in: -SceneLimits.maximumScaleFactor ... SceneLimits.maximumScaleFactor)
        case .zPosition(let z):
            number(z, place, in: coordinate)
        }
    }
}

/// What a navigation or presentation says that renders, but probably not as meant.
enum NavigationWarnings {
    /// The presented root is `to` when presenting (and in a roundtrip, which presents first), `from` when
    /// dismissing; playing the scene reversed swaps both the screens and the direction, so it is the same root.
    static func warnings(in scene: Scene) -> [SceneProblem] {
        guard scene.transition.presentation != nil else { return [] }
        let screen: Screen = scene.transition.direction == .dismiss ? .from : .to
        guard let frame = scene.root(screen).frame,
            [frame.minX, frame.minY, frame.width, frame.height].allSatisfy(\.isFinite), frame.width >= 0, frame.height >= 0
        else { return [] }
        let canvas = Rect(x: 0, y: 0, width: scene.canvas.width, height: scene.canvas.height)
        let f = Checker.format
        let written = "[\(f(frame.minX)), \(f(frame.minY)), \(f(frame.width)), \(f(frame.height))]"
        let size = "\(f(canvas.width)) x \(f(canvas.height))"
        let place = ViewAddress(screen: screen).place.key("frame")
        if frame.minX >= canvas.maxX || frame.maxX <= 0 || frame.minY >= canvas.maxY || frame.maxY <= 0 {
            return [
                SceneProblem(
                    .warning, at: place,
                    "the presented root \(written) lies wholly outside the \(size) canvas: it never shows at rest")
            ]
        }
        if frame.minX < 0 || frame.minY < 0 || frame.maxX > canvas.maxX || frame.maxY > canvas.maxY {
            return [
                SceneProblem(
                    .warning, at: place,
                    "the presented root \(written) reaches outside the \(size) canvas: what lies outside is cut off")
            ]
        }
        return []
    }
}
