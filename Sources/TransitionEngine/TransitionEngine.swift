/// TransitionEngine: decides what every frame of a transition shows, the way
/// Shift does on iOS, and hands it to the compositor as a frame plan.
///
/// Pipeline: `ViewTree` flattens each screen and places every view in canvas
/// points; `TransientViewBuilder` runs Shift's matching (which views animate on
/// their own, which pairs match by `shift.id`, which snapshot each belongs to);
/// `ViewState` holds the animatable properties at the start and end of each
/// transient view; `TransitionSegment` samples them through `TimingCurve` at a
/// time and emits draw items; `TransitionTimeline` strings segments and holds
/// into frames and is the `FramePlanSource` the compositor draws.
///
/// Invariants: the plan for a frame is a pure function of the scene and the
/// frame index; a frame at exactly the start or end of a motion (and every
/// hold) shows the screens at rest, as laid out (`RestingPictures`), and the
/// frames between them Shift's arrangement (time is clamped, not rounded,
/// onto each view's duration); all geometry handed on is in output pixels.
///
/// Where this deviates from Shift it says so at the place, e.g. a view's own
/// background and border are drawn live rather than baked into its snapshot,
/// so that the first and last frames look like UIKit draws the screens.
public enum TransitionEngineInfo {}
