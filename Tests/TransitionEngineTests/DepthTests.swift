import FramePlan
import Primitives
import SceneModel
import Testing
@testable import TransitionEngine

/// 3-D maps, facing, flip, cube and rotate3D on a 400 x 800 canvas at scale 1,
/// with the numbers worked by hand from Core Animation's matrices.
@Suite struct DepthTests {
    /// A card 200 x 100 at (100, 200): its centre (its position) is (200, 250).
    static func card(_ transform: TransformSpec, doubleSided: Bool = true) -> View {
        var v = view("card", [100, 200, 200, 100], id: "card")
        v.transform = transform
        v.doubleSided = doubleSided
        return v
    }

    static func plan(_ card: View, time: Double = 0) -> [DrawItem] {
        let s = scene(from: root("from", subviews: []), to: root("to", subviews: [card]))
        return TransitionTimeline(scene: s).motionDisplayList(segment: 0, time: time).items
    }

    static func close(_ a: Point?, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
        guard let a else { return false }
        return abs(a.x - b.x) < tolerance && abs(a.y - b.y) < tolerance
    }

    @Test func aRotateYOf60WithPerspective500ProjectsItsCornersAsCoreAnimation() throws {
        let items = Self.plan(Self.card(TransformSpec(rotateY: 60, perspective: 500)))
        let plane = try #require(items.first { $0.label == "card (plane)" })
        let projection = try #require(plane.projection)
        // The plane is local units times k; the background is the card's bounds in it.
        let background = try #require(plane.paint.groupItems.first)
        let k = background.transform.a
        #expect(background.shape.rect == Rect(x: 0, y: 0, width: 200, height: 100) && k >= 1)
        // Corner (0, 0) is (-100, -50, 0) about the anchor; rotateY(60) (c = 1/2, s = sqrt(3)/2):
        // x' = x c = -50, z' = -x s = 50 sqrt(3) = 86.6025; w = 1 - z'/500 = 0.826795;
        // image (200 - 50 / w, 250 - 50 / w) = (139.5257, 189.5257).
        let s3 = 3.0.squareRoot()
        let near = 1 - 50 * s3 / 500
        let far = 1 + 50 * s3 / 500
        #expect(Self.close(projection.apply(Point(x: 0, y: 0)), Point(x: 200 - 50 / near, y: 250 - 50 / near)))
        // Corner (200, 0): (100, -50) -> x' = 50, z' = -86.6025, w = 1.173205: (242.6180, 207.3820).
        #expect(Self.close(projection.apply(Point(x: 200 * k, y: 0)), Point(x: 200 + 50 / far, y: 250 - 50 / far)))
        #expect(Self.close(projection.apply(Point(x: 200 * k, y: 100 * k)), Point(x: 200 + 50 / far, y: 250 + 50 / far)))
        #expect(Self.close(projection.apply(Point(x: 0, y: 100 * k)), Point(x: 200 - 50 / near, y: 250 + 50 / near)))
        // Projected width 50 / far + 50 / near = 103.09; edge heights 100 / near = 120.9490 and 100 / far = 85.2366.
        #expect(abs(100 / near - 120.9490) < 1e-4 && abs(100 / far - 85.2366) < 1e-4)
    }

    @Test func twoDimensionalViewsKeepTheAffinePath() {
        let items = Self.plan(Self.card(TransformSpec(scale: Size(width: -1, height: 1), rotate: 30)))
        #expect(items.allSatisfy { $0.projection == nil } && items.contains { $0.label == "card" })
    }

    @Test func aHalfTurnFacesAwayButAMirrorDoesNot() throws {
        func map(_ t: TransformSpec) -> PlaneMap {
            ViewGeometry.map(
                size: Size(width: 200, height: 100), anchorPoint: Point(x: 0.5, y: 0.5), position: Point(x: 200, y: 250), transform: t)
        }
        // rotateY(180): det of the flattened map -1, of the 3x3 linear part +1: back-facing.
        #expect(!map(TransformSpec(rotateY: 180, perspective: 500)).isFacingViewer)
        // scale(-1, 1) in perspective: both determinants -1: a mirror, still facing.
        #expect(map(TransformSpec(scale: Size(width: -1, height: 1), perspective: 500)).isFacingViewer)
        #expect(map(TransformSpec(rotateY: 89, perspective: 500)).isFacingViewer)
        #expect(!map(TransformSpec(rotateX: 91, perspective: 500)).isFacingViewer)
        // Single-sided and turned away: nothing drawn; double-sided: drawn (mirrored).
        let away = Self.plan(Self.card(TransformSpec(rotateY: 180, perspective: 500), doubleSided: false))
        #expect(away.allSatisfy { !$0.label.hasPrefix("card") })
        #expect(Self.plan(Self.card(TransformSpec(rotateY: 180, perspective: 500))).contains { $0.label == "card (plane)" })
        #expect(
            Self.plan(Self.card(TransformSpec(scale: Size(width: -1, height: 1), perspective: 500), doubleSided: false))
                .contains { $0.label == "card (plane)" })
    }

    @Test func aViewBehindTheEyeDrawsNothingAndNoNumberIsNotFinite() {
        // translateZ 600 with the eye at 500: every point has w = 1 - 600 / 500 < 0.
        let items = Self.plan(Self.card(TransformSpec(translateZ: 600, perspective: 500)))
        #expect(items.allSatisfy { !$0.label.hasPrefix("card") })
        #expect(items.allSatisfy { $0.hasOnlyFiniteNumbers })
    }

    // MARK: - flip, cube, rotate3D

    static func roots(
        _ navigation: NavigationSpec, push: Bool = true
    ) throws -> (arriving: TransientView, leaving: TransientView, timeline: TransitionTimeline) {
        var s = scene(from: root("from", subviews: []), to: root("to", subviews: []), direction: push ? .present : .dismiss)
        s.transition.navigation = navigation
        let t = TransitionTimeline(scene: s)
        let views = t.segments[0].views
        let arriving = try #require(views.first { $0.isRoot && $0.screen == .to })
        return (arriving, try #require(views.first { $0.isRoot && $0.screen == .from }), t)
    }

    @Test func theFlipIsEdgeOnAtItsMiddleAndShowsOneFaceAtATime() throws {
        let (arriving, leaving, t) = try Self.roots(.flip(.left))
        #expect(arriving.duration == 0.5 && arriving.easing.curve == .named(.easeInOut))
        #expect(!arriving.initial.doubleSided && !leaving.final.doubleSided)
        // easeInOut is symmetric: half the time is half the progress, so each root has turned 90 degrees.
        let eye = 400 * 4.0 / 3  // 533.33
        for root in [arriving, leaving] {
            let map = root.state(at: root.progress(at: 0.25)).map.homography
            // rotateY(-90) about the centre (200, 400): (x, y, 0) -> (0, y, x); w = 1 - x / eye.
            for corner in [Point(x: 0, y: 0), Point(x: 400, y: 0), Point(x: 400, y: 800), Point(x: 0, y: 800)] {
                #expect(abs(try #require(map.apply(corner)).x - 200) < 1e-9)
            }
        }
        // The leaving root's top right corner (x = +200 about the centre) comes toward the eye:
        // w = 1 - 200 / eye = 0.625, y = 400 - 400 / 0.625.
        let leavingMap = leaving.state(at: leaving.progress(at: 0.25)).map.homography
        #expect(abs(try #require(leavingMap.apply(Point(x: 400, y: 0))).y - (400 - 400 / (1 - 200 / eye))) < 1e-9)
        // At the first frame the arriving root is turned away (single-sided): only the leaving root draws.
        let first = t.motionDisplayList(segment: 0, time: 0).items
        #expect(first.contains { $0.label.hasPrefix("from") } && !first.contains { $0.label.hasPrefix("to") })
        let last = t.motionDisplayList(segment: 0, time: 0.5).items
        #expect(last.contains { $0.label.hasPrefix("to") } && !last.contains { $0.label.hasPrefix("from") })
        for time in stride(from: 0.0, through: 0.5, by: 0.05) {
            #expect(t.motionDisplayList(segment: 0, time: time).items.allSatisfy { $0.hasOnlyFiniteNumbers })
        }
    }

    @Test func theCubeAt45DegreesMeetsAtTheCubeEdge() throws {
        let (arriving, leaving, _) = try Self.roots(.cube(.left))
        #expect(arriving.initial.anchorPointZ == -200)
        let eye = 400 * 4.0 / 3
        let a = arriving.state(at: 0.5).map.homography
        let l = leaving.state(at: 0.5).map.homography
        // Leaving, rotateY(-45) about (200, 400, -200): its right edge (x = +200, z = +200 from the axis) turns to
        // x' = 200 c - 200 s... = 0, z' = 282.84, 82.84 in front of the screen; its left edge to x' = -282.84 at z = -200
        // (w = 1 + 200 / eye = 1.375): projected x = 200 - 282.84 / 1.375 = -5.70, width 205.70.
        let r2 = 200 * 2.0.squareRoot()
        let w = 1 + 200 / eye
        #expect(abs(try #require(l.apply(Point(x: 400, y: 400))).x - 200) < 1e-9)
        #expect(abs(try #require(l.apply(Point(x: 0, y: 400))).x - (200 - r2 / w)) < 1e-9)
        // The arriving face, rotateY(+45), meets it at x = 200 and reaches 200 + 205.70.
        #expect(abs(try #require(a.apply(Point(x: 0, y: 400))).x - 200) < 1e-9)
        #expect(abs(try #require(a.apply(Point(x: 400, y: 400))).x - (200 + r2 / w)) < 1e-9)
        #expect(abs(r2 / w - 205.7) < 0.01)
    }

    @Test func aFlipPopTurnsBack() throws {
        let push = try Self.roots(.flip(.left))
        let pop = try Self.roots(.flip(.left), push: false)
        #expect(push.leaving.final.transform.rotateY == -180 && pop.leaving.final.transform.rotateY == 180)
    }

    @Test func rotate3DIsSeed004sMatrixAndSingleSided() throws {
        let axis = AtomicTransition.Axis3D(x: 0, y: 1, z: 0)
        let nav = NavigationSpec.composed(
            ComposedNavigation(push: RootTransitions(insertion: [.rotate3D(angle: 90, axis: axis, perspective: 1)], removal: [.opacity])))
        let (arriving, _, _) = try Self.roots(nav)
        let m = try #require(arriving.initial.transform.matrix3D)
        // rotation(90, y) . m34 = +1 / max(400, 800): row 1 (0, 0, -1, m14) with m14 = -1 * (1 / 800).
        #expect(abs(m[3] - -1.0 / 800) < 1e-15 && abs(m[2] - -1) < 1e-15 && abs(m[11]) < 1e-15)
        #expect(!arriving.initial.doubleSided && arriving.final.transform.matrix3D == nil)
    }
}

extension Paint {
    var groupItems: [DrawItem] {
        if case .group(let list) = self { return list.items }
        return []
    }
}

extension DrawItem {
    /// Every number of the item (and of its nested items) is finite.
    var hasOnlyFiniteNumbers: Bool {
        let t = transform
        let numbers = [t.a, t.b, t.c, t.d, t.tx, t.ty, shape.rect.minX, shape.rect.minY, shape.rect.width, shape.rect.height, opacity]
            + (projection?.values ?? []) + clips.flatMap { ($0.projection?.values ?? []) + [$0.transform.a, $0.transform.tx] }
        return numbers.allSatisfy { $0.isFinite } && paint.groupItems.allSatisfy { $0.hasOnlyFiniteNumbers }
    }
}
