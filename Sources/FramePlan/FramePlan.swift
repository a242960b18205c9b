/// FramePlan: the one interface between the transition engine and the compositor.
///
/// The engine decides *what* is on screen at every frame; the compositor only
/// draws what a plan says. A plan (`FramePlanSource`) has:
/// - a `Canvas` (output size in pixels, background colour, frame rate);
/// - source `images` (decoded once, premultiplied RGBA8);
/// - `snapshots`: static display lists that the compositor rasterizes once
///   into bitmaps of their own (a view subtree that does not animate on its own);
/// - for every frame index, a `DisplayList`: draw items in back-to-front order.
///
/// Invariants the compositor may rely on:
/// - every transform maps an item's local space to *output pixels* (for a frame)
///   or to *snapshot pixels* (for a snapshot's items); nothing is in points;
/// - every number is finite; opacities are in 0...1; shapes have non-negative size;
/// - snapshots reference only images, never other snapshots (no cycles);
/// - `displayList(frame:)` is a pure function of the frame index, so frames can
///   be planned and drawn in any order, on any thread;
/// - an item draws only inside its `paintRect` under its transform (plus the
///   half-pixel anti-aliased fringe): `Paint.reach` is the one definition of
///   how far a paint draws beyond its shape (a shadow's blur), which the
///   compositor draws by and the engine sizes group layers by.
///
/// Paints: everything the plan says about a paint kind (case, JSON, reach, the
/// bitmap it samples) is in `Paint.swift`, each an exhaustive switch, so a new
/// kind is decided in one file; the compositor's side of the recipe is in its
/// module notes ("Paints"). Prefer new kinds that peers can draw from the JSON
/// alone (`docs/frame-plan.md`).
public enum FramePlanFormat {
    /// Bumped when the meaning of a field changes; written into exported plans.
    public static let version = 1
}

/// The output surface.
public struct Canvas: Sendable, Hashable, Codable {
    public var pixelWidth: Int
    public var pixelHeight: Int
    public var background: RGBAColor
    public var framesPerSecond: Double

    public init(pixelWidth: Int, pixelHeight: Int, background: RGBAColor, framesPerSecond: Double) {
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.background = background
        self.framesPerSecond = framesPerSecond
    }
}

/// Everything the compositor needs to draw a transition, frame by frame.
public protocol FramePlanSource: Sendable {
    var canvas: Canvas { get }
    var frameCount: Int { get }
    /// Decoded source images, indexed by `BitmapReference.image`.
    var images: [Bitmap] { get }
    /// Static content rasterized once, indexed by `BitmapReference.snapshot`.
    var snapshots: [SnapshotDescription] { get }
    /// The display list of frame `index` (0 ..< frameCount).
    func displayList(frame index: Int) -> DisplayList
}

public import Primitives
