/// The bounds every scene is checked against before any work is done, so that
/// a typo cannot ask for a 10^9-pixel canvas or a day-long render.
public enum SceneLimits {
    public static let maximumCanvasPixels = 8192
    public static let maximumScale = 8.0
    public static let maximumFPS = 240.0
    public static let maximumSeconds = 600.0
    public static let maximumCoordinate = 1_000_000.0
    public static let maximumViewDepth = 24
    public static let maximumViews = 10_000
    public static let maximumImagePixels = 8192
}
