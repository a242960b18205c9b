/// DOC PLACEHOLDER
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
        let sources = Rasterizer.Sources(images: images, snapshots: snapshots, referencedBy: list)
        draw(list, onto: &target, sources: sources, threads: threads)
    }

    static func draw(_ list: DisplayList, onto target: inout Bitmap, sources: Rasterizer.Sources, threads: Int) {
        let prepared = Rasterizer.prepare(list, width: target.width, height: target.height, sources: sources)
        let scratch = (0 ..< max(1, threads)).map { _ in RowScratch(width: target.width) }
        Rasterizer.drawBanded(prepared, background: nil, target: &target, scratch: scratch)
    }

    /// A snapshot's content drawn into a transparent bitmap of its pixel size.
    /// Items referencing snapshots draw nothing (snapshots may use images only).
    public static func rasterize(_ snapshot: SnapshotDescription, images: [Bitmap], threads: Int = 1) -> Bitmap {
        rasterize(snapshot, sources: Rasterizer.Sources(images: images, snapshots: [], referencedBy: snapshot.content),
                  threads: threads)
    }

    static func rasterize(_ snapshot: SnapshotDescription, sources: Rasterizer.Sources, threads: Int) -> Bitmap {
        var bitmap = Bitmap(width: max(0, snapshot.pixelWidth), height: max(0, snapshot.pixelHeight))
        let imagesOnly = Rasterizer.Sources(images: sources.images, snapshots: [])
        draw(snapshot.content, onto: &bitmap, sources: imagesOnly, threads: threads)
        return bitmap
    }
}
