import FramePlan
import Primitives
import SceneModel
import Timing

/// Shift's `Animator.buildViews` and `applyAnimations`: walks the source screen
/// (the `to` screen when presenting, the `from` screen when dismissing) looking
/// up matches by `shift.id` in the other screen, then walks the other screen
/// skipping what was matched; gives the default animation to the source root
/// and each unmatched view's additional animations to its initial state (`to`
/// screen) or final state (`from` screen); then snapshots every transient view.
///
/// Snapshots come last, once the segment exists: a large one holds only what
/// can be seen, and that depends on how the view and its transient ancestors
/// move (docs/snapshots.md). Snapshots below the threshold are made whole, as
/// they always were, so ordinary scenes keep their bytes.
struct TransientViewBuilder {
    let fromTree: ViewTree
    let toTree: ViewTree
    let isPresenting: Bool
    let transition: TransitionSpec
    let images: ImageTable
    let scale: Double
    /// The canvas in pixels and the frame rate, which decide what of a large snapshot can be seen.
    let viewport: Viewport
    /// A roundtrip's dismiss is the way back: its keyframes play from the last stop to the first.
    var playsKeyframesBackward = false

    struct Viewport {
        /// The canvas in points: what `move` by an edge travels.
        var canvas: Size
        var pixelWidth: Int
        var pixelHeight: Int
        var fps: Double
        /// Off only to draw a reference whole snapshot that clipped ones are checked against.
        var clipsLargeSnapshots = true
    }

    /// Each curve resolved once: a spring's settling time is a search, and a
    /// transition-wide spring would otherwise run it for every view.
    private let easings = EasingCache()

    private(set) var fromViews: [TransientView] = []
    private(set) var toViews: [TransientView] = []
    /// Nodes drawn on their own (transient views and their matched partners), per screen.
    private var drawnOnTheirOwn: [Screen: Set<Int>] = [.from: [], .to: []]
    /// For each transient view: its node, and its matched partner's node, per list.
    private var fromNodes: [(node: Int, match: Int?)] = []
    private var toNodes: [(node: Int, match: Int?)] = []

    init(
        fromTree: ViewTree, toTree: ViewTree, isPresenting: Bool, transition: TransitionSpec, images: ImageTable,
        scale: Double, viewport: Viewport
    ) {
        self.fromTree = fromTree
        self.toTree = toTree
        self.isPresenting = isPresenting
        self.transition = transition
        self.images = images
        self.scale = scale
        self.viewport = viewport
    }

    private func tree(_ screen: Screen) -> ViewTree { screen == .from ? fromTree : toTree }

    /// Builds the segment: transient views in container order, their snapshots and draw order.
    mutating func build() -> TransitionSegment {
        let sourceScreen: Screen = isPresenting ? .to : .from
        let otherScreen: Screen = isPresenting ? .from : .to
        var candidates: [String: Int] = [:]
        for (i, node) in tree(otherScreen).nodes.enumerated() {
            if let id = node.spec.shift.id { candidates[id] = i }
        }
        var matched = Set<String>()
        var sourceViews: [TransientView] = []
        var sourceNodes: [(node: Int, match: Int?)] = []
        if !tree(sourceScreen).nodes.isEmpty {
            walk(
                sourceScreen, 0, parent: nil, candidates: candidates, ignoring: [], matched: &matched,
                views: &sourceViews, nodes: &sourceNodes)
        }
        var otherViews: [TransientView] = []
        var otherNodes: [(node: Int, match: Int?)] = []
        var unused = Set<String>()
        if !tree(otherScreen).nodes.isEmpty {
            walk(
                otherScreen, 0, parent: nil, candidates: [:], ignoring: matched, matched: &unused,
                views: &otherViews, nodes: &otherNodes)
        }
        if isPresenting {
            (toViews, toNodes, fromViews, fromNodes) = (sourceViews, sourceNodes, otherViews, otherNodes)
        } else {
            (fromViews, fromNodes, toViews, toNodes) = (sourceViews, sourceNodes, otherViews, otherNodes)
        }
        roots = resolvedRootMotions()
        applyRootMotions(roots)
        applyAdditionalAnimations()
        return assemble()
    }

    /// Shift's `animatedViews(of:...)`: pre-order; a view whose id was matched
    /// from the other side is skipped with its subtree.
    private mutating func walk(
        _ screen: Screen, _ index: Int, parent: Int?, candidates: [String: Int],
        ignoring: Set<String>, matched: inout Set<String>,
        views: inout [TransientView], nodes: inout [(node: Int, match: Int?)]
    ) {
        let tree = self.tree(screen)
        let node = tree.nodes[index]
        let spec = node.spec
        if let id = spec.shift.id, ignoring.contains(id) { return }
        var parentForChildren = parent
        let otherScreen: Screen = screen == .from ? .to : .from
        if let id = spec.shift.id, let match = candidates[id] {
            matched.insert(id)
            let other = self.tree(otherScreen).nodes[match]
            let mine = ViewState(spec: spec, size: node.size, position: canvasPosition(of: index, in: tree))
            let theirs = ViewState(spec: other.spec, size: other.size, position: canvasPosition(of: match, in: self.tree(otherScreen)))
            let (fromState, toState) = screen == .from ? (mine, theirs) : (theirs, mine)
            views.append(
                TransientView(
                    screen: screen, address: node.address, name: spec.name, id: id, matchAddress: other.address,
                    isRoot: parent == nil, superview: .container, options: spec.shift, animations: [],
                    initial: fromState, final: toState,
                    initialContent: nil,
                    finalContent: TransientView.Content(image: nil, contentMode: .scaleToFill, imageSize: .zero, snapshot: nil, size: .zero)
                ))
            nodes.append((index, match))
            drawnOnTheirOwn[screen, default: []].insert(index)
            drawnOnTheirOwn[otherScreen, default: []].insert(match)
            parentForChildren = views.count - 1
        } else if spec.shift.id != nil || !spec.shift.animations.isEmpty || spec.shift.superview == .container || parent == nil
            || !spec.shift.timing.keyframes.isEmpty
        {
            let superview: TransientView.Superview
            let position: Point
            if let parent, spec.shift.superview != .container {
                superview = .parent(parent)
                position = self.position(of: index, inAncestor: nodes[parent].node, in: tree)
            } else {
                superview = .container
                position = canvasPosition(of: index, in: tree)
            }
            let state = ViewState(spec: spec, size: node.size, position: position)
            views.append(
                TransientView(
                    screen: screen, address: node.address, name: spec.name, id: spec.shift.id, matchAddress: nil,
                    isRoot: parent == nil, superview: superview, options: spec.shift, animations: spec.shift.animations,
                    initial: state, final: state,
                    initialContent: nil,
                    finalContent: TransientView.Content(image: nil, contentMode: .scaleToFill, imageSize: .zero, snapshot: nil, size: .zero)
                ))
            nodes.append((index, nil))
            drawnOnTheirOwn[screen, default: []].insert(index)
            parentForChildren = views.count - 1
        }
        for child in node.children {
            walk(
                screen, child, parent: parentForChildren, candidates: candidates, ignoring: ignoring,
                matched: &matched, views: &views, nodes: &nodes)
        }
    }

    /// `layer.position` in canvas coordinates (through every ancestor's transform).
    private func canvasPosition(of index: Int, in tree: ViewTree) -> Point {
        let node = tree.nodes[index]
        guard let parent = node.parent else { return node.position }
        return tree.nodes[parent].toCanvas.apply(node.position)
    }

    /// `layer.position` in the local coordinates of `ancestor`.
    private func position(of index: Int, inAncestor ancestor: Int, in tree: ViewTree) -> Point {
        var point = tree.nodes[index].position
        var current = tree.nodes[index].parent
        while let c = current, c != ancestor {
            point = tree.nodes[c].toSuperview.apply(point)
            current = tree.nodes[c].parent
        }
        return point
    }

    /// What the roots do (`RootMotions`): a navigation, a presentation, or Shift's default animation on the
    /// source root. Their changes join each root's own additional animations; their overlay is the root's
    /// at the changed end.
    private mutating func applyRootMotions(_ motions: RootMotions) {
        func apply(_ motion: RootMotions.Motion, to view: inout TransientView, arriving: Bool) {
            view.animations += motion.changes.map { AdditionalAnimation($0) }
            if let overlay = motion.overlay {
                if arriving { view.initial.overlay = overlay } else { view.final.overlay = overlay }
            }
            if let depth = motion.depth {
                for state in [\TransientView.initial, \TransientView.final] {
                    if let transform = depth.transform { view[keyPath: state].transform = transform }
                    view[keyPath: state].decomposedTransform = nil
                    view[keyPath: state].doubleSided = depth.doubleSided
                    view[keyPath: state].anchorPointZ = depth.anchorPointZ
                }
            }
            // Hero's beginWith: the root's own state, at both ends, before its changes are applied.
            if let shadow = motion.shadow {
                for state in [\TransientView.initial, \TransientView.final] {
                    view[keyPath: state].shadowColor = shadow.color
                    view[keyPath: state].shadowOpacity = shadow.opacity
                    view[keyPath: state].shadowRadius = shadow.radius
                    view[keyPath: state].shadowOffset = shadow.offset
                    view[keyPath: state].masksToBounds = false
                }
            }
        }
        if let root = toViews.firstIndex(where: \.isRoot) { apply(motions.arriving, to: &toViews[root], arriving: true) }
        if let root = fromViews.firstIndex(where: \.isRoot) { apply(motions.leaving, to: &fromViews[root], arriving: false) }
    }

    /// Arriving (`to`) views start from the modified state; leaving (`from`) views
    /// end in it. Only unmatched views take additional animations.
    private mutating func applyAdditionalAnimations() {
        let mode: AdditionalAnimation.Condition = isPresenting ? .onAppear : .onDisappear
        func apply(_ view: inout TransientView, toInitial: Bool) {
            guard !view.isMatched else {
                view.animations = []
                return
            }
            view.animations = view.animations.filter { $0.condition == nil || $0.condition == mode }
            for animation in view.animations {
                if toInitial { view.initial.apply(animation.change) } else { view.final.apply(animation.change) }
            }
        }
        for i in toViews.indices { apply(&toViews[i], toInitial: true) }
        for i in fromViews.indices { apply(&fromViews[i], toInitial: false) }
    }

    /// Contents, durations and the draw order, then the snapshots (what of a
    /// large one can be seen depends on how every view moves).
    private mutating func assemble() -> TransitionSegment {
        // Which content of which view shows which node's subviews, in the order snapshots were always made.
        var requests: [(list: Screen, view: Int, initial: Bool, screen: Screen, node: Int)] = []
        // A pair with a gradient draws its background live, under the
        // gradient, not in its contents (docs/scene-format.md, "Gradients").
        func content(_ screen: Screen, _ index: Int, matched: Bool = false, liveBackground: Bool = false) -> TransientView.Content {
            let node = tree(screen).nodes[index]
            let image = images.index(of: node.spec.image)
            let spec = node.spec
            let text = images.index(ofLabel: spec.text, size: node.size)
            let frame = TransientView.ContentFrame(
                background: liveBackground ? .clear : spec.backgroundColor ?? .clear,
                borderWidth: spec.image == nil ? spec.borderWidth : 0, borderColor: spec.borderColor)
            return TransientView.Content(
                image: image, contentMode: spec.contentMode,
                imageSize: image.map { images.pointSize(of: $0) } ?? .zero,
                snapshot: nil, size: node.size, frame: matched ? frame : nil,
                text: text, textSize: text.map { images.pointSize(of: $0) } ?? .zero)
        }
        func fill(_ views: inout [TransientView], _ nodes: [(node: Int, match: Int?)]) -> [TimingOptions] {
            var timings: [TimingOptions] = []
            for i in views.indices {
                let (node, match) = nodes[i]
                let screen = views[i].screen
                if let match {
                    let (fromNode, toNode) = screen == .from ? (node, match) : (match, node)
                    let live = tree(.from).nodes[fromNode].spec.gradient != nil || tree(.to).nodes[toNode].spec.gradient != nil
                    views[i].finalContent = content(.to, toNode, matched: true, liveBackground: live)
                    requests.append((screen, i, false, .to, toNode))
                    if views[i].options.contentAnimation == .fade {
                        views[i].initialContent = content(.from, fromNode, matched: true, liveBackground: live)
                        requests.append((screen, i, true, .from, fromNode))
                    }
                } else {
                    views[i].finalContent = content(screen, node)
                    requests.append((screen, i, false, screen, node))
                }
                timings.append(ownTiming(screen, node, match))
                setTiming(&views[i], timings[i])
            }
            return timings
        }
        var from = fromViews
        var to = toViews
        let fromTimings = fill(&from, fromNodes)
        let toTimings = fill(&to, toNodes)
        schedule(&from, &to, timings: [.from: fromTimings, .to: toTimings])
        let toOnTop = TransitionSegment.toViewsOnTop(transition.viewOrder, isPresenting: isPresenting, arrivingOnTop: roots.arrivingOnTop)
        let sourceUnderneath = roots.arrivingOnTop != nil && toOnTop != isPresenting
        var segment = TransitionSegment(
            fromViews: from, toViews: to, isPresenting: isPresenting, toOnTop: toOnTop, snapshots: [], scale: scale,
            matchedOnTop: sourceUnderneath)
        segment.rootMotion = roots.name
        let presentedScreen: Screen = isPresenting ? .to : .from
        if let dimming = roots.dimming, let presented = segment.views.firstIndex(where: { $0.isRoot && $0.screen == presentedScreen }) {
            segment.dimming = TransitionSegment.Dimming(
                color: dimming.color, opacity: dimming.opacity, presented: presented, appearing: isPresenting, canvas: viewport.canvas)
        }
        // Where each list starts in `segment.views`, and each screen's snapshot builder.
        func base(_ list: Screen) -> Int { list == .from ? (toOnTop ? 0 : to.count) : (toOnTop ? from.count : 0) }
        let fromBuilder = SnapshotBuilder(tree: fromTree, excluded: drawnOnTheirOwn[.from] ?? [], images: images, scale: scale)
        let toBuilder = SnapshotBuilder(tree: toTree, excluded: drawnOnTheirOwn[.to] ?? [], images: images, scale: scale)
        func builder(_ screen: Screen) -> SnapshotBuilder { screen == .from ? fromBuilder : toBuilder }
        let grids = requests.map { builder($0.screen).wholeGrid(of: $0.node) }
        let largeCount = grids.filter { $0.map(isLarge) ?? false }.count
        let duration = segment.duration
        let stride = stride(forLargeSnapshots: largeCount, duration: duration)
        var snapshots: [SnapshotDescription] = []
        for (request, whole) in zip(requests, grids) {
            guard var grid = whole else { continue }
            let index = base(request.list) + request.view
            let view = segment.views[index]
            // An initial content is requested only where one was set (a matched pair that fades).
            guard let content = request.initial ? view.initialContent : view.finalContent else { continue }
            if isLarge(grid), segment.turnsInDepth(index) {
                // The seen-part bound is 2-D interval arithmetic; under a 3-D map it does not hold, so all of it counts.
                grid = grid.clipped(to: SnapshotRegion.unitSquare, density: (.infinity, .infinity))
            } else if isLarge(grid) {
                guard
                    let seen = SnapshotRegion.of(
                        content, view: index, in: segment, duration: duration,
                        fps: viewport.fps, stride: stride,
                        canvas: (viewport.pixelWidth, viewport.pixelHeight))
                else { continue }  // never on the canvas: no snapshot at all
                grid = grid.clipped(to: seen.unitRect, density: seen.density)
            }
            guard let snapshot = builder(request.screen).snapshot(of: request.node, grid: grid) else { continue }
            snapshots.append(snapshot)
            var updated = content
            updated.snapshot = snapshots.count - 1
            updated.snapshotGrid = grid.isWhole ? nil : grid
            if request.initial { segment.views[index].initialContent = updated } else { segment.views[index].finalContent = updated }
        }
        segment.snapshots = snapshots
        segment.resting = restingPictures()
        return segment
    }

    /// The screens as laid out at the segment's start and end; a presentation keeps its presenting screen.
    private func restingPictures() -> RestingPictures {
        let presentation = transition.navigation == nil && transition.presentation != nil
            ? RestingPictures.Presentation(
                presentingChanges: isPresenting ? roots.leaving.changes : roots.arriving.changes, dimming: roots.dimming)
            : nil
        return RestingPictures(
            fromTree: fromTree, toTree: toTree, isPresenting: isPresenting, presentation: presentation,
            images: images, scale: scale, canvas: viewport.canvas)
    }

    /// The view's curve, duration, arc and keyframes: its own keys over the
    /// transition's. Without a duration a view lasts what its curve says (a
    /// spring's settling time) or, as in Shift, the baseline plus up to 0.175 s for its travel.
    private func setTiming(_ view: inout TransientView, _ own: TimingOptions) {
        // A root moves on the navigation's curve and duration unless the scene's keys say otherwise.
        let timing = view.isRoot ? own.over(transition.timing).over(roots.timing) : own.over(transition.timing)
        let curve = timing.curve ?? .standard
        let (easing, natural) = easings.resolve(curve)
        view.easing = easing
        view.duration = timing.duration ?? natural
            ?? ShiftDuration.duration(baseline: transition.baselineDuration, distance: view.travelDistance)
        view.arc = timing.arc.flatMap { ArcPath(from: view.initial.position, to: view.final.position, intensity: $0) }
        view.keyframes = KeyframeAnimation(playsKeyframesBackward ? timing.keyframes.map(\.playedBackward) : timing.keyframes)
    }

    /// A view's own timing keys; a matched pair plays on the arriving view's, then the leaving
    /// one's (Hero copies the to-view's onto the from-view; a key only the leaving view states is
    /// kept rather than lost).
    private func ownTiming(_ screen: Screen, _ node: Int, _ match: Int?) -> TimingOptions {
        let mine = tree(screen).nodes[node].spec.shift.timing
        guard let match else { return mine }
        let theirs = tree(screen == .from ? .to : .from).nodes[match].spec.shift.timing
        return screen == .to ? mine.over(theirs) : theirs.over(mine)
    }

    /// Each view's start (`ViewSchedule`): delays and cascades, over both screens' trees.
    private func schedule(_ from: inout [TransientView], _ to: inout [TransientView], timings: [Screen: [TimingOptions]]) {
        let anyTiming = timings.values.contains { $0.contains { !$0.isEmpty } }
        guard !transition.timing.isEmpty || anyTiming || hasCascade else { return }
        let lists: [Screen: [(node: Int, match: Int?)]] = [.from: fromNodes, .to: toNodes]
        let views: [Screen: [TransientView]] = [.from: from, .to: to]
        func treeViews(_ screen: Screen) -> ViewSchedule.TreeViews {
            var refs: [Int: (ref: ViewSchedule.Ref, matched: Bool)] = [:]
            for (i, entry) in lists[screen]!.enumerated() {
                refs[entry.node] = (ViewSchedule.Ref(list: screen, index: i), entry.match != nil)
            }
            let other: Screen = screen == .from ? .to : .from
            for (i, entry) in lists[other]!.enumerated() where views[other]![i].screen == other {
                if let match = entry.match { refs[match] = (ViewSchedule.Ref(list: other, index: i), true) }
            }
            return ViewSchedule.TreeViews(tree: tree(screen), refs: refs, schedulesMatched: screen == .to)
        }
        let schedule = ViewSchedule(transition: transition.timing, ownTiming: timings)
        let starts = schedule.starts(in: [treeViews(.from), treeViews(.to)])
        for i in from.indices { from[i].delay = starts[.from]![i] }
        for i in to.indices { to[i].delay = starts[.to]![i] }
    }

    /// Whether any view of either screen has a cascade (a view that is not transient may cascade its descendants).
    private var hasCascade: Bool {
        fromTree.nodes.contains { $0.spec.shift.timing.cascade != nil } || toTree.nodes.contains { $0.spec.shift.timing.cascade != nil }
    }

    /// What the roots do in this segment, resolved once in `build`.
    private var roots = RootMotions()

    /// The roots' motions in this segment: the navigation's, the presentation's, or Shift's default animation.
    private func resolvedRootMotions() -> RootMotions {
        if let navigation = transition.navigation {
            return RootMotions.navigation(navigation, isPush: isPresenting, canvas: viewport.canvas)
        }
        if let presentation = transition.presentation {
            let presented = tree(isPresenting ? .to : .from).nodes.first?.spec.frame
            return RootMotions.presentation(presentation, isPresenting: isPresenting, canvas: viewport.canvas, presentedFrame: presented)
        }
        return RootMotions.shiftDefault(transition.defaultAnimation, isPresenting: isPresenting)
    }

    /// A whole snapshot larger than four canvases and 2^20 px (4 MiB), or over
    /// the cap, is clipped to what can be seen; smaller ones stay whole, so
    /// ordinary scenes draw the same bytes as ever and pay for no analysis
    /// (docs/snapshots.md). The floor keeps tiny canvases from analysing every view.
    private func isLarge(_ grid: SnapshotGrid) -> Bool {
        guard viewport.clipsLargeSnapshots else { return false }
        let canvas = viewport.pixelWidth * viewport.pixelHeight
        return !grid.fitsTheCap || grid.pixelCount > min(max(4 * canvas, 1 << 20), SnapshotGrid.maximumPixels)
    }

    /// Every frame for a few large snapshots; for many, every `stride`-th, so
    /// that the analysis stays within `SnapshotRegion.intervalBudget` intervals
    /// a plan (10 000 big views over 100 000 frames would be 10^9).
    private func stride(forLargeSnapshots count: Int, duration: Double) -> Int {
        guard count > 0 else { return 1 }
        let frames = Int((duration * viewport.fps - 1e-9).rounded(.up)) + 1
        let intervals = max(SnapshotRegion.minimumIntervals, SnapshotRegion.intervalBudget / count)
        return max(1, (frames - 1 + intervals - 1) / intervals)
    }
}

/// Curves resolved to `Easing`s with their natural durations, by spelling.
private final class EasingCache {
    private var resolved: [CurveSpec: (Easing, Double?)] = [:]

    func resolve(_ curve: CurveSpec) -> (Easing, Double?) {
        if let known = resolved[curve] { return known }
        // The validator refuses springs that do not settle; Shift's curve stands in for the impossible.
        let result = (Easing(curve) ?? Easing(.standard)!, curve.naturalDuration)
        resolved[curve] = result
        return result
    }
}
