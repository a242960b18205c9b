/// The bounds every scene is checked against before any work is done, so that
/// a typo cannot ask for a 10^9-pixel canvas or a day-long render.
public enum SceneLimits {
    public static let maximumCanvasPixels = 8192
    public static let maximumScale = 8.0
    public static let maximumFPS = 240.0
    /// Below one frame a second a clip is a slideshow; the floor also keeps
    /// frame arithmetic (seconds x fps) far from overflow.
    public static let minimumFPS = 1.0
    public static let maximumSeconds = 600.0
    public static let maximumCoordinate = 1_000_000.0
    public static let maximumViewDepth = 24
    public static let maximumViews = 10_000
    public static let maximumImagePixels = 8192
    /// Degrees a rotation may name (100 turns).
    public static let maximumRotation = 36_000.0
    /// A transform's scale factor, either way.
    public static let maximumScaleFactor = 1000.0
    /// Anchor points are unit coordinates; far outside 0...1 is a mistake.
    public static let maximumAnchor = 100.0
    public static let maximumShadowRadius = 1000.0
    /// A label's string, in UTF-8 bytes: several pages, under the JSON reader's cap on one string. Shaping and
    /// line breaking are linear in it, so the cap bounds the work a typo can ask for.
    public static let maximumTextBytes = 10_000
    /// A font's size in points (UIKit takes larger, no screen shows them).
    public static let maximumFontSize = 1000.0
    public static let maximumLineHeightMultiple = 100.0
    /// Points between characters, either way.
    public static let maximumLetterSpacing = 1000.0
    /// Colours of one gradient (ours: CAGradientLayer names no limit; 256 is
    /// far beyond any design and keeps per-frame interpolation small).
    public static let maximumGradientColors = 256
    /// Stops in one keyframe track (ours: LiquidTransition and TransitKit take a closure and name no
    /// limit). A thousand is a stop per frame for 16 s at 60 fps, more than any hand-written track, and
    /// bounds the search for the stops around each frame's progress.
    public static let maximumKeyframes = 1000
    /// A cubic Bézier's control-point y, either way (ours: CSS and Core Animation take any). At 100 the
    /// curve already goes some 75 times as far as the motion; past it a value is a typo, not an overshoot.
    public static let maximumBezierControlY = 100.0
    /// A `dampingRatio` spring's ratio (UIViewPropertyAnimator's, scaled to the view's duration). Below
    /// 0.01 the spring rings over a hundred times before it settles: a blur of oscillation, not a motion.
    public static let minimumDampingRatio = 0.01
    /// Above critical damping (1) a larger ratio only slows the approach, and the curve scaled to the
    /// view's duration tends to one exponential ease-out: past 10 it moves by about a thousandth of the
    /// motion at most, so a larger ratio says nothing more (and its unit spring takes ever longer to settle).
    public static let maximumDampingRatio = 10.0
    /// Atomic transitions combined on one side (insertion or removal) of a push or pop (ours: seed 004
    /// composes any number). Its built-ins use one or two; each is a transform or alpha change made every
    /// frame, so 64 is far beyond any design and bounds the per-frame work a typo can ask for.
    public static let maximumAtomicTransitions = 64
    /// A backdrop blur's radius in points (ours: UIBlurEffect's radius is fixed per style and unpublished).
    /// The Gaussian's standard deviation is half of it, so at 100 the blur reads up to 150 pt around the
    /// view (3 sigma): a frosted glass far blurrier than any system material, and a bound on the work.
    public static let maximumBlurRadius = 100.0
    /// How far from singular a `matrix3D` must be (ours): the determinant of its flattened 3x3 divided by
    /// Hadamard's bound (the product of the rows' lengths, the largest a determinant of such rows can be),
    /// so 1 for a rotation and 0 for a plane seen edge-on or squashed to a line. Dividing by the rows'
    /// lengths makes the test blind to the units of each row (points for translation, 1 / points for
    /// perspective); a translation of t points lowers the ratio to about 1 / t, so 1e-12 refuses only
    /// matrices within a millionth of collapsing even at the 10^6-point coordinate limit.
    public static let minimumMatrix3DConditioning = 1e-12
    /// Points of one interaction gesture (ours: a finger sampled at 120 Hz for 80 s). Finding the
    /// segment around each frame's time is a search over them, so the cap bounds per-frame work.
    public static let maximumGesturePoints = 10_000
    /// Seconds of release velocity a `threshold` rule adds to the progress (ours: Hero's examples use 1;
    /// at 10 a slow 10 pt/s drift already moves a 390-pt decision by a quarter).
    public static let maximumVelocityWeight = 10.0
}
