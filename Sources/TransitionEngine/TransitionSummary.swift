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
        public var duration: Double
        /// How far the view's position travels, in points.
        public var distance: Double
    }

    public struct Segment: Codable, Sendable, Equatable {
        public var direction: String
        public var duration: Double
        public var views: [View]
    }

    public var pixelWidth: Int
    public var pixelHeight: Int
    public var framesPerSecond: Double
    public var frameCount: Int
    /// The length of the rendered clip: frameCount / framesPerSecond.
    public var seconds: Double
    public var segments: [Segment]

    public init(_ timeline: TransitionTimeline) {
        pixelWidth = timeline.canvas.pixelWidth
        pixelHeight = timeline.canvas.pixelHeight
        framesPerSecond = timeline.canvas.framesPerSecond
        frameCount = timeline.frameCount
        seconds = Double(timeline.frameCount) / timeline.canvas.framesPerSecond
        segments = timeline.segments.map { segment in
            Segment(
                direction: segment.isPresenting ? "present" : "dismiss", duration: segment.duration,
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
                        animations: view.animations.map(Self.describe), duration: view.duration,
                        distance: view.travelDistance)
                })
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
