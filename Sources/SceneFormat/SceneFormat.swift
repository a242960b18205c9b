/// SceneFormat: reads a scene file (JSON, format v1) into a checked `Scene`.
///
/// The vocabulary is Shift's (`shift.id`, `contentAnimation`, `superview`, ...),
/// documented in docs/scene-format.md. Invariants of a `Scene` this module
/// returns: every number is finite and in its documented range, every key was
/// known (an unknown key is an error naming its path and the closest known key),
/// and every image it names was found and decoded. Nothing here decides how a
/// transition animates; that is the engine's job.
///
/// Errors carry the place in the scene (`to.subviews[2].frame`) and, for JSON
/// syntax, the line and column. Decoding goes on after a problem so that one
/// run reports all of them.
public enum SceneFormatVersion {
    /// The newest format version this build reads.
    public static let current = 1
}
