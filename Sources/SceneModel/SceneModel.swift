/// SceneModel: what a scene says, as Swift values, and the rules a scene must
/// keep. It knows no file format: `SceneFormat` reads and writes these values
/// as JSON, and the library (`ShiftRender`) builds them from Swift code too.
///
/// A `Scene` holds two view trees (`from` and `to`) and how the transition
/// between them behaves, in Shift's vocabulary (`shift.id`,
/// `contentAnimation`, `animations`, ...), with UIKit's names for view
/// properties. Properties are named as the JSON keys are, so a place in a
/// scene (`ScenePlace`, e.g. `to.subviews[2].frame`) reads the same whether the
/// scene came from a file or from code.
///
/// Invariants: values are plain and `Sendable`; nothing here loads a file or
/// decides how a transition animates (that is the engine's job). A scene may
/// hold any values; `SceneValidator` lists every broken rule, each with its
/// place, and a scene without errors is safe for every later stage (finite
/// numbers in their documented ranges, limits kept, ids unique per screen).
/// Views have no stored identity: a view is known by where it stands
/// (`ViewAddress`), which is stable for a given scene and needs no bookkeeping
/// when a scene is built or edited in code.
///
/// In Swift a scene is written as UIKit and Shift code reads (docs/swift-api.md):
/// subviews in a result builder (ViewBuilding.swift), one chained modifier
/// per property (ViewModifiers.swift, SceneModifiers.swift) and Shift's
/// animation words (AnimationSpelling.swift). They only build these values;
/// the stored properties stay the one source of truth, so imperative code
/// (`view.shift.id = "card"`) and the modifiers can be mixed freely.
public enum SceneModel {}
