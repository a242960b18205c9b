/// Compositor: draws a frame plan's display lists into premultiplied RGBA8 bitmaps.
///
/// ## Job
/// Given a `FramePlanSource`, rasterize each snapshot once (`FrameRenderer`),
/// then draw any frame's `DisplayList` onto the canvas background. The frame
/// plan is all this module knows of the engine.
///
/// ## Invariants
/// - Pixels are premultiplied RGBA8, sRGB-encoded, blended in sRGB (as UIKit
///   composites), rows top to bottom without padding (`Bitmap`).
/// - Items are drawn back to front with premultiplied source-over onto a target
///   first filled with the background (which may be transparent).
/// - Output is deterministic: a pure function of plan and frame index, and
///   byte-identical for every thread count (bands never change a pixel's
///   arithmetic; items are prepared once per list, before bands run).
/// - Bad input never traps: non-finite or non-invertible transforms, zero-size
///   shapes, NaN opacity or colours, unknown bitmap indices and snapshots that
///   reference snapshots all draw nothing; no float reaches an integer
///   conversion unclamped.
///
/// ## Pipeline and kernels (one concept per file)
/// - `PreparedItem`: per-item setup and culling (opacity 0, zero area, outside
///   target or clips); pixel bounds = shape bounds ∩ clip bounds ∩ target.
/// - `CoverageShape`: a transformed rounded rect in kernel form, with exact
///   per-row spans (line ∩ parallelogram), so rotated items skip their empty
///   bounding-box corners.
/// - `CoverageKernels`: analytic coverage per row span into a Float scratch row:
///   separable box-filter area per axis (exact for axis-aligned rectangles,
///   including fractional edges), a one-pixel ramp over the pixel-space signed
///   distance for rotated edges and for corner arcs; clips multiply in; then
///   coverage x opacity is quantized to 8-bit alpha and zero ends are trimmed.
/// - `Sampling`: the one entry point for bitmap paints; integer bilinear on
///   premultiplied texels, edge-clamped, with an exact copy path for
///   unit-scale integer offsets (a snapshot drawn 1:1 reproduces its pixels),
///   a per-item column table for unrotated mappings and a two-pass
///   (coordinates, then gathers) path for rotated ones.
/// - `BlendKernels`: 16-bit integer source-over with one rounding per channel;
///   SIMD (`SIMD4<UInt32>` pixels viewed as `SIMD8<UInt16>` channel pairs, four
///   pixels per step) with a bit-identical scalar reference.
/// - `Rasterizer`: the per-band, per-item, per-row loop; `RowScratch`: reused
///   rows; `FrameRenderer`: the public per-plan renderer.
///
/// Each kernel has a plain scalar/Double reference next to it and a test that
/// compares the two; inner loops use Float or 16-bit integers on raw pointers.
///
/// ## Measured choices
/// Release build, baseline x86-64 target, 2-core VM shared with other builds
/// (figures vary by about 30 %), best of 5:
///
///     SHIFTRENDER_BENCH=1 swift test -c release --scratch-path .build-comp-rel \
///         -Xswiftc -enable-testing --filter 'CompositorBenchmark|KernelBenchmark'
///
/// (run the two suites one at a time; Swift Testing runs suites in parallel).
/// One 1920x1080 full-screen layer, 1 thread (2 threads):
/// opaque solid rect 2.3 ms (1.1); 50 % solid, rounded, rounded clip 6.7 ms;
/// solid rotated 5 degrees 5.4 ms; 1920x1080 bitmap at 1:1 (copy path)
/// 6.2 ms; 1170x2532 bitmap stretched to the screen (bilinear, column table)
/// 15.6 ms (8.4); the same rotated 5 degrees with radius 40 27 ms (18.6).
/// Kernels, ns per pixel: coverage 0.6 axis-aligned / 0.95 rotated, quantize
/// 0.45, blend 1.4 (scalar reference 3.7), bilinear 5.3 with the column
/// table / 10.3 rotated / 15 per-pixel. Each non-obvious choice came from these
/// numbers: the first-cut kernels measured coverage 2.1, blend 2.0-2.9 and
/// bilinear 15-29 ns/px (reasons noted in each kernel's file).
public import Primitives
public import FramePlan

/// Stateless drawing entry points (used by `FrameRenderer` for both snapshots and frames).
public enum Compositor {
    /// The premultiplied RGBA8 pixel of a straight-alpha colour
    /// (components clamped to 0...1, NaN as 0; each channel `round(c * a * 255)`).
    public static func premultiplied(_ color: RGBAColor) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let p = premultipliedPixel(color)
        return (p.x, p.y, p.z, p.w)
    }

    static func premultipliedPixel(_ color: RGBAColor) -> SIMD4<UInt8> {
        let a = color.alpha > 0 ? min(color.alpha, 1) : 0
        func channel(_ v: Double) -> UInt8 {
            let c = v > 0 ? min(v, 1) : 0
            return UInt8((c * a * 255).rounded())
        }
        return SIMD4(channel(color.red), channel(color.green), channel(color.blue), UInt8((a * 255).rounded()))
    }

    /// Overwrites every pixel of `target` with `color` (premultiplied first).
    public static func fill(_ target: inout Bitmap, with color: RGBAColor) {
        let pixel = premultipliedPixel(color)
        let width = target.width, height = target.height
        precondition(target.pixels.count == width * height * 4, "malformed target bitmap")
        target.pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            Rasterizer.fill(base, width: width, rows: 0 ..< height, with: pixel)
        }
    }

    /// Draws `list` onto `target` (source-over, back to front; the target is not cleared).
    /// `.bitmap(.image(i))` samples `images[i]`, `.bitmap(.snapshot(i))` samples
    /// `snapshots[i]` (already rasterized); unknown indices draw nothing.
    /// `threads > 1` draws horizontal bands in parallel; the result is identical.
    public static func draw(_ list: DisplayList, onto target: inout Bitmap,
                            images: [Bitmap], snapshots: [Bitmap] = [], threads: Int = 1) {
        let sources = Rasterizer.Sources(images: images, snapshots: snapshots)
        let items = Rasterizer.prepare(list, width: target.width, height: target.height, sources: sources)
        let scratch = (0 ..< max(1, threads)).map { _ in RowScratch(width: target.width) }
        Rasterizer.drawBanded(items, sources: sources, background: nil, target: &target, scratch: scratch)
    }

    /// A snapshot's content drawn into a transparent bitmap of its pixel size.
    /// Items referencing snapshots draw nothing (snapshots may use images only).
    public static func rasterize(_ snapshot: SnapshotDescription, images: [Bitmap], threads: Int = 1) -> Bitmap {
        var bitmap = Bitmap(width: max(0, snapshot.pixelWidth), height: max(0, snapshot.pixelHeight))
        draw(snapshot.content, onto: &bitmap, images: images, snapshots: [], threads: threads)
        return bitmap
    }
}
