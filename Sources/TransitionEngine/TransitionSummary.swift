import Primitives
import SceneModel

/// What the engine decided, for people (`shiftrender info`) and machines
/// (`info --json`): the transient views of each segment, their durations,
/// the total duration and the frame count.
public struct TransitionSummary: Codable, Sendable, Equatable {
    public struct View: Codable, Sendable, Equatable {
        public var screen: String
        public var path: String
        public var name: String?
        public var id: String?
        /// The other screen's view of a matched pair.
        public var matchedWith: String?
        /// "container", or the path of the transient view it moves and clips with.
        public var superview: String
        public var position: String
        /// Additional animations in effect, in Shift's terms (e.g. "move(x: -150, y: 0)").
        public var animations: [String]
        /// Seconds from the segment's start to the view's (its delay, with any cascade's).
        public var delay: Double
        public var duration: Double
        /// The timing curve, as `CurveSpec.description` names it ("standard", "easeOutBack", "spring(...)").
        public var curve: String
        /// Hero's arc intensity, when the view's position follows one.
        public var arc: Double?
        /// Properties driven by keyframes, in the order the scene gives them.
        public var keyframes: [String]
        /// How far the view's position travels, in points.
        public var distance: Double
    }

    public struct Segment: Codable, Sendable, Equatable {
        public var direction: String
        /// Until the last view ends: the largest delay + duration.
        public var duration: Double
        /// What moves the roots: "defaultAnimation fade", "navigation default (push)", "presentation card, ...".
        public var roots: String
        public var views: [View]
    }

    /// A stretch of the clip that does one thing: a hold, a motion segment or
    /// the roundtrip's pause. Phases follow each other with no gap or overlap,
    /// so their frame counts add up to the clip's; a still phase (a hold, the
    /// pause) is `seconds x fps` rounded to whole frames and is left out at 0.
    public struct Phase: Codable, Sendable, Equatable {
        /// "holdBefore", "present", "pause", "dismiss" or "holdAfter"; for a
        /// finger-driven transition "drag", then "finish" or "cancel".
        public var name: String
        public var firstFrame: Int
        /// Inclusive, as `--frames A-B`.
        public var lastFrame: Int
        public var frameCount: Int
        /// For a still phase, the time the scene asked for in seconds (the
        /// frames are that rounded to whole frames); nil for motion.
        public var requestedSeconds: Double?

        /// How `info` names the phase in text ("hold before", "present", ...).
        public var label: String {
            switch name {
            case "holdBefore": return "hold before"
            case "holdAfter": return "hold after"
            default: return name
            }
        }
    }

    /// What a scripted finger does (`InteractionPlan`), in numbers.
    public struct Interaction: Codable, Sendable, Equatable {
        /// "easyTransitions", "navigationTransitions", "liquid" or "threshold".
        public var rule: String
        /// Points of travel for progress 1 (the canvas width or height).
        public var extent: Double
        public var releaseTime: Double
        public var releaseProgress: Double
        /// Points per second along the driving direction.
        public var releaseVelocity: Double
        /// "given" (`releaseVelocity`) or "last gesture segment".
        public var velocitySource: String
        /// "finish" or "cancel".
        public var decision: String
        /// The rule's test with its numbers, e.g. "(p 0.31 > 0.5: no, or v 300 pt/s > 100: yes) and v > -5: yes".
        public var reason: String
        public var completionSpeed: Double
        public var completionSeconds: Double
    }

    public var pixelWidth: Int
    public var pixelHeight: Int
    public var framesPerSecond: Double
    public var frameCount: Int
    /// The length of the rendered clip: frameCount / framesPerSecond.
    public var seconds: Double
    public var segments: [Segment]
    /// The clip from its first frame to its last, phase by phase: what
    /// `render` writes, in order.
    public var phases: [Phase]
    /// Set when a finger drives the transition.
    public var interaction: Interaction?

    /// `scene` gives the times the still phases asked for; without it they are nil.
    public init(_ timeline: TransitionTimeline, scene: Scene? = nil) {
        pixelWidth = timeline.canvas.pixelWidth
        pixelHeight = timeline.canvas.pixelHeight
        framesPerSecond = timeline.canvas.framesPerSecond
        frameCount = timeline.frameCount
        seconds = Double(timeline.frameCount) / timeline.canvas.framesPerSecond
        segments = timeline.segments.map { segment in
            Segment(
                direction: segment.isPresenting ? "present" : "dismiss", duration: segment.duration, roots: segment.rootMotion,
                views: segment.views.map { view in
                    let superview: String
                    switch view.superview {
                    case .container: superview = "container"
                    case .parent(let p): superview = segment.views[p].address.description
                    }
                    return View(
                        screen: view.screen.rawValue, path: view.address.description, name: view.name, id: view.id,
                        matchedWith: view.matchAddress?.description, superview: superview,
                        position: view.options.position.rawValue,
                        animations: view.animations.map(Self.describe), delay: view.delay, duration: view.duration,
                        curve: view.easing.curve.description, arc: view.arc?.intensity,
                        keyframes: view.keyframes.tracks.map(\.property.rawValue), distance: view.travelDistance)
                })
        }
        phases = timeline.phases.map { phase in
            let name: String
            let requested: Double?
            switch phase.kind {
            case .holdBefore: (name, requested) = ("holdBefore", scene?.transition.holdBefore)
            case .holdAfter: (name, requested) = ("holdAfter", scene?.transition.holdAfter)
            case .pause: (name, requested) = ("pause", scene?.transition.roundtripPause)
            case .motion: (name, requested) = (timeline.segments[phase.segment].isPresenting ? "present" : "dismiss", nil)
            case .drag: (name, requested) = ("drag", nil)
            case .completion: (name, requested) = (timeline.interaction?.outcome.rawValue ?? "completion", nil)
            }
            return Phase(
                name: name, firstFrame: phase.firstFrame, lastFrame: phase.firstFrame + phase.frameCount - 1,
                frameCount: phase.frameCount, requestedSeconds: requested)
        }
        interaction = timeline.interaction.map { plan in
            Interaction(
                rule: plan.rule.name, extent: plan.extent, releaseTime: plan.releaseTime, releaseProgress: plan.releaseProgress,
                releaseVelocity: plan.releaseVelocity, velocitySource: plan.velocityFromGesture ? "last gesture segment" : "given",
                decision: plan.outcome.rawValue, reason: plan.reason, completionSpeed: plan.completionSpeed,
                completionSeconds: plan.completionDuration)
        }
    }

    static func describe(_ animation: AdditionalAnimation) -> String {
        let n = { (v: Double) in v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v) }
        let text: String
        switch animation.change {
        case .fade: text = "fade"
        case .scale(let k): text = "scale(\(n(k)))"
        case .move(let dx, let dy): text = "move(x: \(n(dx)), y: \(n(dy)))"
        case .bounds(let r): text = "bounds(\(n(r.width)) x \(n(r.height)))"
        case .alpha(let v): text = "alpha(\(n(v)))"
        case .opacity(let v): text = "opacity(\(n(v)))"
        case .cornerRadius(let v): text = "cornerRadius(\(n(v)))"
        case .anchorPoint(let p): text = "anchorPoint(\(n(p.x)), \(n(p.y)))"
        case .zPosition(let v): text = "zPosition(\(n(v)))"
        case .masksToBounds(let b): text = "masksToBounds(\(b))"
        case .borderColor(let c): text = "borderColor(\(c.hexString))"
        case .borderWidth(let v): text = "borderWidth(\(n(v)))"
        case .shadowColor(let c): text = "shadowColor(\(c.hexString))"
        case .shadowOffset(let s): text = "shadowOffset(\(n(s.width)), \(n(s.height)))"
        case .shadowRadius(let v): text = "shadowRadius(\(n(v)))"
        case .shadowOpacity(let v): text = "shadowOpacity(\(n(v)))"
        case .transform(let t):
            let scale = "scale: \(n(t.scale.width)), \(n(t.scale.height))"
            text = "transform(translate: \(n(t.translate.x)), \(n(t.translate.y)); \(scale); rotate: \(n(t.rotate)))"
        case .backgroundColor(let c): text = "backgroundColor(\(c.hexString))"
        case .rotate(let v): text = "rotate(\(n(v)))"
        }
        return animation.condition.map { "\(text) \($0.rawValue)" } ?? text
    }
}
