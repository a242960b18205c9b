/// ShiftRender: render Shift-style UI transitions from Swift, with one import.
///
/// Build a `Scene` in code (or read one with `SceneJSON`), make a `Renderer`
/// and ask it for stills, PNG data, videos, image sequences or contact sheets.
/// This module is the top of scene -> engine -> frame plan -> compositor ->
/// encoders: it checks a scene (`SceneDiagnostics`), loads what it names
/// (images), and drives the stages; the command line and the studio are thin
/// shells over it.
///
/// Invariants: nothing is written unless it is complete (outputs go to a
/// temporary name and are renamed into place); a cancelled or failed render
/// leaves nothing behind and never touches an existing target it was not told
/// to replace, nor any input of the scene; the same scene gives the same
/// pixels whatever the thread count.
@_exported import Primitives
@_exported import SceneModel
@_exported import SceneFormat
@_exported import Encoders
@_exported import PNGCodec
@_exported import TransitionEngine
