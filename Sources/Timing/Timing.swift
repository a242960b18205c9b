/// Timing: how far along an animation is at a given moment, as pure math
/// with no knowledge of views. A curve maps the view's unit time (0 when it
/// starts, 1 when its duration is up) to its progress: 0 at the start, 1 at
/// the end, and in between anything the curve says, including past 1 and
/// below 0 (a spring's overshoot, a back curve's wind-up).
///
/// What lives here: Core Animation's cubic Béziers (`TimingCurve`), every
/// named curve the scene format knows (`NamedCurve`: Core Animation's, Hero's
/// and the easings.net family LiquidTransition ships), damped springs in
/// their four spellings (`SpringSpec`, evaluated by `Spring` in closed form),
/// and `Easing`, which turns any of them (`CurveSpec`) into one function of
/// unit time.
///
/// Invariants: `Easing.value(at:)` is exactly 0 at unit time 0 and exactly 1
/// at 1 (a spring is cut at its settling time, where it is within 0.001 of
/// 1), so the first frame shows the initial state and the last the final one;
/// `Easing.range(from:to:)` encloses every value the curve takes over a stretch
/// of unit time, which is what bounds the part of a large snapshot that can be
/// seen (docs/snapshots.md).
///
/// Why a spring is scaled to its view's duration instead of cut or held: a
/// scene that gives a spring and a duration asks for that spring's shape in
/// that time (UIViewPropertyAnimator's `dampingRatio` spelling has no other
/// meaning), and scaling keeps the last frame exact where cutting would jump
/// (docs/timing.md).
///
/// It sits below SceneModel, which holds curves as values of a scene and
/// checks them (a spring must settle), and below the engine, which samples them.
public enum Timing {}
