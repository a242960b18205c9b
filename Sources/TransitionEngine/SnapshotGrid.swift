import Primitives

/// The largest snapshot a plan holds. Past either bound a snapshot is made
/// smaller (clipped to what can be seen, then if need be coarser):
/// 16384 px a side and 2^26 px (256 MiB), which still hold the largest canvas
/// (8192 px a side) at full density with motion around it, and stay far
/// inside what the compositor can map (`TexelMapping`: 2^22 px a side).
public enum SnapshotLimits {
    public static let maximumSide = 16384
    public static let maximumPixels = 1 << 26
}

/// Which pixels of a view's content a snapshot holds (docs/snapshots.md).
///
/// The content (`size` points, the view's bounds) is laid on a grid of
/// `width x height` pixels covering all of it; the snapshot keeps columns
/// `x0 ..< x1` and rows `y0 ..< y1` of that grid. A whole grid at the canvas
/// scale is what every snapshot was before clipping, and what ordinary
/// snapshots still are, so their bytes do not change.
struct SnapshotGrid: Sendable, Equatable {
    static let maximumSide = SnapshotLimits.maximumSide
    static let maximumPixels = SnapshotLimits.maximumPixels
    /// Clipped bounds are padded by this many grid pixels for bilinear filtering...
    static let padding = 2
    /// ...and start and end on multiples of this, so the compositor's reduced
    /// levels (2 x 2 boxes from the bitmap's origin) group the same pixels as
    /// they would in the whole grid, up to level 6.
    static let alignment = 64

    let size: Size
    let width: Int
    let height: Int
    let x0: Int, y0: Int, x1: Int, y1: Int

    /// The whole content at `scale` pixels a point, as snapshots always were:
    /// nil for an empty view.
    static func whole(size: Size, scale: Double) -> SnapshotGrid? {
        guard size.width > 0, size.height > 0 else { return nil }
        let w = Int((size.width * scale).rounded(.up))
        let h = Int((size.height * scale).rounded(.up))
        return SnapshotGrid(size: size, width: w, height: h, x0: 0, y0: 0, x1: w, y1: h)
    }

    var pixelWidth: Int { x1 - x0 }
    var pixelHeight: Int { y1 - y0 }
    var pixelCount: Int { pixelWidth * pixelHeight }
    var isWhole: Bool { x0 == 0 && y0 == 0 && x1 == width && y1 == height }
    var fitsTheCap: Bool {
        pixelWidth <= Self.maximumSide && pixelHeight <= Self.maximumSide && pixelCount <= Self.maximumPixels
    }

    /// The part of the content this grid's pixels cover, in its unit square.
    var unitRect: Rect { part(of: Rect(x: 0, y: 0, width: 1, height: 1)) }

    /// The part of `area` (where the whole content is drawn) this grid's pixels
    /// cover. Multiplied before divided, so that whole numbers stay exact.
    func part(of area: Rect) -> Rect {
        Rect(
            x: area.minX + area.width * Double(x0) / Double(width), y: area.minY + area.height * Double(y0) / Double(height),
            width: area.width * Double(x1 - x0) / Double(width), height: area.height * Double(y1 - y0) / Double(height))
    }

    /// Content points to snapshot pixels. Exact ratios, so that the bitmap maps
    /// back onto the bounds without drift; a clipped grid shifts by whole pixels.
    var toPixels: AffineTransform2D {
        let scale = AffineTransform2D.scale(Double(width) / size.width, Double(height) / size.height)
        return isWhole ? scale : scale.concatenating(.translation(-Double(x0), -Double(y0)))
    }

    /// The grid at `density` pixels a point (never finer than this one), kept
    /// to the grid pixels that hold `unit` (padded and aligned), and made
    /// coarser until it fits the cap.
    func clipped(to unit: Rect, density: (x: Double, y: Double)) -> SnapshotGrid {
        func resolution(_ whole: Int, _ points: Double, _ density: Double) -> Int {
            guard density.isFinite, density * points < Double(whole) else { return whole }
            return max(1, Int((density * points).rounded(.up)))
        }
        var w = resolution(width, size.width, density.x)
        var h = resolution(height, size.height, density.y)
        while true {
            let (a0, a1) = Self.span(unit.minX, unit.maxX, of: w)
            let (b0, b1) = Self.span(unit.minY, unit.maxY, of: h)
            let grid = SnapshotGrid(size: size, width: w, height: h, x0: a0, y0: b0, x1: a1, y1: b1)
            if grid.fitsTheCap || (w == 1 && h == 1) { return grid }
            // Coarser by what the cap asks, and by a tenth more so the padding
            // and alignment (a constant number of pixels) cannot stall the loop.
            let side = Double(Self.maximumSide)
            let k =
                0.9
                * min(
                    side / Double(grid.pixelWidth), side / Double(grid.pixelHeight),
                    (Double(Self.maximumPixels) / Double(grid.pixelCount)).squareRoot(), 1)
            w = max(1, Int(Double(w) * k))
            h = max(1, Int(Double(h) * k))
        }
    }

    /// The grid pixels `lo...hi` (unit coordinates) touch, padded and aligned, within `0 ..< count`.
    private static func span(_ lo: Double, _ hi: Double, of count: Int) -> (Int, Int) {
        let n = Double(count)
        let first = max(0, min(n, (lo * n).rounded(.down) - Double(padding)))
        let last = max(0, min(n, (hi * n).rounded(.up) + Double(padding)))
        let a = Int(first) / alignment * alignment
        let b = min(count, (Int(last) + alignment - 1) / alignment * alignment)
        return (a, max(b, min(a + 1, count)))
    }
}
