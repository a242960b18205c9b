import FramePlan
import Primitives
import SceneModel

/// A whole render: holds and transition segments laid end to end on the frame
/// grid, served to the compositor as a `FramePlanSource`.
///
/// Motion frames sit at t = i / fps; the last one is clamped to the segment's
/// duration so that it shows the final state exactly. A segment of duration D
/// therefore has ceil(D * fps) + 1 frames.
///
/// An interactive first segment (`InteractionPlan`) has a drag and a
/// completion instead of its motion, on one frame grid of the finger's clock:
/// frames at w = i / fps up to the release are the drag, the rest the
/// completion, whose last frame is its end exactly (so a cancelled transition
/// ends on the picture at time 0). A cancelled present never dismisses: a
/// roundtrip's pause and dismiss are left out.
///
/// Whatever the scene, no snapshot is over `SnapshotLimits` (large views are
/// clipped to what can be seen, docs/snapshots.md), so planning a valid scene
/// never asks for an impossible bitmap; what the snapshots add up to is the
/// memory budget's to judge.
public struct TransitionTimeline: FramePlanSource {
    public struct Phase: Sendable, Equatable {
        /// `drag` and `completion` replace the first segment's `motion` when a finger drives it.
        public enum Kind: String, Sendable { case holdBefore, motion, drag, completion, pause, holdAfter }
        public var kind: Kind
        public var segment: Int
        public var firstFrame: Int
        public var frameCount: Int
        /// For still phases, the segment time every frame shows.
        public var stillTime: Double?
    }

    /// Renders longer than this are refused before any work (100 000 frames is 27 minutes at 60 fps).
    public static let maximumFrameCount = 100_000

    public let canvas: Canvas
    public let images: [Bitmap]
    public let snapshots: [SnapshotDescription]
    public let segments: [TransitionSegment]
    public let phases: [Phase]
    public let frameCount: Int
    /// What the finger does to the first segment; nil when the transition plays by itself.
    public let interaction: InteractionPlan?
    private let snapshotBases: [Int]
    /// Each screen of the scene drawn alone, as laid out (`screenAlone`).
    private let screens: [Screen: [DrawItem]]

    /// Plans `scene`, which should be valid (`SceneValidator`). `images` holds
    /// the decoded bitmap of every file or encoded image the scene names
    /// (bitmap sources need none); a missing one draws nothing. `labels`
    /// holds each label's text drawn at the canvas scale (`LabelKey.labels(in:)`
    /// lists them); a label without one draws no text.
    public init(scene: Scene, images: [ImageSource: Bitmap] = [:], labels: [LabelKey: Bitmap] = [:]) {
        self.init(scene: scene, images: images, labels: labels, clipsLargeSnapshots: true)
    }

    /// `clipsLargeSnapshots: false` keeps every snapshot whole, however large:
    /// only for tests and fuzzers that check clipped snapshots against the
    /// whole ones (docs/snapshots.md), on scenes where the whole ones fit in memory.
    package init(
        scene: Scene, images: [ImageSource: Bitmap] = [:], labels: [LabelKey: Bitmap] = [:], clipsLargeSnapshots: Bool
    ) {
        let scene = scene.withPresentedFrames
        let scale = scene.canvas.scale
        let table = ImageTable(scene: scene, decoded: images, labels: labels, scale: scale)
        let canvasSize = Size(width: scene.canvas.width, height: scene.canvas.height)
        let fromTree = ViewTree(root: scene.from, screen: .from, canvas: canvasSize)
        let toTree = ViewTree(root: scene.to, screen: .to, canvas: canvasSize)
        func segment(from: ViewTree, to: ViewTree, presenting: Bool, wayBack: Bool = false) -> TransitionSegment {
            let viewport = TransientViewBuilder.Viewport(
                canvas: canvasSize, pixelWidth: scene.canvas.pixelWidth,
                pixelHeight: scene.canvas.pixelHeight, fps: scene.fps,
                clipsLargeSnapshots: clipsLargeSnapshots)
            var builder = TransientViewBuilder(
                fromTree: from, toTree: to, isPresenting: presenting,
                transition: scene.transition, images: table, scale: scale, viewport: viewport)
            builder.playsKeyframesBackward = wayBack
            return builder.build()
        }
        var segments: [TransitionSegment]
        switch scene.transition.direction {
        case .present: segments = [segment(from: fromTree, to: toTree, presenting: true)]
        case .dismiss: segments = [segment(from: fromTree, to: toTree, presenting: false)]
        case .roundtrip:
            // Present, pause, then dismiss the presented screen back to the first one.
            let back = (
                ViewTree(root: scene.to, screen: .from, canvas: canvasSize, sceneScreen: .to),
                ViewTree(root: scene.from, screen: .to, canvas: canvasSize, sceneScreen: .from)
            )
            segments = [
                segment(from: fromTree, to: toTree, presenting: true),
                segment(from: back.0, to: back.1, presenting: false, wayBack: true),
            ]
        }
        let interaction = scene.transition.interaction.map {
            InteractionPlan($0, extent: $0.extent(of: scene.canvas), transitionDuration: segments[0].duration)
        }
        if interaction?.outcome == .cancel { segments = [segments[0]] }
        let fps = scene.fps
        func stillFrames(_ seconds: Double) -> Int { Int((seconds * fps).rounded()) }
        func motionFrames(_ seconds: Double) -> Int { Int((seconds * fps - 1e-9).rounded(.up)) + 1 }
        var phases: [Phase] = []
        var next = 0
        func add(_ kind: Phase.Kind, _ segment: Int, _ count: Int, _ still: Double?) {
            guard count > 0 else { return }
            phases.append(Phase(kind: kind, segment: segment, firstFrame: next, frameCount: count, stillTime: still))
            next += count
        }
        add(.holdBefore, 0, stillFrames(scene.transition.holdBefore), 0)
        for (i, s) in segments.enumerated() {
            if i > 0 { add(.pause, i - 1, stillFrames(scene.transition.roundtripPause), segments[i - 1].duration) }
            if i == 0, let interaction {
                // The completion keeps at least its last frame, the end itself, even when it takes no time.
                let total = motionFrames(interaction.length)
                let drag = min(Int((interaction.releaseTime * fps + 1e-9).rounded(.down)) + 1, total - 1)
                add(.drag, 0, drag, nil)
                add(.completion, 0, total - drag, nil)
            } else {
                add(.motion, i, motionFrames(s.duration), nil)
            }
        }
        var restingTime = segments.last!.duration
        if segments.count == 1, let interaction { restingTime = interaction.endTime }
        add(.holdAfter, segments.count - 1, stillFrames(scene.transition.holdAfter), restingTime)

        var bases: [Int] = []
        var snapshots: [SnapshotDescription] = []
        for s in segments {
            bases.append(snapshots.count)
            snapshots += s.snapshots
        }
        self.canvas = Canvas(
            pixelWidth: scene.canvas.pixelWidth, pixelHeight: scene.canvas.pixelHeight,
            background: scene.canvas.background, framesPerSecond: fps)
        self.images = table.bitmaps
        self.screens = [
            .from: RestingPictures.screen(fromTree, images: table, scale: scale),
            .to: RestingPictures.screen(toTree, images: table, scale: scale),
        ]
        self.snapshots = snapshots
        self.snapshotBases = bases
        self.segments = segments
        self.phases = phases
        self.frameCount = next
        self.interaction = interaction
    }

    /// The part of its view's content that snapshot `index` holds, in the
    /// content's unit square: nil when it holds all of it (or there is no
    /// such snapshot). For checks that what a frame shows of a content lies in
    /// the part its snapshot kept (docs/snapshots.md).
    package func keptPart(ofSnapshot index: Int) -> Rect? {
        for (s, segment) in segments.enumerated() {
            for view in segment.views {
                for content in [view.initialContent, view.finalContent].compactMap({ $0 })
                where content.snapshot.map({ $0 + snapshotBases[s] }) == index {
                    return content.snapshotGrid?.unitRect
                }
            }
        }
        return nil
    }

    /// Which segment frame `index` shows, and at what time into it.
    public func segmentTime(ofFrame index: Int) -> (segment: Int, time: Double) {
        let frame = min(max(index, 0), frameCount - 1)
        let phase = phases.last { $0.firstFrame <= frame }!
        if let still = phase.stillTime { return (phase.segment, still) }
        if let interaction, phase.kind == .drag || phase.kind == .completion {
            if phase.kind == .completion && frame == phase.firstFrame + phase.frameCount - 1 { return (0, interaction.endTime) }
            let start = phases.first { $0.kind == .drag || $0.kind == .completion }!.firstFrame
            return (0, interaction.segmentTime(at: Double(frame - start) / canvas.framesPerSecond))
        }
        let duration = segments[phase.segment].duration
        // The last motion frame is the segment's end itself: ceil(D x fps) forgives D x fps a rounding
        // error above a whole number, so i / fps can fall an ulp short of D (0.3 against 0.265 + 0.035).
        if frame == phase.firstFrame + phase.frameCount - 1 { return (phase.segment, duration) }
        return (phase.segment, min(Double(frame - phase.firstFrame) / canvas.framesPerSecond, duration))
    }

    public func displayList(frame index: Int) -> DisplayList {
        let (segment, time) = segmentTime(ofFrame: index)
        if let rest = restingEnd(ofFrame: index) { return DisplayList(items: segments[segment].restingItems(rest)) }
        return displayList(segment: segment, time: time)
    }

    /// What segment `segment` shows `time` seconds in (clamped to its duration),
    /// between frames as well as on them: at exactly 0 and the duration, the
    /// screens at rest (`RestingPictures`), the end winning when the two meet.
    public func displayList(segment: Int, time: Double) -> DisplayList {
        let s = min(max(segment, 0), segments.count - 1)
        let t = time.isFinite ? min(max(time, 0), segments[s].duration) : 0
        if t >= segments[s].duration { return DisplayList(items: segments[s].restingItems(.end)) }
        if t <= 0 { return DisplayList(items: segments[s].restingItems(.start)) }
        return DisplayList(items: segments[s].items(at: t, snapshotBase: snapshotBases[s]))
    }

    /// Shift's arrangement of segment `segment` at `time`, even at its ends,
    /// where the clip shows the screens at rest: what `RestingJumps` compares them with.
    public func motionDisplayList(segment: Int, time: Double) -> DisplayList {
        let s = min(max(segment, 0), segments.count - 1)
        let t = time.isFinite ? min(max(time, 0), segments[s].duration) : 0
        return DisplayList(items: segments[s].items(at: t, snapshotBase: snapshotBases[s]))
    }

    /// `screen` of the scene drawn alone, as laid out, as UIKit draws the view hierarchy: what the clip
    /// shows at rest before and after a transition that is not a presentation.
    public func screenAlone(_ screen: Screen) -> DisplayList { DisplayList(items: screens[screen] ?? []) }

    /// The screens at rest at one end of segment `segment`.
    public func restingDisplayList(segment: Int, _ end: TransitionSegment.RestingEnd) -> DisplayList {
        DisplayList(items: segments[min(max(segment, 0), segments.count - 1)].restingItems(end))
    }

    /// The views the screens at rest show at one end of segment `segment`, bottom first.
    public func restingViews(segment: Int, _ end: TransitionSegment.RestingEnd) -> [RestingView] {
        let resting = segments[min(max(segment, 0), segments.count - 1)].resting
        return end == .start ? resting.startViews : resting.endViews
    }

    /// The transient views of Shift's arrangement of segment `segment` at `time`, in draw order, that draw
    /// something, each with the box of its bounds in canvas pixels.
    public func motionViews(segment: Int, time: Double) -> [RestingView] {
        let s = min(max(segment, 0), segments.count - 1)
        return outlines(segment: s, time: time).views.filter(\.isVisible).map { outline in
            let view = segments[s].views[outline.index]
            return RestingView(address: view.address, name: view.name, corners: outline.corners, grow: 1)
        }
    }

    /// Which end's rest frame `index` shows, or nil when it is inside a motion. The
    /// hold before shows the start; the pause and the hold after the end of the motion
    /// before them (a cancelled drag's hold after its start); a motion's first frame its
    /// start and its last frame its end, even when the motion takes no time.
    public func restingEnd(ofFrame index: Int) -> TransitionSegment.RestingEnd? {
        let frame = min(max(index, 0), frameCount - 1)
        let phase = phases.last { $0.firstFrame <= frame }!
        let isLast = frame == phase.firstFrame + phase.frameCount - 1
        let (segment, time) = segmentTime(ofFrame: frame)
        let duration = segments[segment].duration
        switch phase.kind {
        case .holdBefore: return .start
        case .pause: return .end
        case .holdAfter: return time >= duration ? .end : .start
        case .motion: return isLast ? .end : (time <= 0 ? .start : nil)
        case .drag, .completion:
            if phase.kind == .completion && isLast { return time >= duration ? .end : .start }
            return time <= 0 ? .start : (time >= duration ? .end : nil)
        }
    }
}
