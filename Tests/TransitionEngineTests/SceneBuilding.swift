import Primitives
import FramePlan
import TransitionEngine
import SceneModel

/// Small helpers to write scenes in tests without JSON.
func view(
    _ path: String, _ frame: [Double], color: RGBAColor? = RGBAColor(red: 1, green: 0, blue: 0),
    id: String? = nil, animations: [AdditionalAnimation] = [], subviews: [View] = []
) -> View {
    var v = View(frame: Rect(x: frame[0], y: frame[1], width: frame[2], height: frame[3]))
    v.name = path
    v.backgroundColor = color
    v.shift.id = id
    v.shift.animations = animations
    v.subviews = subviews
    return v
}

func root(_ path: String, color: RGBAColor = .white, subviews: [View]) -> View {
    var v = View(frame: Rect(x: 0, y: 0, width: 400, height: 800))
    v.name = path
    v.backgroundColor = color
    v.subviews = subviews
    return v
}

func scene(
    from: View, to: View, direction: TransitionDirection = .present,
    baseline: Double = 0.265, defaultAnimation: DefaultAnimation = .none, fps: Double = 60
) -> Scene {
    var transition = TransitionSpec()
    transition.direction = direction
    transition.baselineDuration = baseline
    transition.defaultAnimation = defaultAnimation
    return Scene(canvas: CanvasSpec(width: 400, height: 800, scale: 1), fps: fps, transition: transition, from: from, to: to)
}

extension TransitionTimeline {
    /// Shift's arrangement at frame `index`'s time, even at a motion's ends, where the clip itself shows the
    /// screens at rest (`RestingScreenTests` checks those): what the rules below are about.
    func arrangement(frame index: Int) -> DisplayList {
        let (segment, time) = segmentTime(ofFrame: index)
        return motionDisplayList(segment: segment, time: time)
    }
}
