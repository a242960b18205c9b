/// What a scene says that Shift ignores or draws otherwise, as warnings at
/// their places: the scene still renders (`validate` exits 0), but the user
/// learns why a key has no effect, or why the result differs from their
/// device, instead of finding out frame by frame. Each rule cites the part of
/// Shift's source it comes from (`Shift/ViewContext.swift`, `Animator.swift`).
///
/// Matches are found as Shift's `Animator.buildViews` finds them: from the
/// source screen (`to` when presenting, `from` when dismissing) into the other
/// by `shift.id`, skipping hidden subtrees and views inside an already matched
/// view of the other screen. A roundtrip plays both directions, so a view is
/// matched when either direction matches it.
///
/// A scene played `reversed` (`Scene.reversed()`) swaps its screens and flips
/// its direction: the source screen is the same screen as written, but the
/// conditions that apply flip and arriving views become leaving ones. The
/// rules follow the play; the places stay those of the scene as written.
enum ShiftFidelityWarnings {
    static func warnings(in scene: Scene, reversed: Bool = false) -> [SceneProblem] {
        var warnings: [SceneProblem] = []
        func warn(_ place: ScenePlace, _ message: String) { warnings.append(SceneProblem(.warning, at: place, message)) }
        let written = scene.transition.direction
        let swapsScreens = reversed && written != .roundtrip
        // The directions played, and for a view as written, the screen it plays on.
        let directions: [TransitionDirection] =
            written == .roundtrip ? [.present, .dismiss] : [swapsScreens ? (written == .present ? .dismiss : .present) : written]
        func played(_ screen: Screen) -> Screen { swapsScreens ? (screen == .from ? .to : .from) : screen }
        var partner: [ViewAddress: ViewAddress] = [:]
        for direction in directions {
            // Presenting, the source is the `to` screen played; as written, that is `played(.to)`.
            partner.merge(matches(in: scene, source: played(direction == .present ? .to : .from))) { first, _ in first }
        }
        let modes = Set(directions.map { $0 == .present ? AdditionalAnimation.Condition.onAppear : .onDisappear })
        let playing = directions.map(\.rawValue).joined(separator: " and ") + (swapsScreens ? " (reversed)" : "")
        scene.forEachView { view, address, _ in
            guard !isHidden(address, in: scene) else { return }
            let shift = address.place.key("shift")
            if let other = partner[address] {
                // ViewContext.applyModifers: "Only unmatched view can have animations applied."
                if !view.shift.animations.isEmpty {
                    warn(
                        shift.key("animations"),
                        "ignored: this view is matched with \(scene.namedPlace(of: other)), and Shift animates only unmatched views' "
                            + "additional animations")
                }
                // Animator.animatedViews puts every matched view straight in the container.
                if view.shift.superview == .container {
                    warn(shift.key("superview"), "ignored: a matched view always animates in the transition container")
                }
                // ViewContext copies its options from the source screen's view (Animator.buildViews).
                if directions.count == 1, played(address.screen) != (directions[0] == .present ? Screen.to : .from),
                    let source = scene.view(at: other)
                {
                    // Only what this view sets (differs from the default) and the source view does not.
                    func check<Value: Equatable>(_ key: String, _ option: KeyPath<ShiftOptions, Value>) {
                        let mine = view.shift[keyPath: option]
                        guard mine != ShiftOptions()[keyPath: option], mine != source.shift[keyPath: option] else { return }
                        warn(
                            shift.key(key),
                            "ignored: Shift takes a matched pair's options from the \(other.screen) screen's view "
                                + "(\(scene.namedPlace(of: other))) when the scene plays \(playing)")
                    }
                    check("contentAnimation", \.contentAnimation)
                    check("contentSizing", \.contentSizing)
                    check("position", \.position)
                }
                return
            }
            if view.shift.contentAnimation != .fade {
                warn(shift.key("contentAnimation"), "ignored: only a matched pair's content cross-fades, and this view has no match")
            }
            if view.shift.contentSizing != .stretch {
                warn(shift.key("contentSizing"), "ignored: only a matched pair's content is sized, and this view has no match")
            }
            for (i, animation) in view.shift.animations.enumerated() {
                let place = shift.key("animations").index(i)
                if let condition = animation.condition, !modes.contains(condition) {
                    warn(
                        place.key("when"),
                        "never applies: \(condition.rawValue) is for a \(condition == .onAppear ? "present" : "dismiss"), "
                            + "and this scene plays \(playing) only")
                    continue
                }
                warnings += changeWarnings(
                    animation.change, place: place.key(animation.change.name), arriving: played(address.screen) == .to)
            }
        }
        return warnings
    }

    /// Animations Shift applies otherwise than they read.
    private static func changeWarnings(_ change: PropertyChange, place: ScenePlace, arriving: Bool) -> [SceneProblem] {
        // Arriving views start from the modified state, leaving views end in it.
        let effect = arriving ? "so on this arriving view it never shows" : "so on this leaving view it shows from the first frame"
        switch change {
        case .masksToBounds, .zPosition:
            // ViewContext.performNonAnimatedChanges sets both to their final values before animating.
            return [
                SceneProblem(
                    .warning, at: place,
                    "not animated: Shift sets \(change.name) to its final value when the transition starts, \(effect)")
            ]
        case .backgroundColor:
            return [
                SceneProblem(
                    .warning, at: place,
                    "on a device this hardly shows: Shift's snapshot of the view holds its own background, which covers "
                        + "the animated one; shiftrender draws the animation (docs/scene-format.md)")
            ]
        default:
            return []
        }
    }

    /// Each matched view's partner, both ways, for one direction.
    private static func matches(in scene: Scene, source: Screen) -> [ViewAddress: ViewAddress] {
        let other: Screen = source == .to ? .from : .to
        var candidates: [String: ViewAddress] = [:]
        visible(scene.root(other), ViewAddress(screen: other)) { view, address in
            if let id = view.shift.id { candidates[id] = address }
            return true
        }
        var partner: [ViewAddress: ViewAddress] = [:]
        visible(scene.root(source), ViewAddress(screen: source)) { view, address in
            if let id = view.shift.id, let match = candidates[id], partner[match] == nil {
                partner[address] = match
                partner[match] = address
            }
            return true
        }
        return partner
    }

    /// Visits the views taking part (not hidden, nor inside a hidden view), pre-order.
    private static func visible(_ view: View, _ address: ViewAddress, _ body: (View, ViewAddress) -> Bool) {
        guard !view.isHidden, !view.shift.isHidden, body(view, address) else { return }
        for (i, subview) in view.subviews.enumerated() { visible(subview, address.child(i), body) }
    }

    private static func isHidden(_ address: ViewAddress, in scene: Scene) -> Bool {
        var view = scene.root(address.screen)
        if view.isHidden || view.shift.isHidden { return true }
        for index in address.indices {
            guard view.subviews.indices.contains(index) else { return true }
            view = view.subviews[index]
            if view.isHidden || view.shift.isHidden { return true }
        }
        return false
    }
}
