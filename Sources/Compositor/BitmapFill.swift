import Primitives
import FramePlan

/// `.bitmap`: bilinear samples of the texture level suited to the item's
/// scale (`TexelMapping.forChain`), read through a `BitmapSampler` that keeps
/// the item's column table in the band's scratch rows and does each row's
/// vertical texel blend once for all its runs. The interior fuses sampling
/// with the constant-alpha blend (a copy where the mapping is one).
///
/// `backing`: a premultiplied colour the samples are laid over first, for a
/// group's bitmap drawn straight from above its solid background (`LayerBypass`,
/// opaque colours; `BackedGroupFill`); nil for every item of a plan.
struct BitmapFill: CoverageFill {
    let mapping: TexelMapping
    let texture: Texture
    var backing: UInt32?

    /// Nil for an unknown, empty or malformed bitmap, a snapshot where
    /// snapshots are not allowed (`sources` has none), or a mapping that cannot
    /// be set up (degenerate rectangle, non-invertible transform).
    static func prepare(
        _ item: DrawItem, _ reference: BitmapReference, sources: Rasterizer.Sources,
        target: PixelBox
    ) -> PreparedItem? {
        guard let chain = sources.chain(reference),
            let (mapping, texture) = TexelMapping.forChain(chain, transform: item.transform, rect: item.shape.rect)
        else { return nil }
        return PreparedItem(item, BitmapFill(mapping: mapping, texture: texture), target: target)
    }

    var prepared: PreparedFill { .bitmap(self) }
    var paintsOpaque: Bool { texture.isOpaque || backing.map { $0 >> 24 == 255 } == true }

    struct Band {
        var sampler: BitmapSampler
        let opaqueSource: Bool
    }

    func band(columns: Range<Int>, scratch: RowScratch) -> Band? {
        Band(
            sampler: BitmapSampler(mapping: mapping, texture: texture, scratch: scratch, columns: columns, backing: backing),
            opaqueSource: paintsOpaque)
    }

    @inline(__always)
    static func beginRow(_ band: inout Band, y: Int, lower: Int, upper: Int) {
        band.sampler.beginRow(y, lower: lower, upper: upper)
    }

    @inline(__always)
    static func blendInterior(
        _ band: inout Band, y: Int, x: Int, count: Int, dst: UnsafeMutablePointer<UInt8>, alpha: UInt8, ahead _: RowAhead
    ) {
        band.sampler.blendInterior(y: y, x: x, count: count, dst: dst, alpha: alpha, opaqueSource: band.opaqueSource)
    }

    @inline(__always)
    static func blend(
        _ band: inout Band, y: Int, x: Int, count: Int, dst: UnsafeMutablePointer<UInt8>,
        alpha: UnsafePointer<UInt8>
    ) {
        BlendKernels.sourceOver(dst: dst, src: band.sampler.sample(y: y, x: x, count: count), alpha: alpha, count: count)
    }

    func referencePixel(_ item: PreparedItem, x: Int, y: Int) -> (coverage: Double, source: SIMD4<UInt8>)? {
        var p = Sampling.referenceSample(mapping, texture, x: x, y: y)
        if let backing {
            let sample = withUnsafeBytes(of: p) { Array($0) }
            var backed = [UInt8](repeating: 0, count: 4)
            BlendKernels.overColorReference(sample, color: backing, count: 1, into: &backed)
            p = backed.withUnsafeBytes { $0.load(as: UInt32.self) }
        }
        return (
            CoverageKernels.referenceCoverage(item.shape, x: x, y: y),
            SIMD4(UInt8(p & 0xFF), UInt8((p >> 8) & 0xFF), UInt8((p >> 16) & 0xFF), UInt8(p >> 24))
        )
    }
}
