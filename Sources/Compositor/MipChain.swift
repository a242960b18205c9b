import Synchronization
public import Primitives

/// A source bitmap (image or rasterized snapshot) with its reduced levels,
/// built lazily and kept: level `(lx, ly)` is the base halved `lx` times in
/// width and `ly` times in height (a "rip-map": width and height reduce
/// independently, because content stretched to a new aspect ratio is often
/// minified along one axis only, and an isotropic level would blur the other).
///
/// Why levels at all: bilinear sampling reads 2x2 texels per pixel, so when a
/// pixel spans more than two texels (scale < 0.5) the texels in between are
/// skipped and a full screen shrinking to a thumbnail shimmers from frame to
/// frame. Sampling the level whose texel spacing is 1...2 target pixels reads
/// every texel's contribution (each level is a 2-tap box of the one before).
///
/// Determinism: level `(lx, ly)` is always made the same way, from `(lx, ly - 1)`
/// by halving the height, or for `ly == 0` from `(lx - 1, 0)` by halving the
/// width. So its bytes never depend on which levels were asked for first, and
/// frames stay a pure function of the plan. Levels are built under a lock during
/// item preparation (before bands run), never in the inner loops.
final class MipChain: Sendable {
    let base: Texture
    private let levels = Mutex<[Int: Texture]>([:])
    /// Threads that copy the base and build each level (`Texture`; the same bytes for any count).
    private let threads: Int
    /// Lends the levels' storage (chains made every frame: plane layers).
    private let pool: TexturePool?
    /// Whether the levels map their inked chunks (`InkMap`; not for plane layers, whose samplers do not read it).
    private let tracksInk: Bool

    init(_ bitmap: Bitmap, threads: Int = 1, pool: TexturePool? = nil, tracksInk: Bool = true) {
        self.threads = max(1, threads)
        self.pool = pool
        self.tracksInk = tracksInk
        base = Texture(bitmap, threads: threads, pool: pool, tracksInk: tracksInk)
    }

    var width: Int { base.width }
    var height: Int { base.height }
    var isOpaque: Bool { base.isOpaque }

    /// The texture halved `lx` times in width and `ly` times in height.
    func level(_ lx: Int, _ ly: Int) -> Texture {
        if lx == 0 && ly == 0 { return base }
        return levels.withLock { cache in level(lx, ly, cache: &cache) }
    }

    private func level(_ lx: Int, _ ly: Int, cache: inout [Int: Texture]) -> Texture {
        if lx == 0 && ly == 0 { return base }
        let key = lx << 8 | ly
        if let found = cache[key] { return found }
        let made =
            ly > 0
            ? level(lx, ly - 1, cache: &cache).halvedHeight(threads: threads, pool: pool, tracksInk: tracksInk)
            : level(lx - 1, 0, cache: &cache).halvedWidth(threads: threads, pool: pool, tracksInk: tracksInk)
        cache[key] = made
        return made
    }

    /// The level for a mapping that moves `texelsPerPixelX` source columns and
    /// `texelsPerPixelY` source rows per target pixel (at the base level): per
    /// axis, the first level where one pixel step spans fewer than two texels,
    /// `floor(log2(texelsPerPixel))`, stopping at a one-texel level.
    static func levelIndices(
        texelsPerPixelX: Double, texelsPerPixelY: Double,
        width: Int, height: Int
    ) -> (Int, Int) {
        (index(texelsPerPixelX, size: width), index(texelsPerPixelY, size: height))
    }

    private static func index(_ step: Double, size: Int) -> Int {
        guard step >= 2 else { return 0 }  // NaN too
        var level = 0
        var s = step
        var n = size
        while s >= 2 && n > 1 {
            s /= 2
            n = (n + 1) / 2
            level += 1
        }
        return level
    }
}

/// The compositor's choice of levels, for estimates made from a plan alone
/// (the memory budget): which level a `.bitmap` item reads and what a level
/// costs, by the same rules `MipChain` and `Texture` follow.
public enum MipLevels {
    /// The level `(x, y)` an item reads when it stretches a `width` x `height`
    /// source over `rect` under `transform`; nil when it draws nothing.
    public static func indices(transform: AffineTransform2D, rect: Rect, width: Int, height: Int) -> (x: Int, y: Int)? {
        TexelMapping(transform: transform, rect: rect, sourceWidth: width, sourceHeight: height)?.levelIndices
    }

    /// Bytes of level `(lx, ly)` of a `width` x `height` source: halved
    /// `lx` times in width and `ly` times in height, rounding up, with the
    /// texture's padding row and column.
    public static func byteCount(_ lx: Int, _ ly: Int, width: Int, height: Int) -> Int {
        var w = width
        var h = height
        for _ in 0 ..< lx { w = (w + 1) / 2 }
        for _ in 0 ..< ly { h = (h + 1) / 2 }
        return (w + 1) * (h + 1) * 4
    }
}
