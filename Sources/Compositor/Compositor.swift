/// Compositor: draws a frame plan's display lists into premultiplied RGBA8 bitmaps.
///
/// ## Job
/// Given a `FramePlanSource`, rasterize each snapshot once (`FrameRenderer`),
/// then draw any frame's `DisplayList` onto the canvas background. The frame
/// plan is all this module knows of the engine: the engine decides animated
/// values, cross-fade opacities, content sizing and content-mode rectangles;
/// the compositor draws solid, bitmap, border, shadow, gradient, group and
/// backdrop-blur items faithfully.
///
/// ## Invariants
/// - Pixels are premultiplied RGBA8, sRGB-encoded, blended in sRGB (as UIKit
///   composites), rows top to bottom without padding (`Bitmap`). A translucent
///   canvas gives correctly premultiplied frames; `Bitmap.unpremultiply(into:)`
///   (Primitives) converts them for straight-alpha encoders.
/// - Items are drawn back to front with premultiplied source-over onto a target
///   first filled with the background (which may be transparent); a backdrop
///   blur replaces the target in proportion to its coverage instead.
/// - Output is deterministic: a pure function of plan and frame index, and
///   byte-identical for every thread count (a pixel's arithmetic depends only on
///   the item and its own row and column; items are prepared once per list;
///   mip levels are built the same way whatever asks first).
/// - Bad input never traps: non-finite or non-invertible transforms, zero-size
///   shapes, NaN opacity, widths or colours, unknown bitmap indices, snapshots
///   that reference snapshots, empty groups and groups nested deeper than
///   `LayerFill.maxGroupDepth` all draw nothing.
///
/// ## Design: spend per-pixel work only where a pixel needs it
/// Per frame: `Rasterizer.prepare` resolves items (`PreparedItem`: geometry,
/// and the paint as its `Fill`: mip level and texel mapping, ring, blur, group
/// layer; see "Paints" below), drops what cannot be seen (opacity 0,
/// outside target or clips, `Occlusion`: under later exactly-opaque items' boxes,
/// or a rotated one's full rows, `RowHider`, and the background fill when one
/// covers the frame), then bands draw.
/// Per row of an item (`RowPainter`): the exact span of shape and clips, minus
/// what a later opaque item hides, is cut into an interior run where coverage
/// is exactly 1 (`CoverageShape.fullSpan`: one constant alpha, the opacity) and
/// thin edge runs (analytic coverage per pixel: `CoverageKernels`, box-filter
/// exact for axis-aligned edges, a one-pixel ramp over the distance for rotated
/// edges and corner arcs, clips multiplied in). On an axis-aligned item's
/// middle rows all of that is the same from row to row (`SteadyRows`): it is
/// worked out once, not per row.
/// Kernels (eight pixels per step, `PixelVectors`: one pixel per 32-bit lane,
/// channels in 16-bit halves; the busiest sixteen per step on AVX-512 builds,
/// `WidePixelVectors`, `FloatLanes`; each with a scalar reference and a test):
/// - `BlendKernels`: source-over with per-pixel or constant alpha; an opaque
///   run at alpha 255 is a store.
/// - `Sampling`: bilinear with 1/256 integer weights on padded `Texture`s (a
///   texel pair is one 64-bit load, no clamping per read); separable mappings
///   use a per-item column table, one contiguous vertical blend per row and a
///   horizontal pass fused with the blend, its texel pairs permuted out of
///   contiguous windows worked out once per table (`TexelWindows`, AVX2; on AVX-512 one
///   permute of sixteen-texel windows gives sixteen pixels' pairs); rotated ones a SIMD coordinate pass
///   and a gather pass; unit scale at integer offsets reads texels directly.
///   Separable rows sample only the texel runs their rows ink (`InkMap`): a
///   snapshot's transparent texels sample to 0, which leaves the target as it is.
/// - `MipChain`: per-axis 2:1 box levels built lazily, so minified content reads
///   every texel (scale < 0.5 picks level `floor(log2(texels per pixel))`).
/// - `ShadowKernels`: Gaussian-blurred rounded rectangles in closed form
///   (`ShadowShape`, after Evan Wallace): a product of two erf slabs, tabulated
///   per column for axis-aligned shadows (one multiply per pixel), plus a
///   4-sample corner integral only in the corner zones (at every other pixel of
///   every other row, interpolated between, when blurred 8 px or more: `ShadowCornerGrid`).
/// - Borders: outer minus inner coverage, skipping the inner interior.
/// - `GradientKernels`: CAGradientLayer's axial, radial and conic gradients
///   evaluated per pixel (`GradientFill`): two affine coordinates per pixel,
///   `t` from them (a square root for radial, a polynomial `atan2` for
///   conic), the stops as a sum of clamped ramps (no search, no lookup table,
///   so hard stops stay exact), premultiplied colours into the scratch row,
///   then the bitmap blends.
/// Threads: `threads` bands of interleaved 16-row chunks (balanced wherever the
/// busy part of a frame is; dealt by shares that follow how fast each band drew
/// the last frame, `BandSplit`), each with its own `RowScratch`; nothing
/// pixel-sized is allocated per frame in steady state. A run of frames
/// (`FrameSequence`) makes and prepares the next frame's display list on the
/// last band's thread while the others still draw, rather than on one thread
/// while the other waits.
///
/// ## Paints: one type per kind, one switch per stage
/// Each paint kind is one `Fill` type (`SolidFill`, `BitmapFill`, `BorderFill`,
/// `ShadowFill`, `GradientFill`, `LayerFill`, and `ProjectedLayerFill` for any item with a
/// projection; `Fill.swift`) holding what it needs and owning
/// its preparation (a static `prepare`: colour, mapping, ring or blur, and what
/// makes it draw nothing), its opacity rule (`paintsOpaque`, for occlusion),
/// its per-band setup (`band`: column tables, layer pixels) and its row drawing
/// (`drawRun`; coverage fills only blend the interior and edge runs that
/// `CoverageFill` cuts). `PreparedFill` is the enum of them. The kinds are
/// listed in two switches, both in `PreparedItem.swift`: `append` (the plan's
/// `Paint` to its fill) and `draw` (a fill to its code, once per item and
/// band); below `draw` everything is specialized per fill (`RowPainter<F>`),
/// and `Band`s hold plain values and raw pointers, so rows and runs make
/// static calls and touch no reference count. Every fill has a scalar
/// reference (`referencePixel`) that `PipelineTests` draws frames with.
///
/// To add a paint (a text mask; `GradientFill` is the latest example):
/// 1. FramePlan, `Paint.swift`: the case, its `json`, its `reach` (how far
///    beyond its shape it draws; the engine sizes group layers by it) and its
///    `bitmapReference` if it samples one; a row in `docs/frame-plan.md`.
/// 2. Compositor: `XFill.swift`, a type conforming to `CoverageFill` (a colour
///    or source laid inside the shape: write `blendInterior` and `blend`, and
///    `beginRow` for per-row work) or to `Fill` (alpha of its own: write
///    `drawRun`, using `ItemRow` for clips, quantization and pixels), with its
///    `prepare`, `prepared`, `paintsOpaque`, `band` and `referencePixel`; a
///    kernel file with scalar references if it needs new pixel math.
/// 3. `PreparedItem.swift`: `case x(XFill)` in `PreparedFill`, one line in
///    `append` and one in `draw`; the compiler lists every other switch
///    (there is one in `PipelineTests`).
/// 4. Tests: the paint in `PipelineTests.busyList` (then the per-pixel
///    reference, the paint-extent test and thread determinism cover it), and
///    tests of its own meaning.
/// A paint that reads the target under it (backdrop blur) reads rows other
/// bands may be drawing: it is a pass boundary (below), not just a fill.
///
/// Rejected, with their cost relative to the fill types (callgrind instruction
/// counts, release build, 1 thread, of the compositor drawing
/// `TransitionBenchmark`'s plan, and a plan of groups, borders and rotated items):
/// - one enum switched per row and per run, with the fill copied into a
///   parallel `Kind` and optional fields unwrapped by force (the first design):
///   4.7 % and 14 % more instructions than the fill types, most of it a copy
///   of the optional shadow and ring shapes per run;
/// - protocol dispatch per run without specialization (witness calls, what an
///   `any Fill` per item costs before any boxing): 0.1 % and 2 % more. The
///   enum is kept for that, for exhaustive switches and for no boxing.
///
/// ## Groups (group opacity, `Paint.group`)
/// A view with alpha below 1 that draws several items is one `.group` item;
/// Core Animation draws its items onto a transparent layer and blends the
/// layer once, so its overlapping parts do not show through each other.
/// `GroupLayer` does exactly that, without a second drawing path:
/// - Preparation (`LayerFill.append`, recursive, nested groups first):
///   the layer's box is the group shape's pixel bounds within target and
///   clips, shrunk to the union of its items' bounds; the items are prepared
///   against that box *in target coordinates* (same spans and coverage as if
///   drawn directly) and occlusion-culled among themselves. The group becomes
///   one item whose fill is the layer, read 1:1 at an integer offset, inside
///   its shape and clips at its opacity. Culled: opacity 0 or NaN, degenerate
///   geometry, an empty box or an empty prepared list, and (after the frame's
///   occlusion pass) groups hidden by a later opaque item, whose layers are
///   then never drawn. A group of opacity 1 without clips whose shape is a
///   whole-pixel box is not layered: its items join the list, cut to that box
///   (byte for byte what drawing them directly gives, inside the box; a layer
///   would differ only by rounding). A group that is just an opaque solid and
///   a bitmap over it (a card's content cross-fading) is no layer at all: one
///   item draws both straight onto the target, its edges made as the layer
///   would make them (`BackedGroupFill`: the same bytes). Otherwise rows across
///   the whole layer where it would hold one opaque item, or one bitmap over an
///   opaque solid, are drawn straight onto the target at the group's opacity
///   and skipped by the layer (`LayerBypass`: the same bytes).
/// - Drawing: each band first draws its rows of every layer, innermost first
///   (clear to transparent, except under the largest opaque item's box, where
///   the store replaces whatever was there; nothing when an opaque item
///   covers the layer), then its rows of the frame. Row `y` of a layer reads
///   only row `y` of the layers inside it, drawn by the same band just before,
///   so there is no barrier and output stays byte-identical for any thread
///   count. The blend is the constant-alpha row kernel over the interior
///   (`sourceOverConstant`, the 1:1 bitmap path without sampling) and
///   per-pixel alpha on the shape's and clips' edges.
/// - Memory: layer buffers come from a `LayerPool` (one per `FrameRenderer`,
///   one per `Compositor.draw`), grow by a quarter when too small and are reused
///   across frames: steady state allocates only small arrays and the layer
///   objects. A layer costs its box in bytes (8 MB for a full 1080p screen).
/// Cost: a group pays for its layer's store and one more constant-alpha
/// blend over the layer's box, against its items drawn directly (which is
/// what a renderer without groups draws, wrongly where they overlap): in
/// `CompositorBenchmark/groups`, up to about 1.75x the direct drawing for a
/// card under a translucent rect, about 1.3x over a stretched bitmap, and
/// about the same when an opaque bitmap covers the layer (no clear; the card
/// under it is culled). Plans without groups pay nothing.
///
/// ## Backdrop blur (`Paint.backdropBlur`, `BackdropFill`)
/// The blur reads what every earlier item drew, up to 3 sigma around its
/// bounds, rows that other bands draw; so `Rasterizer.prepare` splits the
/// top-level list into passes at each blur (`PreparedList.passes`) and
/// `drawBanded` finishes each pass across all bands before the blur reads it:
/// pass 1 (with group layers and background) in bands; then per blur its
/// region blurred horizontally (groups of eight rows among the bands),
/// barrier, vertically (groups of eight columns), barrier, then the blur
/// composited and the next pass drawn in bands. A pixel's bytes depend only
/// on the target and its coordinates, never on which band did the work, so
/// output stays byte-identical for any thread count. Group layers are still
/// all drawn first: their content never reads the target (a blur inside a
/// group draws nothing, UIKit's caveat for ancestors with alpha below 1).
/// `Occlusion` works per pass: nothing after a blur hides what it reads.
/// The composite replaces the target (`dst = blurred * a + dst * (1 - a)`,
/// `BlendKernels.replace`) inside the shape's anti-aliased coverage and clips.
/// Under a projection (or with projected clips) the same region and pass
/// apply (`ProjectedBackdropFill`): the region is the projected shape's pixel
/// bounds, coverage is the rounded rectangle under `projection . transform`
/// (`ProjectedShape`, eye-plane clipped, runs from its image outline), and
/// the sigma in pixels is the local sigma times the full map's scale at the
/// shape's centre `c`: `sqrt|det J(c)| = sqrt(|det F| / w(c)^3)` for
/// `F = transform . projection`, `w(c)` the homogeneous W of `c` (the affine
/// transform's `sqrt|det|` when F is affine; an affine projection is folded
/// into the transform and drawn by `BackdropFill`). One sigma per item (the
/// blur costs the same per pixel whatever sigma, but cannot vary across the
/// region); a shape whose centre is behind the eye draws nothing.
/// Kernel (`GaussianKernels`): five extended-box passes per axis (running
/// sums, variance exactly sigma^2), eight lines per SIMD step, Float in the
/// line buffers. Constant cost per pixel whatever sigma: per axis and pixel
/// five passes of about four adds and two multiplies per channel, against
/// `6 sigma + 1` multiply-adds for a sampled Gaussian (181 at sigma 30 px,
/// a 20 pt blur at @3x). Error on a step edge against the Gaussian's erf
/// profile, worst over the edge, sigma >= 2 px, before rounding: 1.46/255
/// (three boxes: 2.5/255, which fails the 2/255 requirement; a sampled
/// Gaussian cut at 3 sigma: 0.34/255). Memory: one pooled region buffer per
/// blur (its bounds' width times the read rows, 4 bytes a pixel) and two
/// line buffers per band. Not yet timed in a release build.
///
/// ## Projected items (`DrawItem.projection`, 3-D transforms)
/// Drawn as Core Animation flattens a layer: the item is rendered flat into
/// a transparent plane layer, then the layer is mapped to the target
/// perspective-correctly (`PlaneLayer`, `ProjectedLayerFill`,
/// `ProjectedSampling`):
/// - Layer: the item's `paintRect` under `transform` in plane units, cut to
///   what lands in the view (eye-clipped image cut to target and clips,
///   mapped back), at a density of the projection's largest magnification
///   there (so a texel is at most a pixel), with 2 padding texels; the item
///   is drawn into it with projection nil, opacity 1, no clips, by the
///   ordinary `Rasterizer` (every paint and groups; at preparation, banded
///   with the frame's threads: `FrameRenderer.threads`, `Compositor.draw`'s
///   `threads`, 1 per snapshot when snapshots are rasterized in parallel;
///   banded bytes never depend on the band count), and its rip-map levels
///   are built then, on the preparing thread. Caps: 4096 texels a side and
///   16 M texels (64 MB); beyond them the layer is magnified.
/// - Drawing: per row, the layer's image outline (convex, eye-clipped) gives
///   the run; per pixel the inverse homography gives the texel coordinate
///   (perspective divide), its Jacobian the mip level per axis, then
///   bilinear; pixels behind the eye or outside the layer get alpha 0, and
///   NaN never reaches an integer. SIMD: a coordinate pass eight lanes at a
///   time and a gather pass, against a Double reference of the whole pixel.
///   Clips with a projection are `ProjectedShape`s (rounded rectangles under
///   a homography, the `CoverageShape` model with the local Jacobian); affine
///   clips keep their exact spans and coverage. Edges stay anti-aliased
///   because the layer's edges are, and transparent texels surround them.
/// - A projected item hides nothing (no `opaqueBox`: its pixels are resampled);
///   2-D items never meet any of this, so their output is byte-identical.
///   Inside a group's layer and inside snapshots it draws the same way.
/// Why not a projective path in each fill: every fill (coverage, gradients,
/// shadows' closed forms, borders, bitmaps' column tables, group layers) would
/// need a second per-pixel formula with a divide and its own edge model, and
/// the separable and interior fast paths would not apply (rows of a
/// perspective plane are neither constant-`v` nor affine); not measured, but
/// the shadow and gradient kernels alone would roughly double in per-pixel
/// work, against one extra sampling pass per covered pixel here. The cost
/// of this design: the layer is drawn at preparation, before the frame's
/// bands start (its own bands in parallel, then a barrier; its mip levels in
/// parallel blocks of rows), and a layer texel is resampled once more (edges
/// soften by about half a pixel where minified).
///
/// ## Reading the binary
/// Swift 6.3 treats `@inline(__always)` as a hint and left some per-pixel
/// helpers as calls (a `SIMD8<Float>` passed in two halves, constants
/// reloaded); `SIMD8<Float>.squareRoot()` became eight libm calls and
/// `pointwiseMin` a lane-by-lane loop. Helpers that must inline into a loop
/// over eight pixels are `@inline(always)`, and the few operations Swift SIMD
/// compiles badly are AVX intrinsics with a portable form beside them. The
/// loops that showed it ran 5% (shadows) to 64% (the blur's line pass) more
/// instructions: look at `objdump -d` of a release build after changing one.
///
/// ## Measurements
/// `TransitionBenchmark` (a synthetic 1080p transition) and `KernelBenchmark`
/// (each kernel over 1920-px rows), in the compositor's tests and run only on
/// request, time this module alone; `benchmarks/run.sh` times the whole
/// pipeline. Their figures, with the commands and the load they ran under,
/// are in `benchmarks/RESULTS.md`. What they show, relatively:
/// - the haswell build (`Package.swift`) takes about 1.4x less CPU per frame
///   than the baseline; most kernels gain up to about 2x from it, a few
///   (the opaque store, rotated sampling) nothing; the AVX-512 build
///   (`znver4` or `skylake-avx512`) about 1.1x less again with the same
///   8-pixel code (more registers, three-input logic, fewer instructions),
///   and its sixteen-pixel loops about 1.1x less again;
/// - the SIMD per-pixel-alpha blend is about 2.5x (haswell) to 5x (baseline)
///   faster than its scalar reference, un-premultiplying 5x to 20x;
///   rotated sampling stays an order of magnitude slower per pixel than
///   stretched (cache-bound gathers);
/// - a shadow costs almost nothing per pixel outside its corner zones; the
///   4-sample corner integral costs two orders of magnitude more per pixel;
/// - in the benchmark transition, sampling bitmaps (the fused horizontal
///   bilinear blend, then the vertical texel-row blend) costs most, then the
///   shadow corners and the background's constant blend. The cross-faded card
///   contents are individually translucent, so nothing under a card is culled.
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
        let p = premultipliedComponents(color)
        func byte(_ v: Double) -> UInt8 { UInt8((v * 255).rounded()) }
        return SIMD4(byte(p.r), byte(p.g), byte(p.b), byte(p.a))
    }

    /// A straight-alpha colour premultiplied in 0...1 (components clamped, NaN as 0), unrounded.
    static func premultipliedComponents(_ color: RGBAColor) -> (r: Double, g: Double, b: Double, a: Double) {
        let a = color.alpha > 0 ? min(color.alpha, 1) : 0
        func channel(_ v: Double) -> Double { (v > 0 ? min(v, 1) : 0) * a }
        return (channel(color.red), channel(color.green), channel(color.blue), a)
    }

    /// Overwrites every pixel of `target` with `color` (premultiplied first).
    public static func fill(_ target: inout Bitmap, with color: RGBAColor) {
        let pixel = premultipliedPixel(color)
        let width = target.width
        let height = target.height
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
    public static func draw(
        _ list: DisplayList, onto target: inout Bitmap,
        images: [Bitmap], snapshots: [Bitmap] = [], threads: Int = 1
    ) {
        let sources = Rasterizer.Sources(images: images, snapshots: snapshots, referencedBy: list)
        draw(list, onto: &target, sources: sources, threads: threads)
    }

    static func draw(_ list: DisplayList, onto target: inout Bitmap, sources: Rasterizer.Sources, threads: Int) {
        let prepared = Rasterizer.prepare(
            list, width: target.width, height: target.height, sources: sources, threads: max(1, threads))
        let scratch = (0 ..< max(1, threads)).map { _ in RowScratch(width: target.width) }
        Rasterizer.drawBanded(prepared, background: nil, target: &target, scratch: scratch, layers: LayerPool())
    }

    /// A snapshot's content drawn into a transparent bitmap of its pixel size.
    /// Items referencing snapshots draw nothing (snapshots may use images only).
    public static func rasterize(_ snapshot: SnapshotDescription, images: [Bitmap], threads: Int = 1) -> Bitmap {
        rasterize(
            snapshot, sources: Rasterizer.Sources(images: images, snapshots: [], referencedBy: snapshot.content),
            threads: threads)
    }

    static func rasterize(_ snapshot: SnapshotDescription, sources: Rasterizer.Sources, threads: Int) -> Bitmap {
        var bitmap = Bitmap(width: max(0, snapshot.pixelWidth), height: max(0, snapshot.pixelHeight))
        let imagesOnly = Rasterizer.Sources(images: sources.images, snapshots: [])
        draw(snapshot.content, onto: &bitmap, sources: imagesOnly, threads: threads)
        return bitmap
    }
}
