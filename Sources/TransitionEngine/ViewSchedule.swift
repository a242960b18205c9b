import Primitives
import SceneModel

/// When each transient view starts: its `delay` (its own, or the
/// transition's), shifted by Hero's cascades.
///
/// A cascade on a view starts the transient views inside it one after
/// another, `delta` seconds apart in the cascade's direction, counting from
/// when the cascading view itself starts. Its members are its nearest
/// unmatched transient descendants: a view that animates on its own, found
/// through any views between that do not (Hero sorts the direct subviews
/// only, so a list wrapped in a plain container would not cascade at all,
/// the reason Hero special-cases UITableView). Everything inside a member
/// starts with it, unless a cascade of its own says otherwise. A member's own
/// `delay`, if it states one, comes on top of its place in the cascade (the
/// contract's words); the transition's default delay does not count twice.
/// With `delayMatchedViews`, matched views inside wait for the whole cascade
/// to have started: `count * delta` after the cascading view (Hero).
///
/// Order by the views' frames on the canvas (Hero uses frames in the
/// cascading view's space: the same order unless that view is rotated);
/// equal keys keep the scene's order, so the result never depends on a sort's
/// whims. A matched pair is scheduled in the arriving screen's tree, where
/// its timing keys come from too.
struct ViewSchedule {
    /// A transient view in a segment's lists: which list, which index.
    struct Ref: Hashable {
        var list: Screen
        var index: Int
    }

    /// For one tree: the transient view each node is (or is the matched partner of), and whether matched.
    struct TreeViews {
        var tree: ViewTree
        var refs: [Int: (ref: Ref, matched: Bool)]
        /// Whether this tree schedules its matched views (the arriving screen's does).
        var schedulesMatched: Bool
    }

    let transition: TimingOptions
    /// The views' own timing keys (matched: arriving over leaving), per list.
    let ownTiming: [Screen: [TimingOptions]]

    /// Start times in seconds, per list, for every view the trees reach.
    func starts(in trees: [TreeViews]) -> [Screen: [Double]] {
        var result: [Screen: [Double]] = [:]
        for (list, timings) in ownTiming { result[list] = timings.map { $0.over(transition).delay ?? 0 } }
        for tree in trees where !tree.tree.nodes.isEmpty {
            var overrides: [Int: Double] = [:]
            visit(0, inherited: nil, in: tree, overrides: &overrides, result: &result)
        }
        return result
    }

    private func visit(
        _ node: Int, inherited: Double?, in tree: TreeViews, overrides: inout [Int: Double], result: inout [Screen: [Double]]
    ) {
        let offset = overrides[node] ?? inherited
        let entry = tree.refs[node]
        let own: TimingOptions = entry.map { ownTiming[$0.ref.list]![$0.ref.index] } ?? tree.tree.nodes[node].spec.shift.timing
        let start = offset.map { $0 + (own.delay ?? 0) } ?? own.over(transition).delay ?? 0
        if let entry, !entry.matched || tree.schedulesMatched {
            result[entry.ref.list]![entry.ref.index] = start
        }
        let spec = tree.tree.nodes[node].spec
        if let cascade = spec.shift.timing.cascade ?? transition.cascade {
            let (members, matched) = self.members(of: node, in: tree)
            let ordered = order(members, by: cascade.direction, around: node, in: tree.tree)
            for (i, member) in ordered.enumerated() { overrides[member] = start + Double(i) * cascade.delta }
            if cascade.delayMatchedViews {
                for m in matched { overrides[m] = start + Double(members.count) * cascade.delta }
            }
        }
        for child in tree.tree.nodes[node].children {
            visit(child, inherited: offset, in: tree, overrides: &overrides, result: &result)
        }
    }

    /// The nearest unmatched transient descendants of `node`, in scene order, and the matched ones met on the way.
    private func members(of node: Int, in tree: TreeViews) -> (members: [Int], matched: [Int]) {
        var members: [Int] = []
        var matched: [Int] = []
        var stack = Array(tree.tree.nodes[node].children.reversed())
        while let n = stack.popLast() {
            if let entry = tree.refs[n] {
                if !entry.matched {
                    members.append(n)
                    continue
                }
                matched.append(n)
            }
            stack += tree.tree.nodes[n].children.reversed()
        }
        return (members, matched)
    }

    /// Hero's comparators over the nodes' frames on the canvas, stable.
    private func order(_ nodes: [Int], by direction: CascadeDirection, around center: Int, in tree: ViewTree) -> [Int] {
        let frames = nodes.map { tree.canvasFrame(of: $0) }
        let middle = tree.canvasFrame(of: center)
        func centre(_ r: Rect) -> Point { Point(x: r.minX + r.width / 2, y: r.minY + r.height / 2) }
        func distance(_ r: Rect) -> Double { centre(r).distance(to: centre(middle)) }
        let keys: [[Double]] = frames.map { r in
            switch direction {
            case .topToBottom: return [r.minY]
            case .bottomToTop: return [-r.maxY, -r.maxX]
            case .leftToRight: return [r.minX]
            case .rightToLeft: return [-r.maxX]
            case .radial: return [distance(r)]
            case .inverseRadial: return [-distance(r)]
            }
        }
        return nodes.indices.sorted { a, b in
            keys[a].lexicographicallyPrecedes(keys[b]) || (keys[a] == keys[b] && a < b)
        }.map { nodes[$0] }
    }
}

extension ViewTree {
    /// The box a node's bounds cover on the canvas.
    func canvasFrame(of index: Int) -> Rect {
        let node = nodes[index]
        let corners = [
            Point(x: 0, y: 0), Point(x: node.size.width, y: 0), Point(x: 0, y: node.size.height),
            Point(x: node.size.width, y: node.size.height),
        ].map { node.toCanvas.apply($0) }
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}
